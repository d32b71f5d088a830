// The CUDA backend's GEMMs at the run's precision (precision.h), beside the
// cuBLASLt wrapper they call (lt_gemm.h): the linear layers' forward and
// backward products, and the naive attention's batched head products.
//
// bf16 GEMMs cast their inputs to bf16 scratch on every call rather than
// keeping a bf16 copy of the weights: the Backend interface has no signal
// for "the weights changed" besides adamw() and upload(), a parameter-sized
// second buffer would cost memory the capacity scenario counts, and the cast
// reads 4 and writes 2 bytes per input element against 2 K FLOPs per output
// element, small beside the GEMM for the trainer's shapes.
//
// Each function enqueues on the runtime's compute stream and returns false
// once an error is kept there (device_runtime.h); the caller finishes the op.
#pragma once

#include "reference_workloads/gpt2/cuda/device_runtime.h"
#include "reference_workloads/gpt2/cuda/lt_gemm.h"
#include "reference_workloads/gpt2/cuda/precision.h"

namespace damscope::gpt2::cuda {

// `call` through cuBLASLt, and its bias added by a kernel where no algorithm
// with the bias epilogue exists for it.
bool runGemm(DeviceRuntime& rt, LtGemm& gemm, const GemmCall& call, const char* op);

// out (rows, OC) = inp (rows, C) weight^T (+ bias), weight (OC, C) row-major.
bool linearForward(DeviceRuntime& rt, LtGemm& gemm, Precision precision, float* out,
                   const float* inp, const float* weight, const float* bias, int rows, int C,
                   int OC);

// dinp (rows, C) = dout weight; dweight (OC, C) = dout^T inp; dbias (OC) =
// the column sums of dout (none when dbias is null).
bool linearBackward(DeviceRuntime& rt, LtGemm& gemm, Precision precision, float* dinp,
                    float* dweight, float* dbias, const float* dout, const float* inp,
                    const float* weight, int rows, int C, int OC);

// The naive attention's batched products: `batch` = B NH heads, each (T, hs)
// or (T, T), row-major and contiguous. They run at fp32 or tf32; bf16 maps to
// tf32 here, because casting the materialised T x T matrices would add two
// more passes over them to the op whose cost is that traffic.
GemmCall headProduct(const float* a, bool trans_a, const float* b, bool trans_b, float* c, int M,
                     int N, int K, int batch, float alpha, Precision precision);

}  // namespace damscope::gpt2::cuda
