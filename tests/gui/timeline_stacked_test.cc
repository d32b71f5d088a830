// Every rank of a job in one timeline: the clock the ranks are put on
// (rank_alignment.h), the stacked rows with their skew lane
// (stacked_rows.h), and the widget's collapsible rank groups, offscreen.
#include <gtest/gtest.h>

#include <algorithm>

#include <QTest>

#include "gui/timeline/stacked_rows.h"
#include "gui/timeline/timeline_widget.h"
#include "tests/gui/gui_test_support.h"
#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::analysedRunOf;
using testing::TraceBuilder;
using testing::us;

constexpr int kSteps = 5;
constexpr double kStepUs = 2000;
constexpr char kAllReduce[] =
    "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long)";

// One rank of a data-parallel job: per step, compute kernels then an
// all-reduce that ends when every rank's does. The rank's clock reads
// `clock_us` more than the job's; it joins each all-reduce `late_us` after
// the first rank; `host` names the machine ("" names none); `collectives`
// false leaves the all-reduce out.
TraceTables rankTrace(int32_t rank, double clock_us, double late_us, const std::string& host,
                      bool collectives = true) {
  TraceBuilder b;
  b.device(0, 108, int64_t{40} << 30);
  for (int step = 0; step < kSteps; ++step) {
    const double t0 = clock_us + step * kStepUs;
    b.step(t0, kStepUs, step + 1);
    for (int k = 0; k < 4; ++k) {
      b.launchKernel(t0 + 10 + k * 20, t0 + 100 + k * 300, 280, "volta_sgemm_128x64_nn");
    }
    if (collectives) b.launchKernel(t0 + 100, t0 + 1500 + late_us, 400 - late_us, kAllReduce, 13);
  }
  TraceTables t = b.build();
  if (!t.processes.empty()) {
    t.processes.rank[0] = rank;
    if (!host.empty()) t.processes.hostname[0] = t.strings.intern(host);
  }
  return t;
}

std::shared_ptr<const AnalysedRun> job(std::vector<TraceTables> ranks) {
  return std::make_shared<const AnalysedRun>(analysedRunOf(std::move(ranks)));
}

std::vector<TraceTables> twoRanks(double clock_us, double late_us, const std::string& host,
                                  bool collectives = true) {
  std::vector<TraceTables> ranks;
  ranks.push_back(rankTrace(0, 0, 0, host, collectives));
  ranks.push_back(rankTrace(1, clock_us, late_us, host, collectives));
  return ranks;
}

