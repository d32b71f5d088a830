// Interval arithmetic over time: the one primitive every time-breakdown
// analysis is built from. An Interval is half-open, [start, end), in ns.
// "Merged" lists are sorted, non-overlapping and non-touching, which is what
// mergeIntervals() returns and what the set operations take and give.
//
// The definitions follow HolisticTraceAnalysis (HTA) and the TensorBoard
// profiler plugin, which both reduce GPU activity to merged interval lists
// (HTA utils.merge_kernel_intervals; tb_plugin profiler/trace.py merge_ranges,
// intersection_ranges_lists, subtract_ranges_lists).
#pragma once

#include <cstdint>
#include <vector>

namespace damscope {

struct Interval {
  int64_t start = 0;
  int64_t end = 0;
  int64_t length() const { return end - start; }
  friend bool operator==(const Interval&, const Interval&) = default;
};

using Intervals = std::vector<Interval>;

// Sorts `v` and merges overlapping or touching intervals in place; empty and
// inverted intervals are dropped. O(n log n), O(n) when already sorted.
void mergeIntervals(Intervals& v);

// Sum of lengths of a merged list.
int64_t totalLength(const Intervals& merged);

// Set operations on merged lists; the result is merged. O(|a| + |b|).
Intervals intersectIntervals(const Intervals& a, const Intervals& b);
Intervals subtractIntervals(const Intervals& a, const Intervals& b);
Intervals uniteIntervals(const Intervals& a, const Intervals& b);

// The part of a merged list inside [start, end). O(log n + k).
Intervals clipIntervals(const Intervals& merged, int64_t start, int64_t end);

// Length of `merged` ∩ [start, end) in O(log n): a merged list with prefix
// sums of its lengths.
class CoverageIndex {
 public:
  CoverageIndex() = default;
  explicit CoverageIndex(Intervals merged);
  int64_t covered(int64_t start, int64_t end) const;
  int64_t total() const { return prefix_.empty() ? 0 : prefix_.back(); }
  const Intervals& intervals() const { return intervals_; }

 private:
  // Covered length in (-inf, t).
  int64_t coveredBefore(int64_t t) const;

  Intervals intervals_;
  std::vector<int64_t> prefix_;  // prefix_[i]: total length of intervals_[0..i]
};

}  // namespace damscope
