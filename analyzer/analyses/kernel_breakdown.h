// Kernel breakdown: GPU kernel time by category (kernel_categories.h) and the
// kernels that took the most time, over the analysis window.
//
// Times are sums of kernel durations (as HTA's kernel breakdown and the
// TensorBoard plugin's kernel view count them: hta/analyzers/
// breakdown_analysis.py get_gpu_kernel_breakdown; tb_plugin
// profiler/kernel_parser.py), so kernels running at once on several streams
// each count in full; percentages are of the total kernel time.
//
// It also measures the evidence the mixed-precision finding needs: how much
// GEMM/convolution time ran as FP32 SIMT code rather than on tensor cores.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "analyzer/analyses/analysis_input.h"
#include "analyzer/analyses/analysis_window.h"
#include "base/result.h"

namespace damscope {

struct CategoryTime {
  KernelCategory category = KernelCategory::kOther;
  int64_t kernels = 0;
  int64_t total_ns = 0;
  double pct = 0;  // of all kernel time
  bool operator==(const CategoryTime&) const = default;
};

struct TopKernel {
  StringId name;
  KernelCategory category = KernelCategory::kOther;
  int64_t kernels = 0;
  int64_t total_ns = 0;
  int64_t min_ns = 0;
  int64_t max_ns = 0;
  int64_t longest_row = -1;  // kernels row of its longest run
  double pct = 0;
  int64_t meanNs() const { return kernels > 0 ? total_ns / kernels : 0; }
};

struct KernelBreakdownOptions {
  size_t top_kernels = 20;
};

struct KernelBreakdownReport {
  int64_t kernels = 0;
  int64_t total_ns = 0;
  std::vector<CategoryTime> categories;  // every category with time, largest first
  std::vector<TopKernel> top;            // largest first
  int64_t fp32_matrix_ns = 0;            // GEMM/conv/attention on CUDA cores in FP32
  int64_t tensor_core_ns = 0;            // ... on tensor cores
  int64_t matrix_ns = 0;                 // all GEMM/conv/attention time
  std::vector<int64_t>
      fp32_matrix_rows;  // kernels rows of the longest FP32 matrix kernels (evidence)
};

KernelBreakdownReport computeKernelBreakdown(const AnalysisInput& input, const WindowReport& window,
                                             const KernelBreakdownOptions& options);

}  // namespace damscope
