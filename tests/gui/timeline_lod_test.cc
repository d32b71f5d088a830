// LevelOfDetail on random lanes: no event lost at any level, items sorted, and
// a query returns its items folded per pixel column: at most one per column,
// none lost.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "gui/timeline/level_of_detail.h"
#include "trace/tables.h"

namespace damscope {
namespace {

// `lanes` lanes of `n` non-overlapping events each: log-uniform durations of
// 10 ns .. 1 ms and gaps of 0 .. 50 µs.
TimelineRows randomRows(int lanes, int n, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> log_dur(1, 6);
  std::uniform_int_distribution<int64_t> gap(0, 50'000);
  TimelineRows rows;
  rows.rows.push_back({RowKind::kStream, "GPU 0 · stream 1", 0, lanes});
  for (int l = 0; l < lanes; ++l) {
    Lane lane;
    int64_t t = 1'000'000'000;
    for (int i = 0; i < n; ++i) {
      t += gap(rng);
      const int64_t dur = static_cast<int64_t>(std::pow(10.0, log_dur(rng)));
      lane.events.push_back({t, t + dur, i, EventKind::kKernel});
      t += dur;
    }
    rows.end = std::max(rows.end, t);
    rows.lanes.push_back(std::move(lane));
  }
  rows.start = 1'000'000'000;
  return rows;
}

TEST(LevelOfDetail, EveryLevelKeepsEveryEventAndItsBusyTime) {
  const TimelineRows rows = randomRows(3, 20'000, 7);
  const LevelOfDetail lod(rows);
  for (int l = 0; l < 3; ++l) {
    int64_t raw_busy = 0;
    for (const LaneEvent& e : rows.lanes[static_cast<size_t>(l)].events)
      raw_busy += e.end - e.start;
    ASSERT_GT(lod.levelCount(l), 3) << "lane " << l;
    for (int k = 0; k < lod.levelCount(l); ++k) {
      const auto items = lod.levelItems(l, k);
      int64_t count = 0;
      int64_t busy = 0;
      for (size_t i = 0; i < items.size(); ++i) {
        count += items[i].count;
        busy += items[i].busy_ns;
        if (i > 0) {
          EXPECT_LE(items[i - 1].start, items[i].start);
        }
      }
      EXPECT_EQ(count, 20'000) << "lane " << l << " level " << k;
      EXPECT_EQ(busy, raw_busy) << "lane " << l << " level " << k;
      if (k > 0) {
        EXPECT_LT(items.size(), lod.levelItems(l, k - 1).size());
      }
    }
  }
}

TEST(LevelOfDetail, AQueryReturnsAtMostOneItemPerPixelColumn) {
  const TimelineRows rows = randomRows(2, 50'000, 11);
  const LevelOfDetail lod(rows);
  const int width_px = 1000;
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 200; ++trial) {
    const int64_t span = rows.end - rows.start;
    const int64_t view = std::max<int64_t>(width_px, span >> (trial % 30));
    const int64_t t0 = rows.start + static_cast<int64_t>(rng() % static_cast<uint64_t>(span));
    const double ns_per_px = static_cast<double>(view) / width_px;
    for (int l = 0; l < 2; ++l) {
      std::vector<LodItem> items;
      lod.query(l, t0, t0 + view, ns_per_px, items);
      double covered = -2;
      bool after_whole = false;
      size_t whole = 0;
      for (const LodItem& item : items) {
        EXPECT_GT(item.end, t0 - 1);
        EXPECT_LT(item.start, t0 + view);
        // Each item ends in a later pixel column than the one before it,
        // unless that one is an event kept whole.
        const double x0 = std::max(-1.0, static_cast<double>(item.start - t0) / ns_per_px);
        const double x1 = std::min(width_px + 1.0, static_cast<double>(item.end - t0) / ns_per_px);
        const double cover = std::max(x1, x0 + 1);
        if (!after_whole) {
          EXPECT_GT(std::floor(cover), std::floor(covered)) << "view " << view << " ns";
        }
        after_whole = !item.summary() && x1 - x0 >= LevelOfDetail::kKeepWholePx;
        whole += after_whole;
        covered = cover;
      }
      // One per column of the view, one after each event kept whole, and one
      // beyond each edge.
      EXPECT_LE(items.size(), static_cast<size_t>(width_px) + whole + 3)
          << "view " << view << " ns";
      EXPECT_LE(whole, static_cast<size_t>(width_px / LevelOfDetail::kKeepWholePx) + 2);
    }
  }
}

TEST(LevelOfDetail, AQueryKeepsEveryEventAndItsBusyTimeAtEveryZoom) {
  const TimelineRows rows = randomRows(1, 20'000, 13);
  const LevelOfDetail lod(rows);
  int64_t raw_busy = 0;
  for (const LaneEvent& e : rows.lanes[0].events) raw_busy += e.end - e.start;
  const int64_t span = rows.end - rows.start;
  for (int shift = 0; shift < 24; shift += 3) {
    // The whole lane in view, drawn over fewer and fewer pixels.
    const double width_px = std::max(1.0, static_cast<double>(span >> shift) / 1000.0);
    std::vector<LodItem> items;
    lod.query(0, rows.start, rows.end, static_cast<double>(span) / width_px, items);
    int64_t count = 0;
    int64_t busy = 0;
    for (const LodItem& item : items) count += item.count, busy += item.busy_ns;
    EXPECT_EQ(count, 20'000) << width_px << " px";
    EXPECT_EQ(busy, raw_busy) << width_px << " px";
    EXPECT_LE(items.size(), static_cast<size_t>(width_px) + 3);
  }
}

TEST(LevelOfDetail, EventsSharingAPixelColumnFoldIntoOneItemNamingTheLongest) {
  TimelineRows rows;
  rows.rows.push_back({RowKind::kStream, "s", 0, 1});
  Lane lane;
  // Three 100 ns events and a 300 ns one, back to back, at 1000 ns per pixel:
  // all in the first pixel column, so the query returns one item for them,
  // even at level 0 (the events themselves).
  const int64_t durs[] = {100, 100, 300, 100};
  int64_t t = 0;
  for (int i = 0; i < 4; ++i) {
    lane.events.push_back({t, t + durs[i], i, EventKind::kKernel});
    t += durs[i];
  }
  // Then one 5 µs event: several columns of its own.
  lane.events.push_back({2000, 7000, 4, EventKind::kKernel});
  rows.lanes.push_back(lane);
  rows.end = 7000;
  const LevelOfDetail lod(rows);
  std::vector<LodItem> items;
  lod.query(0, 0, 10'000, 1000.0, items);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].count, 4u);
  EXPECT_EQ(items[0].busy_ns, 600);
  EXPECT_EQ(items[0].id, 2);
  EXPECT_EQ(items[0].longest_ns, 300);
  EXPECT_EQ(items[0].end, 600);
  EXPECT_FALSE(items[1].summary());
  EXPECT_EQ(items[1].id, 4);
}

TEST(LevelOfDetail, AnEventWideEnoughForALabelIsNeverFolded) {
  TimelineRows rows;
  rows.rows.push_back({RowKind::kStream, "s", 0, 1});
  Lane lane;
  // At 1000 ns per pixel: a 40 µs kernel (40 px, labelled), then two 100 ns
  // kernels that start in its last pixel column, then a 30 µs kernel that
  // starts inside the column where the short ones end.
  lane.events.push_back({0, 40'000, 0, EventKind::kKernel});
  lane.events.push_back({40'000, 40'100, 1, EventKind::kKernel});
  lane.events.push_back({40'100, 40'200, 2, EventKind::kKernel});
  lane.events.push_back({40'200, 70'200, 3, EventKind::kKernel});
  rows.lanes.push_back(lane);
  rows.end = 70'200;
  const LevelOfDetail lod(rows);
  std::vector<LodItem> items;
  lod.query(0, 0, 100'000, 1000.0, items);
  ASSERT_EQ(items.size(), 3u);
  EXPECT_FALSE(items[0].summary()) << "the long kernel keeps its own box and label";
  EXPECT_EQ(items[0].id, 0);
  EXPECT_EQ(items[1].count, 2u) << "the short ones fold together, not into it";
  EXPECT_FALSE(items[2].summary());
  EXPECT_EQ(items[2].id, 3);
}

TEST(LevelOfDetail, AQueryAtTheFinestZoomReturnsTheEventsThemselves) {
  const TimelineRows rows = randomRows(1, 1000, 5);
  const LevelOfDetail lod(rows);
  const auto& events = rows.lanes[0].events;
  std::vector<LodItem> items;
  lod.query(0, events[100].start, events[110].end, 1.0, items);
  ASSERT_EQ(items.size(), 11u);
  EXPECT_EQ(items.front().id, 100);
  EXPECT_EQ(items.back().id, 110);
  for (const LodItem& item : items) EXPECT_FALSE(item.summary());
}

TEST(LevelOfDetail, SummaryItemsNameTheirLongestEvent) {
  TimelineRows rows;
  rows.rows.push_back({RowKind::kStream, "s", 0, 1});
  Lane lane;
  // Ten 10 ns events 5 ns apart, the fourth 15 ns long.
  int64_t t = 0;
  for (int i = 0; i < 10; ++i) {
    const int64_t dur = i == 3 ? 15 : 10;
    lane.events.push_back({t, t + dur, i, EventKind::kKernel});
    t += dur + 5;
  }
  rows.lanes.push_back(lane);
  rows.end = t;
  const LevelOfDetail lod(rows);
  ASSERT_GE(lod.levelCount(0), 2);
  const auto top = lod.levelItems(0, lod.levelCount(0) - 1);
  ASSERT_EQ(top.size(), 1u);
  EXPECT_EQ(top[0].count, 10u);
  EXPECT_EQ(top[0].busy_ns, 105);
  EXPECT_EQ(top[0].id, 3);
  EXPECT_EQ(top[0].longest_ns, 15);
}

// A kernel of 4.65e18 ns and one after it: the widths grew until they
// wrapped past 2^62 to 0, and with two items that never fold (the long one
// always at least the width, the short one after it) the levels were built
// forever (issue 32 §2). Growth stops at kMaxWidthNs: at most 30 levels.
TEST(LevelOfDetail, WidthsStopAtTheMaximumOnASpanNearTheTraceRange) {
  TimelineRows rows;
  rows.rows.push_back({RowKind::kStream, "s", 0, 1});
  Lane lane;
  constexpr int64_t kStart = -2'300'000'000'000'000'000;
  constexpr int64_t kEnd = 2'350'000'000'000'000'000;
  lane.events.push_back({kStart, kEnd, 0, EventKind::kKernel});
  lane.events.push_back({kEnd + 100, kEnd + 110, 1, EventKind::kKernel});
  rows.lanes.push_back(lane);
  rows.start = kStart;
  rows.end = kEnd + 110;
  const LevelOfDetail lod(rows);
  EXPECT_LE(lod.levelCount(0), 30);
  for (int k = 1; k < lod.levelCount(0); ++k) {
    EXPECT_GT(lod.levelWidth(0, k), lod.levelWidth(0, k - 1)) << "level " << k;
    EXPECT_LE(lod.levelWidth(0, k), LevelOfDetail::kMaxWidthNs) << "level " << k;
  }
  std::vector<LodItem> out;
  lod.query(0, rows.start, rows.end, static_cast<double>(rows.end - rows.start) / 1000, out);
  int64_t count = 0;
  for (const LodItem& item : out) count += item.count;
  EXPECT_EQ(count, 2);
}

// Busy time sums saturate rather than wrap: two overlapping events of nearly
// 2^63 ns folded into one item keep a busy share >= 1.
TEST(LevelOfDetail, BusyTimePastInt64Saturates) {
  TimelineRows rows;
  rows.rows.push_back({RowKind::kStream, "s", 0, 1});
  Lane lane;
  constexpr int64_t kLongNs = (kTimeLimitNs - 1) + (kTimeLimitNs - 10);
  lane.events.push_back({-kTimeLimitNs + 1, -kTimeLimitNs + 1 + kLongNs, 0, EventKind::kKernel});
  lane.events.push_back({-kTimeLimitNs + 2, -kTimeLimitNs + 2 + kLongNs, 1, EventKind::kKernel});
  rows.lanes.push_back(lane);
  rows.start = -kTimeLimitNs + 1;
  rows.end = kTimeLimitNs - 1;
  const LevelOfDetail lod(rows);
  std::vector<LodItem> out;
  // Wider than a pixel's share of the view, so the query folds the two.
  lod.query(0, rows.start, rows.end, static_cast<double>(kLongNs), out);
  int64_t count = 0;
  for (const LodItem& item : out) {
    count += item.count;
    EXPECT_GE(item.busy_ns, 0);
    EXPECT_GE(item.busyFraction(), 1.0);
  }
  EXPECT_EQ(count, 2);
}

}  // namespace
}  // namespace damscope