TEST(RankAlignment, RanksOfOneHostStayOnTheCollectorsClock) {
  const auto run = job(twoRanks(0, 120, "node7"));
  const RankAlignment a = alignRanks(*run);
  EXPECT_EQ(a.how, ClockAlignment::kCollectorClock);
  EXPECT_EQ(a.offset_ns, (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(a.description, "on the collector's clock (one host: node7)");
  // Every analysed all-reduce, the second rank joining each 120 µs late.
  ASSERT_FALSE(a.collectives.empty());
  EXPECT_EQ(a.collectives.size(), run->run.ranks[0].collective_starts.size());
  for (const CollectiveSkew& c : a.collectives) {
    EXPECT_EQ(c.skewNs(), us(120));
    EXPECT_EQ(c.earliest_rank, 0);
    EXPECT_EQ(c.latest_rank, 1);
    EXPECT_EQ(c.name, kAllReduce);
  }
  for (size_t i = 1; i < a.collectives.size(); ++i) {
    EXPECT_LT(a.collectives[i - 1].first_start, a.collectives[i].first_start);
  }
}

TEST(RankAlignment, ClocksThatDisagreeAreAlignedOnCollectiveEnds) {
  // Rank 1's clock is 5 s ahead and no host is named: its all-reduces end 5 s
  // "later" by its clock; moved back by that, they end with rank 0's and the
  // skew is the 120 µs it joined late.
  const auto run = job(twoRanks(5e6, 120, ""));
  const RankAlignment a = alignRanks(*run);
  EXPECT_EQ(a.how, ClockAlignment::kCollectiveEnds);
  EXPECT_EQ(a.offset_ns, (std::vector<int64_t>{0, -us(5e6)}));
  EXPECT_EQ(a.description, "aligned on " + std::to_string(a.collectives.size()) +
                               " matched collective ends (no common host)");
  ASSERT_FALSE(a.collectives.empty());
  for (const CollectiveSkew& c : a.collectives) {
    EXPECT_EQ(c.skewNs(), us(120));
    EXPECT_EQ(c.latest_rank, 1);
  }
}

TEST(RankAlignment, NoHostAndNoCollectiveLeavesTheRanksAsRecorded) {
  const auto run = job(twoRanks(5e6, 0, "", false));
  const RankAlignment a = alignRanks(*run);
  EXPECT_EQ(a.how, ClockAlignment::kAsRecorded);
  EXPECT_EQ(a.offset_ns, (std::vector<int64_t>{0, 0}));
  EXPECT_TRUE(a.collectives.empty());
  EXPECT_NE(a.description.find("may differ"), std::string::npos);
}

TEST(RankAlignment, OneRankIsShownAsRecorded) {
  std::vector<TraceTables> one;
  one.push_back(rankTrace(0, 0, 0, ""));
  const RankAlignment a = alignRanks(*job(std::move(one)));
  EXPECT_EQ(a.how, ClockAlignment::kOneRank);
  EXPECT_EQ(a.offset_ns, (std::vector<int64_t>{0}));
}

TEST(RankAlignment, SkewTooltipNamesTheCollectiveTheRanksAndTheSkew) {
  const auto run = job(twoRanks(0, 120, "node7"));
  const RankAlignment a = alignRanks(*run);
  ASSERT_FALSE(a.collectives.empty());
  const std::string text = skewTooltip(a.collectives.front(), *run);
  EXPECT_NE(text.find(kAllReduce), std::string::npos) << text;
  EXPECT_NE(text.find("first to start: rank 0 (rank0.json)"), std::string::npos) << text;
  EXPECT_NE(text.find("last to start: rank 1 (rank1.json)"), std::string::npos) << text;
  EXPECT_NE(text.find("skew: 120"), std::string::npos) << text;
}

TEST(StackedRows, EachRankIsAGroupUnderItsHeaderOnTheViewsClock) {
  const auto run = job(twoRanks(5e6, 120, ""));
  const RankAlignment a = alignRanks(*run);
  const TimelineRows rows = stackRanks(*run, a);
  EXPECT_EQ(rows.rank, -1);
  EXPECT_EQ(rows.alignment, a.description);

  // The skew lane first: a bar per collective, first start to last start.
  ASSERT_FALSE(rows.rows.empty());
  EXPECT_EQ(rows.rows[0].kind, RowKind::kSkew);
  const Lane& skew = rows.lanes[static_cast<size_t>(rows.rows[0].first_lane)];
  EXPECT_EQ(skew.kind, LaneKind::kSkew);
  ASSERT_EQ(skew.events.size(), a.collectives.size());
  EXPECT_EQ(skew.events[0].start, a.collectives[0].first_start);
  EXPECT_EQ(skew.events[0].end, a.collectives[0].last_start);

  // Then a group per rank: its header, then exactly the rows its own
  // timeline has, its events moved by its offset.
  ASSERT_EQ(rows.groups.size(), 2u);
  for (size_t g = 0; g < 2; ++g) {
    const RankGroup& group = rows.groups[g];
    const TimelineRows alone = buildTimelineRows(*run, static_cast<int>(g));
    EXPECT_EQ(group.rank, static_cast<int32_t>(g));
    EXPECT_EQ(group.offset_ns, a.offset_ns[g]);
    EXPECT_EQ(rows.rows[static_cast<size_t>(group.header_row)].kind, RowKind::kRankHeader);
    EXPECT_EQ(rows.rows[static_cast<size_t>(group.header_row)].label.rfind(
                  "rank " + std::to_string(g) + " — rank" + std::to_string(g) + ".json", 0),
              0u)
        << rows.rows[static_cast<size_t>(group.header_row)].label;
    ASSERT_EQ(group.end_row - group.header_row - 1, static_cast<int>(alone.rows.size()));
    for (size_t r = 0; r < alone.rows.size(); ++r) {
      const TimelineRow& row = rows.rows[static_cast<size_t>(group.header_row) + 1 + r];
      EXPECT_EQ(row.label, alone.rows[r].label);
      EXPECT_EQ(row.group, static_cast<int>(g));
      for (int l = 0; l < row.lane_count; ++l) {
        const Lane& lane = rows.lanes[static_cast<size_t>(row.first_lane) + static_cast<size_t>(l)];
        const Lane& own = alone.lanes[static_cast<size_t>(alone.rows[r].first_lane) + static_cast<size_t>(l)];
        EXPECT_EQ(lane.rank, static_cast<int32_t>(g));
        ASSERT_EQ(lane.events.size(), own.events.size());
        for (size_t e = 0; e < own.events.size(); ++e) {
          EXPECT_EQ(lane.events[e].start, own.events[e].start + group.offset_ns);
          EXPECT_EQ(lane.events[e].id, own.events[e].id);
        }
      }
    }
    // An event of the rank is found on its lane of the stacked rows.
    const EventRef kernel{static_cast<int32_t>(g), EventKind::kKernel, 0};
    const int lane = rows.laneOf(kernel);
    ASSERT_GE(lane, 0);
    EXPECT_EQ(rows.lanes[static_cast<size_t>(lane)].rank, static_cast<int32_t>(g));
    EXPECT_EQ(rows.offsetOf(static_cast<int32_t>(g)), group.offset_ns);
  }
  EXPECT_EQ(rows.laneOf(EventRef{2, EventKind::kKernel, 0}), -1);
  // The steps are the first rank's; the extent holds both ranks.
  EXPECT_EQ(rows.steps.size(), buildTimelineRows(*run, 0).steps.size());
  EXPECT_LE(rows.start, buildTimelineRows(*run, 0).start);
  EXPECT_GE(rows.end, buildTimelineRows(*run, 1).end + a.offset_ns[1]);
}

// The build reports a fraction by stage (issue 31 §5, M23): rising, through
// several steps, for one rank and for the stacked job, so that the status
// bar shows how far the last stage of opening a large run is.
TEST(StackedRows, TheBuildReportsItsFractionByStage) {
  const auto run = job(twoRanks(0, 0, "node"));
  for (const bool stacked : {false, true}) {
    std::vector<double> fractions;
    const Progress progress(
        [&fractions](const ProgressUpdate& u) { fractions.push_back(u.fraction); }, nullptr);
    const auto data = stacked ? buildJobTimelineData(*run, progress)
                              : buildTimelineData(*run, 0, progress);
    ASSERT_NE(data, nullptr);
    ASSERT_GE(fractions.size(), 5u) << (stacked ? "stacked" : "one rank");
    EXPECT_TRUE(std::is_sorted(fractions.begin(), fractions.end()));
    EXPECT_GE(fractions.front(), 0.0);
    EXPECT_LE(fractions.back(), 1.0);
    EXPECT_GE(fractions.back(), 0.5) << "the levels are reported too";
    // Reports between the stages, not only at the ends.
    EXPECT_TRUE(std::any_of(fractions.begin(), fractions.end(),
                            [](double f) { return f > 0.01 && f < 0.16; }));
  }
}

TEST(StackedRows, ACollapsedGroupKeepsOnlyItsHeader) {
  const auto run = job(twoRanks(0, 120, "node7"));
  const TimelineRows rows = stackRanks(*run, alignRanks(*run));
  const LaneLayout open = layoutLanes(rows);
  const LaneLayout folded = layoutLanes(rows, RowArrangement{}, {false, true});
  const RankGroup& second = rows.groups[1];
  const int header_lane = rows.rows[static_cast<size_t>(second.header_row)].first_lane;
  EXPECT_EQ(folded.lane_h[static_cast<size_t>(header_lane)], TimelinePainter::kLanePx);
  int hidden = 0;
  for (int r = second.header_row + 1; r < second.end_row; ++r) {
    const TimelineRow& row = rows.rows[static_cast<size_t>(r)];
    for (int l = 0; l < row.lane_count; ++l) {
      EXPECT_EQ(folded.lane_h[static_cast<size_t>(row.first_lane) + static_cast<size_t>(l)], 0);
      hidden += open.lane_h[static_cast<size_t>(row.first_lane) + static_cast<size_t>(l)] +
                (l == 0) * TimelinePainter::kRowGapPx;
    }
  }
  EXPECT_GT(hidden, 0);
  EXPECT_EQ(folded.content_height, open.content_height - hidden);
}

class StackedWidget : public ::testing::Test {
 protected:
  void SetUp() override {
    run_ = job(twoRanks(0, 120, "node7"));
    widget_.resize(1400, 700);
    widget_.setRun(run_, TimelineWidget::kAllRanks);
    ASSERT_NE(widget_.data(), nullptr);
  }
  int headerY(int group) const {
    const TimelineRows& rows = widget_.data()->rows;
    const int lane =
        rows.rows[static_cast<size_t>(rows.groups[static_cast<size_t>(group)].header_row)]
            .first_lane;
    for (int y = 0; y < widget_.height(); ++y) {
      if (widget_.laneAt(y) == lane) return y + TimelinePainter::kLanePx / 2;
    }
    return -1;
  }
  std::shared_ptr<const AnalysedRun> run_;
  TimelineWidget widget_;
};

TEST_F(StackedWidget, AClickOnARanksHeaderCollapsesAndOpensIt) {
  const int y = headerY(1);
  ASSERT_GT(y, 0);
  const EventRef kernel{1, EventKind::kKernel, 0};
  widget_.showEvents({kernel});
  EXPECT_FALSE(widget_.eventRect(kernel).isEmpty());
  QTest::mouseClick(&widget_, Qt::LeftButton, Qt::NoModifier, QPoint(600, headerY(1)));
  EXPECT_TRUE(widget_.isCollapsed(1));
  EXPECT_FALSE(widget_.isCollapsed(0));
  EXPECT_TRUE(widget_.eventRect(kernel).isEmpty());  // folded under the header
  QTest::mouseClick(&widget_, Qt::LeftButton, Qt::NoModifier, QPoint(600, headerY(1)));
  EXPECT_FALSE(widget_.isCollapsed(1));
  // Asking for an event of a collapsed rank opens its group.
  widget_.setCollapsed(1, true);
  widget_.showEvents({kernel});
  EXPECT_FALSE(widget_.isCollapsed(1));
}

TEST_F(StackedWidget, ClickingARanksEventSelectsItForThatRank) {
  const EventRef kernel{1, EventKind::kKernel, 2};
  widget_.showEvents({kernel});
  const QRectF r = widget_.eventRect(kernel);
  ASSERT_FALSE(r.isEmpty());
  const auto at = widget_.eventAt(r.center().toPoint());
  ASSERT_TRUE(at.has_value());
  EXPECT_EQ(at->rank, 1);
}

TEST_F(StackedWidget, TheSkewLaneAnswersWithTheCollectiveUnderTheCursor) {
  const TimelineRows& rows = widget_.data()->rows;
  ASSERT_FALSE(rows.collectives.empty());
  const CollectiveSkew& c = rows.collectives[1];
  widget_.zoomToSpan(c.first_start - us(500), c.last_start + us(500));
  int y = -1;
  for (int py = 0; py < widget_.height() && y < 0; ++py) {
    if (widget_.laneAt(py) == rows.rows[0].first_lane) y = py + 2;
  }
  ASSERT_GT(y, 0);
  const int x = static_cast<int>((widget_.xOf(c.first_start) + widget_.xOf(c.last_start)) / 2);
  const CollectiveSkew* found = widget_.collectiveAt(QPoint(x, y));
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(*found, c);
  EXPECT_EQ(widget_.collectiveAt(QPoint(x, y + 3 * TimelinePainter::kLanePx)), nullptr);
}

}  // namespace
}  // namespace damscope
