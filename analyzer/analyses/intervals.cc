// Interval arithmetic: see intervals.h.
#include "analyzer/analyses/intervals.h"

#include <algorithm>

namespace damscope {

void mergeIntervals(Intervals& v) {
  // Only the start order matters to the merge below.
  auto before = [](const Interval& a, const Interval& b) { return a.start < b.start; };
  if (!std::is_sorted(v.begin(), v.end(), before)) std::sort(v.begin(), v.end(), before);
  size_t out = 0;
  for (const Interval& i : v) {
    if (i.end <= i.start) continue;
    if (out > 0 && i.start <= v[out - 1].end) {
      v[out - 1].end = std::max(v[out - 1].end, i.end);
    } else {
      v[out++] = i;
    }
  }
  v.resize(out);
}

int64_t totalLength(const Intervals& merged) {
  int64_t sum = 0;
  for (const Interval& i : merged) sum += i.length();
  return sum;
}

Intervals intersectIntervals(const Intervals& a, const Intervals& b) {
  Intervals out;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const int64_t start = std::max(a[i].start, b[j].start);
    const int64_t end = std::min(a[i].end, b[j].end);
    if (start < end) out.push_back({start, end});
    if (a[i].end < b[j].end) {
      ++i;
    } else {
      ++j;
    }
  }
  return out;
}

Intervals subtractIntervals(const Intervals& a, const Intervals& b) {
  Intervals out;
  size_t j = 0;
  for (const Interval& x : a) {
    int64_t cursor = x.start;
    while (j < b.size() && b[j].end <= cursor) ++j;
    size_t k = j;
    while (k < b.size() && b[k].start < x.end) {
      if (b[k].start > cursor) out.push_back({cursor, b[k].start});
      cursor = std::max(cursor, b[k].end);
      ++k;
    }
    if (cursor < x.end) out.push_back({cursor, x.end});
  }
  return out;
}

Intervals uniteIntervals(const Intervals& a, const Intervals& b) {
  Intervals out;
  out.reserve(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out),
             [](const Interval& x, const Interval& y) { return x.start < y.start; });
  mergeIntervals(out);
  return out;
}

Intervals clipIntervals(const Intervals& merged, int64_t start, int64_t end) {
  Intervals out;
  auto it = std::lower_bound(merged.begin(), merged.end(), start,
                             [](const Interval& i, int64_t t) { return i.end <= t; });
  for (; it != merged.end() && it->start < end; ++it) {
    out.push_back({std::max(it->start, start), std::min(it->end, end)});
  }
  return out;
}

CoverageIndex::CoverageIndex(Intervals merged) : intervals_(std::move(merged)) {
  prefix_.reserve(intervals_.size());
  int64_t sum = 0;
  for (const Interval& i : intervals_) prefix_.push_back(sum += i.length());
}

int64_t CoverageIndex::coveredBefore(int64_t t) const {
  // First interval that ends after t: everything before it is fully covered.
  auto it = std::upper_bound(intervals_.begin(), intervals_.end(), t,
                             [](int64_t value, const Interval& i) { return value < i.end; });
  const size_t k = static_cast<size_t>(it - intervals_.begin());
  int64_t sum = k == 0 ? 0 : prefix_[k - 1];
  if (it != intervals_.end() && it->start < t) sum += t - it->start;
  return sum;
}

int64_t CoverageIndex::covered(int64_t start, int64_t end) const {
  if (end <= start || intervals_.empty()) return 0;
  return coveredBefore(end) - coveredBefore(start);
}

}  // namespace damscope
