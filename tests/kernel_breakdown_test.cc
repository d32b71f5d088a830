// Kernel breakdown: time by category and by name over the window, and the
// FP32-versus-tensor-core evidence.
#include "analyzer/analyses/kernel_breakdown.h"

#include <gtest/gtest.h>

#include <limits>

#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::TraceBuilder;
using testing::us;

TEST(KernelBreakdown, SumsByCategoryAndNameLargestFirst) {
  TraceBuilder b;
  b.launchKernel(0, 0, 30, "volta_sgemm_128x64_nn");
  b.launchKernel(1, 40, 10, "volta_sgemm_128x64_nn");
  b.launchKernel(2, 60, 20, "cutlass_80_tensorop_s1688gemm_64x64_32x4_nn_align1");
  b.launchKernel(
      3, 90, 40,
      "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>()");
  const TraceTables t = b.build();
  const AnalysisInput in = AnalysisInput::build(t);
  const StepReport steps = computeSteps(in, {});
  const WindowReport w = computeWindow(in, steps, {});
  KernelBreakdownOptions options;
  options.top_kernels = 2;
  const KernelBreakdownReport r = computeKernelBreakdown(in, w, options);
  EXPECT_EQ(r.kernels, 4);
  EXPECT_EQ(r.total_ns, us(100));
  ASSERT_EQ(r.categories.size(), 2u);
  EXPECT_EQ(r.categories[0].category, KernelCategory::kGemm);
  EXPECT_EQ(r.categories[0].total_ns, us(60));
  EXPECT_DOUBLE_EQ(r.categories[0].pct, 60.0);
  EXPECT_EQ(r.categories[1].category, KernelCategory::kElementwise);
  ASSERT_EQ(r.top.size(), 2u);
  EXPECT_EQ(t.strings.get(r.top[0].name), "volta_sgemm_128x64_nn");
  EXPECT_EQ(r.top[0].kernels, 2);
  EXPECT_EQ(r.top[0].meanNs(), us(20));
  EXPECT_EQ(r.top[0].min_ns, us(10));
  EXPECT_EQ(r.top[0].max_ns, us(30));
  EXPECT_EQ(t.kernels.dur[static_cast<size_t>(r.top[0].longest_row)], us(30));
  EXPECT_EQ(r.fp32_matrix_ns, us(40));
  EXPECT_EQ(r.tensor_core_ns, us(20));
  EXPECT_EQ(r.matrix_ns, us(60));
  ASSERT_EQ(r.fp32_matrix_rows.size(), 2u);
}

// Two GEMMs of 2^63 - 2 ns each, on two streams across the whole trace range
// (±2^62 ns): their sum wrapped int64 to -4 ns and an all-GEMM trace read
// "gemm 0.0 %" (issue 32 §2). Sums saturate at INT64_MAX (base/duration_sum.h),
// so the trace stays all GEMM.
TEST(KernelBreakdown, DurationsSummingPastInt64SaturateAndKeepTheirShare) {
  TraceBuilder b;
  b.kernel(0, 1, "volta_sgemm_128x64_nn", kNullInt, 7);
  b.kernel(0, 1, "volta_sgemm_128x64_nn", kNullInt, 8);
  TraceTables t = b.build();
  ASSERT_EQ(t.kernels.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    t.kernels.ts[i] = -kTimeLimitNs + 1;
    t.kernels.dur[i] = (kTimeLimitNs - 1) + (kTimeLimitNs - 1);
  }
  const AnalysisInput in = AnalysisInput::build(t);
  const StepReport steps = computeSteps(in, {});
  const WindowReport w = computeWindow(in, steps, {});
  const KernelBreakdownReport r = computeKernelBreakdown(in, w, {});
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(r.kernels, 2);
  EXPECT_EQ(r.total_ns, kMax);
  ASSERT_EQ(r.categories.size(), 1u);
  EXPECT_EQ(r.categories[0].category, KernelCategory::kGemm);
  EXPECT_EQ(r.categories[0].total_ns, kMax);
  EXPECT_DOUBLE_EQ(r.categories[0].pct, 100.0);
  ASSERT_EQ(r.top.size(), 1u);
  EXPECT_EQ(r.top[0].total_ns, kMax);
  EXPECT_DOUBLE_EQ(r.top[0].pct, 100.0);
  EXPECT_EQ(r.fp32_matrix_ns, kMax);
  EXPECT_EQ(r.matrix_ns, kMax);
}

}  // namespace
}  // namespace damscope
