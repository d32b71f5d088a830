// Slow steps (analyzer/analyses/slow_steps.h) on small traces worked out by
// hand: the robust rule (median + 3 scaled MADs, and 1.2x the median), the
// period of a recurring stall, the range and the scorecard axis that grew,
// the run's first step left out, too few steps to judge, and the finding
// that names them end to end.
#include "analyzer/analyses/slow_steps.h"

#include <gtest/gtest.h>

#include "analyzer/analyses/rank_analysis.h"
#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::TraceBuilder;
using testing::us;

struct Judged {
  TraceTables tables;
  std::unique_ptr<AnalysisInput> input;
  StepReport steps;
  WindowReport window;
  ScorecardReport scorecard;
  SlowStepReport slow;
};

// Steps of `durations` µs back to back (numbered from `first`), each holding
// a "forward" range over its first half and, in those longer than the first,
// a "checkpoint" range over the last `stall` µs. The scorecard charges the checkpoint to
// host stall and the rest to compute.
std::unique_ptr<Judged> judge(const std::vector<double>& durations, int first = 1,
                              double stall = 0) {
  TraceBuilder b;
  b.device(0, 80);
  double t = 0;
  std::vector<std::pair<double, bool>> spans;
  for (size_t i = 0; i < durations.size(); ++i) {
    b.step(t, durations[i], first + static_cast<int>(i));
    b.range(t + 1, durations[i] / 2, "forward");
    const bool stalled = stall > 0 && durations[i] > durations.front();
    if (stalled) b.range(t + durations[i] - stall, stall - 1, "checkpoint");
    spans.push_back({durations[i], stalled});
    t += durations[i];
  }
  auto j = std::make_unique<Judged>();
  j->tables = b.build();
  j->input = std::make_unique<AnalysisInput>(AnalysisInput::build(j->tables));
  j->steps = computeSteps(*j->input, {});
  j->window = computeWindow(*j->input, j->steps, {WindowMode::kAll});
  j->scorecard.valid = true;
  for (const auto& [dur, stalled] : spans) {
    Scorecard card;
    const int64_t host = stalled ? us(stall) : 0;
    card.ns[static_cast<size_t>(Axis::kHostStall)] = host;
    card.ns[static_cast<size_t>(Axis::kComputeBound)] = us(dur) - host;
    j->scorecard.steps.push_back(card);
  }
  j->slow = computeSlowSteps(*j->input, j->steps, j->window, j->scorecard);
  return j;
}

TEST(SlowSteps, ARecurringStallIsFoundWithItsPeriodAndItsRange) {
  // Every 4th step (4, 8, 12) holds a 300 µs checkpoint.
  std::vector<double> d(12, 1000);
  for (size_t i : {3u, 7u, 11u}) d[i] = 1300;
  const auto j = judge(d, 1, 300);
  const SlowStepReport& r = j->slow;
  EXPECT_EQ(r.steps_judged, 12u);
  EXPECT_EQ(r.median_ns, us(1000));
  EXPECT_EQ(r.mad_ns, 0);
  EXPECT_EQ(r.threshold_ns, us(1200));  // MAD 0: 1.2x the median decides
  ASSERT_EQ(r.slow.size(), 3u);
  EXPECT_EQ(j->steps.steps[r.slow[0].step].number, 4);
  EXPECT_EQ(j->steps.steps[r.slow[2].step].number, 12);
  EXPECT_EQ(r.slow[0].extra_ns, us(300));
  EXPECT_DOUBLE_EQ(r.slow[0].ratio, 1.3);
  EXPECT_EQ(r.period, 4);
  EXPECT_NEAR(r.extra_pct, 100.0 * 900 / 12900, 1e-9);
  EXPECT_EQ(r.grown_axis, Axis::kHostStall);
  EXPECT_EQ(r.grown_axis_ns, us(300));
  EXPECT_EQ(r.grown_range, "checkpoint");
  EXPECT_EQ(r.grown_range_ns, us(299));
  for (const SlowStep& s : r.slow) {
    ASSERT_FALSE(isNull(s.grown_range_row));
    EXPECT_EQ(j->tables.strings.get(j->tables.ranges.name[static_cast<size_t>(s.grown_range_row)]),
              "checkpoint");
  }
  EXPECT_EQ(slowStepWords(r, j->steps),
            "Steps 4, 8 and 12 take 1.3x the median step (every 4 steps); the extra time is "
            "mostly host/launch stall, and `checkpoint` takes 0.3 ms more per slow step");
}

