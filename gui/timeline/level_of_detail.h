// Level-of-detail aggregates of the timeline's lanes, so that a lane of
// millions of events draws as many items as it has pixels, not events
// (Tracy folds spans narrower than a few pixels into one counted item; style
// rule 12).
//
// Level 0 is the lane's events. Level k >= 1 has width w_k = kBaseWidthNs *
// kGrowth^(k-1), up to the lane's span and kMaxWidthNs, and is built from level k-1's items: an
// item at least w_k long stays itself; a run of consecutive items narrower than w_k, each starting
// less than w_k after the run's end so far, merges into one summary item
// (start, end, count, busy ns, its longest event). So every item of level k
// either spans >= w_k or is followed by a gap >= w_k, and a view of T ns holds
// at most about T / w_k + 2 items per non-overlapping lane.
//
// A query picks the coarsest level whose width is <= one pixel's time (so
// nothing narrower than a pixel is drawn on its own, and nothing wider than a
// pixel is folded) and finds the items in view by binary search. Since the
// chosen w_k > ns_per_px / kGrowth, that level holds at most about kGrowth
// items per pixel of a non-overlapping lane. A level that folds too little
// (it keeps more than kKeepFraction of the last stored level's items) is not
// stored; queries then use the finer stored level, which holds at most
// 1 / kKeepFraction times as many items. That bounds memory by a geometric
// series: under 1 / (1 - kKeepFraction) times level 0.
//
// The query then folds those items per pixel column, as Orbit's discretised
// timer query returns one timer per pixel (google/orbit,
// src/ClientData/TimerDataInterface.cpp, GetNextPixelBoundaryTimeNs). Pixel
// columns count from the query's t0 (the view's left edge); an item spans
// x0 = (start - t0) / ns_per_px to x1 = (end - t0) / ns_per_px, clipped to a
// pixel beyond each edge of the view, and is drawn at least one pixel wide,
// so it covers up to column floor(max(x1, x0 + 1)). An item folds into the
// one returned before it when it ends in (or before) the column where that
// one's cover ends, or when it is narrower than a pixel and starts in that
// column; folding merges the count, busy ns and longest event as the levels
// do. An event drawn at least kKeepWholePx wide (wide enough for the painter
// to label it) is never folded: it folds into nothing and nothing folds into
// it, so a long kernel keeps its name however short its neighbours. So a
// non-overlapping lane's query returns at most one item per pixel column of
// the view, plus one after each event kept whole and the two beyond its edges,
// and what it returns is what the painter draws: nothing downstream folds
// again.
//
// Invariants (tests/gui/timeline_lod_test.cc): at every level of a lane, the
// counts sum to the lane's event count and the busy ns to the sum of its
// events' durations; items are sorted by start. A query keeps the count and
// busy ns of what it folds, returns at most one item per pixel column of a
// non-overlapping lane (plus the edges and one after each event kept whole),
// and never folds an event kKeepWholePx wide.
#pragma once

#include <cstdint>
#include <vector>

#include "gui/timeline/timeline_rows.h"

namespace damscope {

struct LodItem {
  int64_t start = 0;    // ns
  int64_t end = 0;      // ns
  int64_t busy_ns = 0;  // the sum of its events' durations (overlaps counted twice)
  int64_t id = 0;       // its longest event (EventRef::id)
  int64_t longest_ns = 0;
  uint32_t count = 1;                   // events folded into it; 1: the event itself
  EventKind kind = EventKind::kKernel;  // of its longest event
  bool summary() const { return count > 1; }
  // The share of [start, end) its events cover, >= 1 where they overlap; 1 for
  // an event of no duration.
  double busyFraction() const {
    return end > start ? static_cast<double>(busy_ns) / static_cast<double>(end - start) : 1.0;
  }
};

class LevelOfDetail {
 public:
  static constexpr int64_t kBaseWidthNs = 16;
  static constexpr int64_t kGrowth = 4;
  static constexpr double kKeepFraction = 0.75;
  // An event drawn this wide carries a label (TimelinePainter::kMinLabelPx):
  // the pixel fold keeps it whole.
  static constexpr int kKeepWholePx = 28;
  // The widest level: kBaseWidthNs * kGrowth^29 = 2^62 ns. Trace times lie
  // inside ±2^62 ns (trace/tables.h), so a span is under 2^63 and a view of it
  // a few thousand pixels wide picks levels far finer than this; and a run's
  // end plus a width up to 2^62 still fits int64. Without the cap the width
  // of a lane spanning 2^60 ns or more grew past 2^62 to 0 (wrapped) and the
  // levels were built forever (issue 32 §2).
  static constexpr int64_t kMaxWidthNs = int64_t{1} << 62;

  LevelOfDetail() = default;
  // Builds every lane's levels; counter and skew lanes keep level 0 only
  // (they are drawn as plots and bars, decimated per pixel). `rows` must outlive this object.
  // `progress` hears how far the build is, by the events of the lanes done.
  explicit LevelOfDetail(const TimelineRows& rows, const Progress& progress = {});

  // Appends to `out` the items of `lane` that overlap [t0, t1) at the level
  // for `ns_per_px`, folded per pixel column counted from t0, in start order.
  void query(int lane, int64_t t0, int64_t t1, double ns_per_px, std::vector<LodItem>& out) const;

  // The levels stored for `lane` (level 0 included), their widths and items:
  // for tests and the memory figure.
  int levelCount(int lane) const;
  int64_t levelWidth(int lane, int level) const;
  std::vector<LodItem> levelItems(int lane, int level) const;

  // Bytes held beyond the rows.
  size_t bytes() const;

 private:
  struct Level {
    int64_t width = 0;
    std::vector<LodItem> items;    // empty at level 0 (the lane's events)
    std::vector<int64_t> max_end;  // max_end[i]: the latest end among items [0, i]
  };
  const TimelineRows* rows_ = nullptr;
  std::vector<std::vector<Level>> lanes_;
};

}  // namespace damscope
