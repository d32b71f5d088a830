// A synthetic training trace of any size, shaped like a real PyTorch profile,
// for the analysis benchmarks: steps of 1,000 kernels, one launch call per
// kernel, one range per ten kernels (the ProfilerStep, a DataLoader
// iteration, framework ops; aten::mm with its recorded shapes, so a quarter
// of the kernels get roofline points), a pageable input copy per step, and an NCCL
// all-reduce every 50 kernels on a second stream. Kernel names cycle through
// the categories (GEMM, convolution, normalization, elementwise, ...) as real
// libraries name them. The host runs ahead of the GPU part of the time and
// behind it the rest, so every gap cause occurs.
#pragma once

#include <cstdint>

#include "trace/tables.h"

namespace damscope {

// `kernels` kernels and as many runtime calls; kernels / 10 ranges.
TraceTables syntheticTrainingTrace(int64_t kernels);

}  // namespace damscope
