// Dense peak arithmetic rates of the GPUs the trainer is meant for, from
// NVIDIA's datasheets, so that the trainer's MFU has a denominator on a GPU
// as the CPU's measured peak is on the CPU. Plain C++ (no CUDA header): the
// table is tested without a device, and held equal to the analyzer's device
// table (analyzer/devices/device_specs.cc), which the trainer cannot link, by
// tests/gpt2/device_peaks_agree_test.cc.
#pragma once

#include <string_view>

#include "reference_workloads/gpt2/cuda/precision.h"

namespace damscope::gpt2 {

// FLOP/s of dense math at `precision` for the GPU named `device_name` (as
// cudaDeviceProp::name spells it, e.g. "NVIDIA H100 80GB HBM3"): fp32 is the
// CUDA-core FMA rate, tf32 and bf16 the tensor-core rates without 2:4
// sparsity (the datasheets' dense figures, or their starred sparse figures
// halved where they give no other). 0 for a GPU not in the table.
double datasheetPeakFlopsPerS(std::string_view device_name, Precision precision);

}  // namespace damscope::gpt2
