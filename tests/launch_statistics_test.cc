// Launch statistics (HTA definitions): delays, costs, short kernels, outliers
// and the time-weighted launch queue depth.
#include "analyzer/analyses/launch_statistics.h"

#include <gtest/gtest.h>

#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::TraceBuilder;
using testing::us;

TEST(LaunchStatistics, DelaysCostsShortKernelsAndOutliers) {
  TraceBuilder b;
  b.kernel(10, 2, "tiny", b.call(0, 5));     // delay 10, cost 5, shorter than its launch
  b.kernel(20, 100, "big", b.call(6, 60));   // cost 60 > 50 µs: runtime outlier
  b.kernel(300, 50, "late", b.call(70, 5));  // delay 230 > 100 µs: launch delay outlier
  b.kernel(400, 5, "orphan", kNullInt);      // no launch call
  const TraceTables t = b.build();
  const AnalysisInput in = AnalysisInput::build(t);
  const StepReport steps = computeSteps(in, {});
  const WindowReport w = computeWindow(in, steps, {});
  const LaunchStatisticsReport r = computeLaunchStatistics(in, w, {});
  EXPECT_EQ(r.kernels, 4);
  EXPECT_EQ(r.kernels_with_launch, 3);
  EXPECT_EQ(r.shorter_than_launch, 1);
  EXPECT_EQ(r.shorter_than_threshold, 2);  // 2 µs and 5 µs < 10 µs
  EXPECT_EQ(r.runtime_outliers, 1);
  EXPECT_EQ(r.launch_delay_outliers, 1);
  EXPECT_EQ(r.launch_delay_ns.count, 3);
  EXPECT_DOUBLE_EQ(r.launch_delay_ns.p50, us(14));
  EXPECT_DOUBLE_EQ(r.launch_delay_ns.max, us(230));
  EXPECT_DOUBLE_EQ(r.launch_cost_ns.max, us(60));
}

TEST(LaunchStatistics, QueueDepthIsTimeWeighted) {
  TraceBuilder b;
  // Two launches at 0 and 10; kernels end at 20 and 40: depth 1 for 10 µs,
  // 2 for 10 µs, 1 for 20 µs.
  b.kernel(5, 15, "a", b.call(0, 1));
  b.kernel(20, 20, "b", b.call(10, 1));
  const TraceTables t = b.build();
  const AnalysisInput in = AnalysisInput::build(t);
  const StepReport steps = computeSteps(in, {});
  const WindowReport w = computeWindow(in, steps, {});
  const LaunchStatisticsReport r = computeLaunchStatistics(in, w, {});
  ASSERT_EQ(r.queues.size(), 1u);
  EXPECT_EQ(r.queues[0].stream, 7);
  EXPECT_DOUBLE_EQ(r.queues[0].depth.mean, (1 * 10 + 2 * 10 + 1 * 20) / 40.0);
  EXPECT_DOUBLE_EQ(r.queues[0].depth.max, 2);
  EXPECT_DOUBLE_EQ(r.queues[0].empty_pct, 0.0);
}

TEST(LaunchStatistics, DescribeUsesNearestRankPercentiles) {
  std::vector<int64_t> v = {5, 1, 4, 2, 3, 6, 7, 8, 9, 10};
  const Distribution d = describe(v);
  EXPECT_EQ(d.count, 10);
  EXPECT_DOUBLE_EQ(d.mean, 5.5);
  EXPECT_DOUBLE_EQ(d.p50, 5);
  EXPECT_DOUBLE_EQ(d.p90, 9);
  EXPECT_DOUBLE_EQ(d.p99, 10);
  std::vector<int64_t> none;
  EXPECT_EQ(describe(none).count, 0);
}

}  // namespace
}  // namespace damscope
