// The analysis window: HTA's cut at the last step, its fallback without
// correlation ids, --window all, and a range a person chose.
#include "analyzer/analyses/analysis_window.h"

#include <gtest/gtest.h>

#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::TraceBuilder;
using testing::us;

struct Fixture {
  TraceTables tables;
  std::unique_ptr<AnalysisInput> input;
  StepReport steps;
  explicit Fixture(TraceTables t) : tables(std::move(t)) {
    input = std::make_unique<AnalysisInput>(AnalysisInput::build(tables));
    steps = computeSteps(*input, {});
  }
  WindowReport window(WindowMode mode) { return computeWindow(*input, steps, {mode}); }
  WindowReport range(int64_t t0, int64_t t1) {
    return computeWindow(*input, steps, {WindowMode::kRange, t0, t1});
  }
};

TraceTables threeSteps(bool with_correlation) {
  TraceBuilder b;
  b.step(0, 100, 1), b.step(100, 100, 2), b.step(200, 100, 3);
  for (double at : {10.0, 110.0, 210.0}) {
    const int64_t c = b.call(at, 5);
    // The second step's kernel runs late, after the third step began.
    b.kernel(at == 110.0 ? 205 : at + 10, 20, "k", with_correlation ? c : kNullInt);
  }
  return b.build();
}

TEST(AnalysisWindow, HtaCutKeepsGpuWorkLaunchedBeforeTheLastStep) {
  Fixture f(threeSteps(true));
  const WindowReport w = f.window(WindowMode::kHta);
  EXPECT_TRUE(w.cut);
  EXPECT_EQ(w.cutoff_ns, us(200));
  EXPECT_EQ(w.gpu_ops, 2);
  EXPECT_EQ(w.gpu_start, us(20));
  EXPECT_EQ(w.gpu_end, us(225));  // launched in step 2, ran during step 3: kept, as HTA does
  EXPECT_EQ(w.step_count, 2u);
  EXPECT_TRUE(w.stepInWindow(1));
  EXPECT_FALSE(w.stepInWindow(2));
}

TEST(AnalysisWindow, WithoutCorrelationIdsTheCutFallsBackToStartTimes) {
  Fixture f(threeSteps(false));
  const WindowReport w = f.window(WindowMode::kHta);
  EXPECT_EQ(w.gpu_ops, 1) << "only the kernel starting before the last step";
  ASSERT_FALSE(w.notes.empty());
  EXPECT_NE(w.notes[0].find("no correlation ids"), std::string::npos);
}

TEST(AnalysisWindow, AllModeAndSingleStepKeepEverything) {
  Fixture f(threeSteps(true));
  const WindowReport all = f.window(WindowMode::kAll);
  EXPECT_FALSE(all.cut);
  EXPECT_EQ(all.gpu_ops, 3);
  EXPECT_EQ(all.step_count, 3u);

  TraceBuilder b;
  b.step(0, 100, 1);
  b.launchKernel(10, 20, 5, "k");
  Fixture one(b.build());
  const WindowReport w = one.window(WindowMode::kHta);
  EXPECT_FALSE(w.cut);
  EXPECT_EQ(w.gpu_ops, 1);
  EXPECT_EQ(w.start, 0);
  EXPECT_EQ(w.end, us(100));
}

TEST(AnalysisWindow, NoGpuWorkIsReported) {
  TraceBuilder b;
  b.step(0, 100, 1), b.step(100, 100, 2);
  Fixture f(b.build());
  const WindowReport w = f.window(WindowMode::kHta);
  EXPECT_FALSE(w.hasGpuWork());
  ASSERT_FALSE(w.notes.empty());
  EXPECT_NE(w.notes.back().find("no GPU operations"), std::string::npos);
}

TEST(AnalysisWindow, ARangeKeepsTheWorkStartingInsideItAndItsWholeSteps) {
  Fixture f(threeSteps(true));
  ASSERT_EQ(f.steps.steps.size(), 3u);
  // From the second step's start to 30 µs into the third: the second step
  // lies inside, the third straddles the end.
  const int64_t t0 = f.steps.steps[1].start;
  const int64_t t1 = f.steps.steps[2].start + us(30);
  const WindowReport w = f.range(t0, t1);
  EXPECT_EQ(w.mode, WindowMode::kRange);
  EXPECT_FALSE(w.cut) << "no HTA cut in a chosen range";
  EXPECT_EQ(w.first_step, 1u);
  EXPECT_EQ(w.step_count, 1u);
  EXPECT_TRUE(w.stepInWindow(1));
  EXPECT_FALSE(w.stepInWindow(2));
  // The kernels starting at 205 and 220 µs are inside; the one at 20 µs is not.
  EXPECT_EQ(w.gpu_ops, 2);
  EXPECT_EQ(w.gpu_start, us(205));
  EXPECT_EQ(w.gpu_end, us(240)) << "an operation starting inside is kept whole";
  EXPECT_EQ(w.start, t0) << "the analysed range is the range itself";
  EXPECT_EQ(w.end, t1);
  ASSERT_EQ(w.notes.size(), 1u);
  EXPECT_NE(w.notes[0].find("step 3 straddles"), std::string::npos) << w.notes[0];
  EXPECT_EQ(toText(WindowMode::kRange), "range");
}

TEST(AnalysisWindow, ARangeInsideOneStepAnalysesNoStepAndAnInvertedOneNothing) {
  Fixture f(threeSteps(true));
  const WindowReport inside = f.range(us(5), us(35));
  EXPECT_EQ(inside.step_count, 0u);
  EXPECT_EQ(inside.gpu_ops, 1) << "the first kernel, at 20 µs";
  EXPECT_EQ(inside.start, us(5));
  EXPECT_EQ(inside.end, us(35));

  const WindowReport inverted = f.range(us(200), us(100));
  EXPECT_EQ(inverted.gpu_ops, 0);
  EXPECT_EQ(inverted.step_count, 0u);
  EXPECT_TRUE(isNull(inverted.start));
  EXPECT_FALSE(inverted.notes.empty());
}

}  // namespace
}  // namespace damscope
