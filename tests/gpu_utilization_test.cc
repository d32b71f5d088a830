// GPU utilization, est. SM efficiency and est. occupancy (TensorBoard plugin
// definitions) over the plugin's steps.
#include "analyzer/analyses/gpu_utilization.h"

#include <gtest/gtest.h>

#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::TraceBuilder;

GpuUtilizationReport utilizationOf(const TraceTables& t) {
  const AnalysisInput in = AnalysisInput::build(t);
  const StepReport steps = computeSteps(in, {});
  return computeGpuUtilization(in, steps, {});
}

TEST(GpuUtilization, FiguresFollowThePluginDefinitions) {
  TraceBuilder b;
  b.device(0, 80);
  b.step(0, 100, 1), b.step(100, 100, 2);
  // 40 blocks on 80 SMs: half the SMs for 20 µs, occupancy 50 %.
  b.kernel(10, 20, "half", b.call(1, 1), 7, 0, 40, 50.0);
  // 160 blocks: all SMs for 40 µs, occupancy 25 %.
  b.kernel(110, 40, "full", b.call(101, 1), 7, 0, 160, 25.0);
  // Overlaps the previous kernel on another stream for 20 µs: SMs capped at 1.
  b.kernel(130, 20, "overlap", b.call(102, 1), 8, 0, 160, 100.0);
  const GpuUtilizationReport r = utilizationOf(b.build());
  ASSERT_EQ(r.devices.size(), 1u);
  const DeviceUtilization& u = *r.primaryDevice();
  EXPECT_EQ(r.steps_used, 2u);
  EXPECT_DOUBLE_EQ(u.gpu_util_pct, 100.0 * 60 / 200);  // union 20 + 40
  EXPECT_DOUBLE_EQ(*u.sm_efficiency_pct, 100.0 * (0.5 * 20 + 1.0 * 40) / 200);
  EXPECT_DOUBLE_EQ(*u.occupancy_pct, (50.0 * 20 + 25.0 * 40 + 100.0 * 20) / 80);
}

TEST(GpuUtilization, MissingGridOrOccupancyIsUnknownNotZero) {
  TraceBuilder b;  // no devices table: no SM count
  b.step(0, 100, 1);
  b.kernel(10, 20, "k", b.call(1, 1));
  const GpuUtilizationReport r = utilizationOf(b.build());
  const DeviceUtilization& u = *r.primaryDevice();
  EXPECT_DOUBLE_EQ(u.gpu_util_pct, 20.0);
  EXPECT_FALSE(u.sm_efficiency_pct.has_value());
  EXPECT_FALSE(u.occupancy_pct.has_value());
  EXPECT_EQ(r.notes.size(), 2u);
}

TEST(GpuUtilization, WithoutStepsTheWholeSpanIsTheRange) {
  TraceBuilder b;
  b.device(0, 80);
  b.range(0, 100, "forward", "user_annotation");
  b.kernel(50, 25, "k", b.call(10, 1), 7, 0, 80);
  const GpuUtilizationReport r = utilizationOf(b.build());
  EXPECT_EQ(r.steps_used, 0u);
  EXPECT_DOUBLE_EQ(r.primaryDevice()->gpu_util_pct, 25.0);
  EXPECT_DOUBLE_EQ(*r.primaryDevice()->sm_efficiency_pct, 25.0);
}

}  // namespace
}  // namespace damscope
