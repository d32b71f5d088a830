// One rank re-analysed over a time range (analyzer/pipeline/window_analysis.h):
// a range covering one step describes that step alone, the bubbles are the
// whole run's (so the timeline's gap ids still name them), nothing says it was
// stored, and a cancel stops it.
#include "analyzer/pipeline/window_analysis.h"

#include <gtest/gtest.h>

#include "analyzer/analyses/rank_analysis.h"
#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::TraceBuilder;
using testing::us;

// Three 2 ms steps; the second one's loader holds the host for 1.5 ms (a
// data-bound step), the others for 0.2 ms.
TraceTables threeSteps() {
  TraceBuilder b;
  b.device(0, 80, int64_t{32} << 30);
  for (int step = 0; step < 3; ++step) {
    const double t0 = step * 2000.0;
    const double load = step == 1 ? 1500 : 200;
    b.step(t0, 2000, step + 1);
    b.range(t0, load, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
            "user_annotation");
    for (int k = 0; k < 4; ++k) {
      b.launchKernel(t0 + load + 5 + k * 10, t0 + load + 30 + k * 100, 90, "volta_sgemm_128x64_nn");
    }
  }
  return b.build();
}

RankResult wholeRun(const TraceTables& t) {
  auto analysis = analyzeRank(t, {});
  EXPECT_TRUE(analysis.ok());
  return buildRankResult(analysis.value(), "rank0.json", {});
}

TEST(WindowAnalysis, ARangeCoveringOneStepGivesThatStepsScorecard) {
  const TraceTables t = threeSteps();
  const RankResult whole = wholeRun(t);
  ASSERT_TRUE(whole.scorecard);
  ASSERT_EQ(whole.steps.size(), 3u);
  const StepResult& second = whole.steps[1];
  auto window = analyseRange(t, "rank0.json", second.ts, second.ts + second.dur, {});
  ASSERT_TRUE(window.ok()) << window.error().message();
  const RankResult& r = window.value();
  EXPECT_EQ(r.window.mode, WindowMode::kRange);
  EXPECT_EQ(r.window.first_step, 1);
  EXPECT_EQ(r.window.step_count, 1);
  EXPECT_EQ(r.window.start_ns, second.ts);
  EXPECT_EQ(r.window.end_ns, second.ts + second.dur);
  ASSERT_TRUE(r.scorecard);
  EXPECT_EQ(r.scorecard->run, whole.scorecard->steps[1]);
  EXPECT_NE(r.scorecard->run, whole.scorecard->run) << "the data-bound step differs from the run";
  EXPECT_EQ(r.window.avg_step_ns, static_cast<double>(second.dur));
  EXPECT_TRUE(r.steps[1].in_window);
  EXPECT_FALSE(r.steps[0].in_window);
  EXPECT_TRUE(r.store.empty()) << "a window is never stored";
  EXPECT_FALSE(r.comparison);
  EXPECT_EQ(r.source, "rank0.json");

  // The same bubbles as the whole run's, in the same order: the gap ids the
  // timeline and the findings' evidence use name the same bubbles.
  ASSERT_EQ(r.gaps.size(), whole.gaps.size());
  for (size_t i = 0; i < r.gaps.size(); ++i) {
    EXPECT_EQ(r.gaps[i].ts, whole.gaps[i].ts) << i;
    EXPECT_EQ(r.gaps[i].cause, whole.gaps[i].cause) << i;
  }
}

TEST(WindowAnalysis, TheWholeSpanAsARangeAgreesWithTheAllWindow) {
  const TraceTables t = threeSteps();
  AnalysisOptions all;
  all.window.mode = WindowMode::kAll;
  auto analysis = analyzeRank(t, all);
  ASSERT_TRUE(analysis.ok());
  const RankResult everything = buildRankResult(analysis.value(), "rank0.json", all);
  auto window = analyseRange(t, "rank0.json", 0, us(1e6), {});
  ASSERT_TRUE(window.ok());
  ASSERT_TRUE(window->scorecard && everything.scorecard);
  EXPECT_EQ(window->scorecard->run, everything.scorecard->run);
  EXPECT_EQ(window->kernels, everything.kernels);
  EXPECT_EQ(window->window.step_count, 3);
}

TEST(WindowAnalysis, UtilizationIsMeasuredOverTheWindow) {
  const TraceTables t = threeSteps();
  const RankResult whole = wholeRun(t);
  ASSERT_TRUE(whole.utilization.primaryDevice());
  // The first step's kernels run from 230 to 620 µs: 4 x 90 µs busy in the
  // 500 µs from 200 to 700 µs.
  auto window = analyseRange(t, "rank0.json", us(200), us(700), {});
  ASSERT_TRUE(window.ok());
  const DeviceUtilization* u = window->utilization.primaryDevice();
  ASSERT_TRUE(u);
  EXPECT_EQ(u->start, us(200));
  EXPECT_EQ(u->end, us(700));
  EXPECT_NEAR(u->gpu_util_pct, 72.0, 1e-9);
  EXPECT_LT(whole.utilization.primaryDevice()->gpu_util_pct, 30.0);
}

TEST(WindowAnalysis, ACancelledAnalysisSaysSo) {
  const TraceTables t = threeSteps();
  CancelToken cancel;
  cancel.cancel();
  auto window = analyseRange(t, "rank0.json", 0, us(2000), {}, Progress({}, &cancel));
  ASSERT_FALSE(window.ok());
  EXPECT_EQ(window.error().code(), ErrorCode::kCancelled);
}

}  // namespace
}  // namespace damscope
