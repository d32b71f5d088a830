// The TensorBoard plugin's step overview: each moment to the first active
// role of Kernel, Memcpy, Memset, Runtime, DataLoader, CPU Exec, Other.
#include "analyzer/analyses/profiler_overview.h"

#include <gtest/gtest.h>

#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::TraceBuilder;
using testing::us;

TEST(ProfilerOverview, PriorityPartitionAveragedOverSteps) {
  TraceBuilder b;
  b.step(0, 100, 1), b.step(100, 100, 2);
  b.range(0, 40, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
  b.range(40, 10, "aten::add");
  b.kernel(60, 20, "k", b.call(50, 15));  // runtime [50,65) under the kernel from 60
  b.range(100, 50, "aten::mul");
  b.kernel(160, 40, "k", b.call(150, 5));
  const TraceTables t = b.build();
  const AnalysisInput in = AnalysisInput::build(t);
  const StepReport steps = computeSteps(in, {});
  const ProfilerOverviewReport r = computeProfilerOverview(in, steps, {});
  ASSERT_EQ(r.steps.size(), 2u);
  const auto& s1 = r.steps[0].ns;
  EXPECT_EQ(s1[size_t(OverviewRole::kKernel)], us(20));
  EXPECT_EQ(s1[size_t(OverviewRole::kRuntime)], us(10));  // [50,60)
  EXPECT_EQ(s1[size_t(OverviewRole::kDataLoader)], us(40));
  EXPECT_EQ(s1[size_t(OverviewRole::kCpuExec)], us(10));
  EXPECT_EQ(s1[size_t(OverviewRole::kOther)], us(20));
  EXPECT_DOUBLE_EQ(r.avg_step_ns, us(100));
  EXPECT_DOUBLE_EQ(r.avg_ns[size_t(OverviewRole::kKernel)], us(30));  // (20 + 40) / 2
  EXPECT_DOUBLE_EQ(r.avgPct(OverviewRole::kDataLoader), 20.0);
}

}  // namespace
}  // namespace damscope
