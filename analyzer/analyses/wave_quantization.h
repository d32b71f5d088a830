// Wave quantization: a GPU runs a kernel's blocks (or a GEMM's tiles) in
// waves of as many as its SMs hold at once, so a grid slightly larger than a
// whole number of waves runs one more, mostly empty, wave (NVIDIA, "GPU
// Performance Background User's Guide", "Wave Quantization"; "Matrix
// Multiplication Background User's Guide", "Wave Quantization"). The planner
// (`damscope plan`) and the wave lint on recorded kernels (kernel_lints.h)
// share this arithmetic.
#pragma once

namespace damscope {

// The fraction of the slots busy when `units` of equal work run `slots` at a
// time: units / (ceil(units / slots) x slots). 0 when either is not positive.
double waveUtilization(double units, double slots);

}  // namespace damscope
