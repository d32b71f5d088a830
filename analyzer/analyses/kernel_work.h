// The work of each kernel: how many floating-point operations it did and how
// many bytes it moved to and from device memory, and where each figure comes
// from. The roofline (roofline.h) places kernels by it, HFU sums its measured
// FLOPs (mfu.h).
//
// Sources, most trusted first; a kernel takes its figures from the first that
// gives them (every figure says which, DESIGN.md "Roofline"):
//   measured   hardware counters: kernel_metrics rows of the kernel (source
//              measured), or of a range the kernel was launched in (Kineto's
//              cuda_profiler_range with CUPTI SASS counters)
//   annotated  the workload's own count: an NVTX range in domain "damscope"
//              whose message is {"op":..,"flops":..,"bytes":..}, or a
//              kernel_metrics row marked annotated
//   estimated  counted from shapes: PyTorch's own per-op `flops` argument
//              (kernel_metrics rows marked estimated), else damscope's count
//              from an ATen op's "Input Dims" and "Input type" (op_shapes.h,
//              with autograd's links, op_links.h)
// A range's counts belong to the kernels launched inside it (on a cpu device,
// to the op derived from it, cpu_device_work.h): the launch call
// lies in the range's time on the range's thread, and the innermost such
// range with counts of the best source wins, so an op and the op it calls
// never count twice. Kernels of one range share its counts in proportion to
// their durations (a range's launches do not say which kernel did what); the
// FLOPs of a matrix op's shapes go to its GEMM/convolution/attention kernels
// only, not to the transposes, bias or memset kernels it launches beside
// them, which share its bytes.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "analyzer/analyses/analysis_input.h"

namespace damscope {

struct KernelWork {
  int64_t kernel = 0;           // kernels row
  double flops = 0;             // 0 when only bytes are known
  std::optional<double> bytes;  // DRAM bytes; empty: unknown
  MetricSource source = MetricSource::kEstimated;
  int64_t range = kNullInt;  // the ranges row the counts came from; kNullInt: the kernel's own
  bool model_math = false;   // FLOPs of a matrix, convolution or attention op's shapes (MFU counts them)
};

struct KernelWorkReport {
  std::vector<KernelWork> kernels;  // by kernels row, only kernels with counts
  // Kernels that got counts, per source (MetricSource order).
  std::array<int64_t, 3> kernels_by_source{};
  int64_t ranges_without_kernels = 0;  // ranges with counts but no kernel launched inside
};

KernelWorkReport computeKernelWork(const AnalysisInput& input);

}  // namespace damscope
