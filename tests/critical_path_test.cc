// The critical path on small fabricated traces whose longest chain can be
// worked out by hand (critical_path.h); HTA parity on real traces is in
// critical_path_shared_traces_test.cc.
#include "analyzer/analyses/critical_path.h"

#include <gtest/gtest.h>

#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::TraceBuilder;
using testing::us;

int64_t bound(const CriticalPath& p, PathBound b) {
  return p.bound_ns[static_cast<size_t>(b)];
}
int64_t without(const CriticalPath& p, PathBound b) {
  return p.without_ns[static_cast<size_t>(b)];
}

// aten::mm [10, 50) launches a 500 µs kernel at 20; aten::add [50, 70)
// launches a 300 µs one at 55, which queues behind the first. The path: mm's
// 10 µs up to the launch, the 20 µs launch delay, then both kernels back to
// back: 830 µs, longer than the host's 60.
TraceTables twoQueuedKernels() {
  TraceBuilder b;
  b.device(0, 80);
  b.range(10, 40, "aten::mm");
  const int64_t first = b.call(20, 10);
  b.kernel(40, 500, "volta_sgemm_128x64_nn", first);
  b.range(50, 20, "aten::add");
  const int64_t second = b.call(55, 5);
  b.kernel(540, 300, "vectorized_elementwise_kernel", second);
  return b.build();
}

TEST(CriticalPath, FollowsTheLaunchDelayAndTheQueuedKernels) {
  const TraceTables t = twoQueuedKernels();
  const AnalysisInput input = AnalysisInput::build(t);
  const CriticalPath p = computeCriticalPath(input, 0, us(1000));
  EXPECT_EQ(p.length_ns, us(830));
  EXPECT_EQ(bound(p, PathBound::kCpu), us(10));
  EXPECT_EQ(bound(p, PathBound::kLaunchDelay), us(20));
  EXPECT_EQ(bound(p, PathBound::kKernel), us(800));
  EXPECT_EQ(bound(p, PathBound::kKernelGap), 0);
  // Free kernels: the host's own 60 µs (mm, its launch call, add) is left.
  EXPECT_EQ(without(p, PathBound::kKernel), us(60));
  // Free the host: the kernels still run back to back after the launch delay.
  EXPECT_EQ(without(p, PathBound::kCpu), us(820));
  EXPECT_EQ(without(p, PathBound::kData), p.length_ns);
}

TEST(CriticalPath, OnlyWorkLaunchedInsideTheWindowCountsButTheWhatIfsSeeTheBusyStream) {
  const TraceTables t = twoQueuedKernels();
  const AnalysisInput input = AnalysisInput::build(t);
  // From 50 µs: aten::add and its kernel. Without the first kernel in the
  // window, HTA's rule reads the wait for it as launch delay (the queue was
  // empty at the call and at the start)...
  const CriticalPath p = computeCriticalPath(input, us(50), us(1000));
  EXPECT_EQ(bound(p, PathBound::kCpu), us(5));
  EXPECT_EQ(bound(p, PathBound::kLaunchDelay), us(485));
  EXPECT_EQ(bound(p, PathBound::kKernel), us(300));
  EXPECT_EQ(p.length_ns, us(790));
  // ...but the stream was busy with the first kernel until 540 µs: freeing
  // the delay or the host gains nothing.
  EXPECT_EQ(without(p, PathBound::kLaunchDelay), p.length_ns);
  EXPECT_EQ(without(p, PathBound::kCpu), p.length_ns);
}

TEST(CriticalPath, DataLoadingOnTheHostIsFreedByItsWhatIf) {
  TraceBuilder b;
  b.device(0, 80);
  // The loader holds the host for 300 µs; only then does the op launch.
  b.range(0, 300, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "user_annotation");
  b.range(5, 100, "aten::copy_");  // inside the loader: its time is data too
  b.range(310, 20, "aten::mm");
  const int64_t c = b.call(315, 10);
  b.kernel(330, 100, "volta_sgemm_128x64_nn", c);
  const TraceTables t = b.build();
  const AnalysisInput input = AnalysisInput::build(t);
  const CriticalPath p = computeCriticalPath(input, 0, us(500));
  EXPECT_EQ(bound(p, PathBound::kData), us(300));
  EXPECT_EQ(bound(p, PathBound::kCpu), us(5));  // mm up to its launch call
  EXPECT_EQ(bound(p, PathBound::kLaunchDelay), us(15));
  EXPECT_EQ(bound(p, PathBound::kKernel), us(100));
  EXPECT_EQ(p.length_ns, us(420));
  EXPECT_EQ(without(p, PathBound::kData), us(120));

  const std::optional<PathProjection> projection = projectWithout(PathBound::kData, {us(500)}, {p});
  ASSERT_TRUE(projection.has_value());
  EXPECT_NEAR(projection->on_path_pct, 100.0 * 300 / 420, 1e-9);
  EXPECT_EQ(projection->step_ns, us(500));
  EXPECT_EQ(projection->projected_step_ns, us(200));
  EXPECT_FALSE(projectWithout(PathBound::kCommunication, {us(500)}, {p}).has_value());
}

TEST(CriticalPath, AnEmptyWindowHasNoPath) {
  const TraceTables t = twoQueuedKernels();
  const AnalysisInput input = AnalysisInput::build(t);
  EXPECT_EQ(computeCriticalPath(input, us(2000), us(3000)), CriticalPath{});
}

}  // namespace
}  // namespace damscope
