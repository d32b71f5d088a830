// Kernel breakdown: time by category and by name over the window, and the
// FP32-versus-tensor-core evidence.
#include "analyzer/analyses/kernel_breakdown.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace damscope
