// The D·A·M scorecard: every nanosecond on exactly one axis, and the verdict
// follows the diagnostic order (starved GPU first, then memory vs compute).
#include "analyzer/analyses/scorecard.h"

#include <gtest/gtest.h>

#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::us;

TEST(Scorecard, GoldenStepSplitsIntoEveryAxis) {
  const TraceTables t = testing::goldenStepTrace();
  const AnalysisInput in = AnalysisInput::build(t);
  const StepReport steps = computeSteps(in, {});
  const WindowReport window = computeWindow(in, steps, {});
  const GapReport gaps = computeGaps(in, steps, window, {});
  const ScorecardReport r = computeScorecard(in, steps, window, gaps, {});
  ASSERT_TRUE(r.valid);
  const Scorecard& run = r.run;
  EXPECT_EQ(run.total(), us(1000));
  EXPECT_EQ(run.ns[size_t(Axis::kDataStall)], us(300));
  EXPECT_EQ(run.ns[size_t(Axis::kHostStall)], us(110));
  EXPECT_EQ(run.ns[size_t(Axis::kSyncStall)], us(100));
  EXPECT_EQ(run.ns[size_t(Axis::kExposedCommunication)], us(130));
  EXPECT_EQ(run.ns[size_t(Axis::kMemoryBound)], us(130));
  EXPECT_EQ(run.ns[size_t(Axis::kComputeBound)], us(170));
  EXPECT_EQ(run.ns[size_t(Axis::kOtherIdle)], us(60));
  double sum = 0;
  for (size_t a = 0; a < kAxisCount; ++a) sum += run.pct(Axis(a));
  EXPECT_NEAR(sum, 100.0, 1e-9);
  EXPECT_EQ(run.verdict, Verdict::kDataBound);
  ASSERT_EQ(r.steps.size(), 1u);
  EXPECT_EQ(r.steps[0].verdict, Verdict::kDataBound);
}

Scorecard card(std::array<int64_t, kAxisCount> ns) {
  Scorecard s;
  s.ns = ns;
  return s;
}

TEST(Scorecard, StarvedGpuIsJudgedByItsLargestStall) {
  //           data host sync comm mem  comp other
  Scorecard c = card({10, 15, 0, 0, 5, 70, 0});  // stalls 25 % >= 20 %
  decideVerdict(c, {});
  EXPECT_EQ(c.verdict, Verdict::kHostBound);
  EXPECT_EQ(c.deciding_axis, Axis::kHostStall);

  c = card({0, 0, 12, 0, 8, 70, 10});  // sync is a host-side stall
  decideVerdict(c, {});
  EXPECT_EQ(c.verdict, Verdict::kHostBound);

  c = card({0, 5, 0, 30, 20, 45, 0});
  decideVerdict(c, {});
  EXPECT_EQ(c.verdict, Verdict::kCommunicationBound);

  c = card({30, 0, 0, 0, 0, 70, 0});
  decideVerdict(c, {});
  EXPECT_EQ(c.verdict, Verdict::kDataBound);
}

TEST(Scorecard, UnexplainedIdleIsCalledStarvedNotChargedToTheHost) {
  // The saxpy nsys export's shape: data 25.9, host 0.3, other idle 49.8 %.
  //           data  host sync comm mem comp other
  Scorecard c = card({259, 3, 0, 0, 0, 240, 498});
  decideVerdict(c, {});
  EXPECT_EQ(c.verdict, Verdict::kStarved);
  EXPECT_EQ(c.deciding_axis, Axis::kOtherIdle);
  EXPECT_EQ(c.largestKnownStall(), Axis::kDataStall);
  EXPECT_EQ(toText(c.verdict), "starved");
  EXPECT_EQ(damTerm(c.verdict), "Unknown");

  c = card({0, 0, 0, 0, 0, 50, 50});  // nothing the trace explains
  decideVerdict(c, {});
  EXPECT_EQ(c.verdict, Verdict::kStarved);
  EXPECT_FALSE(c.largestKnownStall());

  c = card({0, 20, 20, 0, 0, 40, 20});  // ties go to the earlier axis
  EXPECT_EQ(c.largestKnownStall(), Axis::kHostStall);
}

TEST(Scorecard, FedGpuIsMemoryOrComputeBoundByKernelTime) {
  Scorecard c = card({5, 5, 0, 0, 60, 30, 0});  // stalls 10 % < 20 %
  decideVerdict(c, {});
  EXPECT_EQ(c.verdict, Verdict::kMemoryBound);
  c = card({5, 5, 0, 0, 30, 60, 0});
  decideVerdict(c, {});
  EXPECT_EQ(c.verdict, Verdict::kComputeBound);

  ScorecardOptions strict;
  strict.starved_pct = 5;  // the threshold is an option
  decideVerdict(c, strict);
  EXPECT_EQ(c.verdict, Verdict::kDataBound);

  Scorecard empty;
  decideVerdict(empty, {});
  EXPECT_EQ(empty.verdict, Verdict::kNone);
  EXPECT_EQ(empty.pct(Axis::kDataStall), 0.0);
}

}  // namespace
}  // namespace damscope
