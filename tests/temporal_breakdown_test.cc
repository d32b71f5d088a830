// Temporal breakdown (HTA definitions) on a small trace computed by hand.
#include "analyzer/analyses/temporal_breakdown.h"

#include <gtest/gtest.h>

#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::TraceBuilder;
using testing::us;

// compute [0,100) and [300,400); NCCL [50,150) on another stream; a copy [200,250).
TraceTables fourOps(bool with_steps) {
  TraceBuilder b;
  if (with_steps) b.step(0, 200, 1), b.step(200, 200, 2);
  // Launched in the step they run in, so the steps stay [0,200) and [200,400).
  b.launchKernel(0, 0, 100, "volta_sgemm_128x64_nn");
  b.kernel(50, 100, "ncclKernel_AllReduce_RING_LL_Sum_float", b.call(1, 1), 8);
  b.memcpy(200, 50, b.call(200, 1));
  b.launchKernel(201, 300, 100, "volta_sgemm_128x64_nn");
  return b.build();
}

TemporalBreakdownReport breakdownOf(const TraceTables& t, WindowMode mode) {
  const AnalysisInput in = AnalysisInput::build(t);
  const StepReport steps = computeSteps(in, {});
  const WindowReport window = computeWindow(in, steps, {mode});
  return computeTemporalBreakdown(in, steps, window, {});
}

TEST(TemporalBreakdown, WindowFiguresFollowHtaDefinitions) {
  const TemporalBreakdownReport r = breakdownOf(fourOps(false), WindowMode::kHta);
  ASSERT_TRUE(r.valid);
  const BreakdownFigures& w = r.window;
  EXPECT_EQ(w.span(), us(400));
  EXPECT_EQ(w.idle_ns, us(100));  // 400 - |[0,150) + [200,250) + [300,400)|
  EXPECT_EQ(w.compute_ns, us(200));
  EXPECT_EQ(w.non_compute_ns, us(100));  // the NCCL part not under compute + the copy
  EXPECT_EQ(w.communication_ns, us(100));
  EXPECT_EQ(w.overlap_ns, us(50));
  EXPECT_EQ(w.exposed_communication_ns, us(50));
  EXPECT_EQ(w.memory_ns, us(50));
  EXPECT_DOUBLE_EQ(w.idlePct(), 25.0);
  EXPECT_DOUBLE_EQ(w.computePct(), 50.0);
  EXPECT_DOUBLE_EQ(w.nonComputePct(), 25.0);
  EXPECT_DOUBLE_EQ(w.overlapPct(), 50.0);
}

TEST(TemporalBreakdown, PerStepFiguresSpanTheWholeStep) {
  const TemporalBreakdownReport r = breakdownOf(fourOps(true), WindowMode::kAll);
  ASSERT_EQ(r.steps.size(), 2u);
  EXPECT_EQ(r.steps[0].span(), us(200));
  EXPECT_EQ(r.steps[0].idle_ns, us(50));
  EXPECT_EQ(r.steps[0].compute_ns, us(100));
  EXPECT_EQ(r.steps[0].overlap_ns, us(50));
  EXPECT_EQ(r.steps[1].idle_ns, us(50));
  EXPECT_EQ(r.steps[1].compute_ns, us(100));
  EXPECT_FALSE(r.steps[1].hasCommunication());
}

TEST(TemporalBreakdown, WithoutGpuWorkThereIsNothingToSplit) {
  TraceBuilder b;
  b.step(0, 10, 1);
  const TemporalBreakdownReport r = breakdownOf(b.build(), WindowMode::kHta);
  EXPECT_FALSE(r.valid);
  BreakdownFigures empty;
  EXPECT_EQ(empty.idlePct(), 0.0) << "an empty span gives 0, never NaN";
  EXPECT_EQ(empty.overlapPct(), 0.0);
}

}  // namespace
}  // namespace damscope