TEST(SlowSteps, JitterIsNotSlowAndOneSkippedRecurrenceKeepsThePeriod) {
  // 1 % jitter: nothing is slow.
  const auto calm = judge({1000, 1010, 990, 1005, 995, 1008, 1002});
  EXPECT_TRUE(calm->slow.slow.empty());
  EXPECT_EQ(calm->slow.extra_pct, 0);
  // Wide spread: 1.25x is within 3 scaled MADs of the median, 2x is not.
  const auto wide = judge({1000, 1150, 850, 1250, 900, 1100, 2000, 950});
  ASSERT_EQ(wide->slow.slow.size(), 1u);
  EXPECT_EQ(wide->steps.steps[wide->slow.slow[0].step].number, 7);
  EXPECT_FALSE(wide->slow.period) << "one slow step has no period";
  // Slow at 3, 6, 12 and 15 (9 was not): every 3 steps still.
  std::vector<double> d(16, 1000);
  for (size_t i : {2u, 5u, 11u, 14u}) d[i] = 1500;
  EXPECT_EQ(judge(d)->slow.period, 3);
  // 3, 5 and 12: no period.
  std::vector<double> e(13, 1000);
  for (size_t i : {2u, 4u, 11u}) e[i] = 1500;
  EXPECT_FALSE(judge(e)->slow.period);
}

TEST(SlowSteps, TheRunsFirstStepAndTooFewStepsAreNotJudged) {
  // Step 0 pays for warm-up: left out, so not slow.
  const auto warm = judge({5000, 1000, 1000, 1000, 1000, 1000}, 0);
  EXPECT_EQ(warm->slow.steps_judged, 5u);
  EXPECT_TRUE(warm->slow.slow.empty());
  // Four steps are too few for a median and a MAD to mean much.
  const auto few = judge({1000, 1000, 3000, 1000});
  EXPECT_EQ(few->slow.steps_judged, 0u);
  EXPECT_TRUE(few->slow.slow.empty());
}

TEST(SlowSteps, TheFindingNamesTheStepsAndTheRangeThatGrew) {
  TraceBuilder b;
  b.device(0, 80);
  for (int s = 0; s < 10; ++s) {
    const double t = s * 2000.0;
    const bool slow = s == 4 || s == 8;
    const double dur = slow ? 1800 : 1000;
    b.step(t, dur, s + 1);
    b.launchKernel(t + 10, t + 20, 900, "ampere_sgemm_128x64_nn");
    if (slow) b.range(t + 950, 800, "checkpoint");
  }
  const RankAnalysis a = analyzeRank(b.build(), {}).value();
  ASSERT_EQ(a.slow_steps.slow.size(), 2u);
  const Finding* f = nullptr;
  for (const Finding& x : a.findings.findings) {
    if (x.rule == "slow_steps") f = &x;
  }
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->title.rfind("Steps 5 and 9 take ", 0), 0u) << f->title;
  EXPECT_NE(f->title.find("`checkpoint` takes"), std::string::npos) << f->title;
  ASSERT_TRUE(f->max_gain_pct);
  EXPECT_DOUBLE_EQ(*f->max_gain_pct, f->value);
  // The two steps' ranges, then the checkpoint in each.
  ASSERT_EQ(f->evidence.size(), 4u);
  EXPECT_EQ(f->evidence[0].label, "ProfilerStep#5");
  EXPECT_NE(f->evidence[0].detail.find("x the median step"), std::string::npos);
  EXPECT_EQ(f->evidence[2].label, "checkpoint");
  EXPECT_EQ(f->evidence[3].label, "checkpoint");
}

}  // namespace
}  // namespace damscope
