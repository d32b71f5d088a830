// What each host thread was doing over time: see host_activity.h.
#include "analyzer/analyses/host_activity.h"

#include <algorithm>

#include "analyzer/analyses/intervals.h"
#include "analyzer/analyses/name_patterns.h"

namespace damscope {
namespace {

struct Source {
  int64_t start, end;
  int32_t row;
  bool from_api;
};

bool sourceBefore(const Source& x, const Source& y) {
  return x.start < y.start || (x.start == y.start && x.end > y.end);
}

}  // namespace

namespace {

// Paints one timeline per thread from per-(thread, class) sources: a class
// owns the time no earlier class covers. `classes` lists the activities in
// precedence order; `bucket(thread, k)` holds the k-th class's sources.
void paint(size_t threads, const std::vector<HostActivity>& classes,
           std::vector<std::vector<Source>>& by_class, std::vector<HostSegment>& segments,
           std::vector<size_t>& offsets) {
  const size_t k_classes = classes.size();
  size_t total = 0;
  for (const auto& v : by_class) total += v.size();
  segments.reserve(total + total / 8);
  offsets.assign(threads + 1, 0);
  Intervals covered, merged, next_covered;
  for (size_t thread = 0; thread < threads; ++thread) {
    offsets[thread] = segments.size();
    covered.clear();
    std::vector<size_t> run_starts;
    for (size_t k = 0; k < k_classes; ++k) {
      std::vector<Source>& sources = by_class[thread * k_classes + k];
      if (sources.empty()) continue;
      if (!std::is_sorted(sources.begin(), sources.end(), sourceBefore)) {
        std::stable_sort(sources.begin(), sources.end(), sourceBefore);
      }
      // Merge this class's sources in place; each piece keeps its outermost event.
      size_t w = 0;
      for (size_t i = 0; i < sources.size();) {
        if (sources[i].end <= sources[i].start) {
          ++i;
          continue;
        }
        Source piece = sources[i++];
        while (i < sources.size() && sources[i].start < piece.end) {
          piece.end = std::max(piece.end, sources[i].end);
          ++i;
        }
        sources[w++] = piece;
      }
      sources.resize(w);
      const std::vector<Source>& pieces = sources;
      // The parts of each piece no earlier class covers.
      run_starts.push_back(segments.size());
      const HostActivity activity = classes[k];
      size_t j = 0;
      for (const Source& piece : pieces) {
        int64_t cursor = piece.start;
        while (j < covered.size() && covered[j].end <= cursor) ++j;
        size_t c = j;
        auto emit = [&](int64_t s, int64_t e) {
          segments.push_back({s, e, piece.row, activity, piece.from_api});
        };
        while (c < covered.size() && covered[c].start < piece.end) {
          if (covered[c].start > cursor) emit(cursor, covered[c].start);
          cursor = std::max(cursor, covered[c].end);
          ++c;
        }
        if (cursor < piece.end) emit(cursor, piece.end);
      }
      if (k + 1 < k_classes) {
        // covered |= pieces (both sorted): a linear merge.
        merged.clear();
        merged.reserve(pieces.size());
        for (const Source& piece : pieces) merged.push_back({piece.start, piece.end});
        next_covered.clear();
        next_covered.reserve(covered.size() + merged.size());
        std::merge(covered.begin(), covered.end(), merged.begin(), merged.end(),
                   std::back_inserter(next_covered),
                   [](const Interval& x, const Interval& y) { return x.start < y.start; });
        mergeIntervals(next_covered);
        covered.swap(next_covered);
      }
      std::vector<Source>().swap(sources);  // release as we go
    }
    // Each class's run is in time order: merge them into one timeline.
    auto before = [](const HostSegment& x, const HostSegment& y) { return x.start < y.start; };
    const auto base = segments.begin();
    for (size_t r = 1; r < run_starts.size(); ++r) {
      const size_t last = r + 1 < run_starts.size() ? run_starts[r + 1] : segments.size();
      std::inplace_merge(base + static_cast<std::ptrdiff_t>(offsets[thread]),
                         base + static_cast<std::ptrdiff_t>(run_starts[r]),
                         base + static_cast<std::ptrdiff_t>(last), before);
    }
  }
  offsets[threads] = segments.size();
  segments.shrink_to_fit();
}

}  // namespace

HostActivityIndex::HostActivityIndex(const AnalysisInput& input) {
  const TraceTables& t = input.tables();
  const size_t threads = t.threads.size();
  calls_.offsets.assign(threads + 1, 0);
  ranges_.offsets.assign(threads + 1, 0);
  if (threads == 0) return;
  auto valid_thread = [&](int64_t thread) {
    return !isNull(thread) && thread >= 0 && static_cast<size_t>(thread) < threads;
  };

  // API calls: synchronizing ones first, then the rest.
  {
    const ApiCallTable& api = t.api_calls;
    const std::vector<HostActivity> classes = {HostActivity::kSync, HostActivity::kCudaApi};
    std::vector<std::vector<Source>> by_class(threads * classes.size());
    if (threads == 1) by_class[1].reserve(api.size());
    for (size_t i = 0; i < api.size(); ++i) {
      if (!valid_thread(api.thread_id[i])) continue;
      const int64_t end = api.ts[i] + std::max<int64_t>(api.dur[i], 0);
      const size_t k = (input.apiFlags()[i] & kApiBlocksHost) ? 0 : 1;
      by_class[static_cast<size_t>(api.thread_id[i]) * classes.size() + k].push_back(
          {api.ts[i], end, static_cast<int32_t>(i), true});
    }
    paint(threads, classes, by_class, calls_.segments, calls_.offsets);
  }

  // Ranges: data loading, then communication, then framework ops.
  const RangeTable& r = t.ranges;
  const std::vector<HostActivity> classes = {
      HostActivity::kDataLoading, HostActivity::kCommunication, HostActivity::kFrameworkOp};
  std::vector<std::vector<Source>> by_class(threads * classes.size());
  // Per distinct name: -2 not classified yet, -3 a step (a container, even
  // when the profiler records it as a cpu_op), -1 nothing special, else the
  // class index.
  std::vector<int8_t> name_class(t.strings.size() + 1, -2);
  for (size_t i = 0; i < r.size(); ++i) {
    if (!valid_thread(r.thread_id[i])) continue;
    const std::string_view category = t.strings.get(r.category[i]);
    int8_t k;
    if (category == "dataloader") {  // the 2021 Kineto format's own category
      k = 0;
    } else {
      const size_t key =
          r.name[i].valid() ? static_cast<size_t>(r.name[i].value) : t.strings.size();
      int8_t& cls = name_class[key];
      if (cls == -2) {
        const std::string_view name = t.strings.get(r.name[i]);
        cls = profilerStepNumber(name) || isStepAnnotationName(name, nullptr) ? int8_t{-3}
              : isDataLoadingRange(name, "")                                  ? int8_t{0}
              : isCommunicationRange(name)                                    ? int8_t{1}
                                                                              : int8_t{-1};
      }
      if (cls == -3) continue;
      if (cls >= 0) {
        k = cls;
      } else if (isFrameworkOpCategory(category)) {
        k = 2;
      } else {
        continue;  // container annotations (forward, Python functions) say nothing
      }
    }
    const int64_t end = r.ts[i] + std::max<int64_t>(r.dur[i], 0);
    by_class[static_cast<size_t>(r.thread_id[i]) * classes.size() + static_cast<size_t>(k)]
        .push_back({r.ts[i], end, static_cast<int32_t>(i), false});
  }
  paint(threads, classes, by_class, ranges_.segments, ranges_.offsets);
}

std::pair<const HostSegment*, const HostSegment*> HostActivityIndex::Timeline::thread(
    int64_t thread, int64_t from) const {
  if (isNull(thread) || thread < 0 || static_cast<size_t>(thread) + 1 >= offsets.size()) {
    return {nullptr, nullptr};
  }
  const HostSegment* begin = segments.data() + offsets[static_cast<size_t>(thread)];
  const HostSegment* end = segments.data() + offsets[static_cast<size_t>(thread) + 1];
  return {std::lower_bound(begin, end, from,
                           [](const HostSegment& s, int64_t t) { return s.end <= t; }),
          end};
}

}  // namespace damscope
