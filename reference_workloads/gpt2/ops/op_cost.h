// The work of one op invocation: floating-point operations and memory bytes,
// the figures the trainer's NVTX op ranges carry (train/nvtx_tracer.h) and
// damscope's roofline places the op by (analyzer/analyses/kernel_work.h).
//
// Conventions, shared by every backend (the counts describe the algorithm,
// so a CUDA kernel doing the same work reports the same figures):
// - FLOPs are counted as the loops do them: a multiply-add is 2, an add,
//   multiply, divide, compare (max) or square root is 1, and a transcendental
//   (exp, log, tanh) is 1, the usual roofline convention for elementwise
//   ops. Per-row scalars (a 1/sum, an rstd) count too; the few operations of
//   thread-partial reductions do not (they depend on the thread count).
// - Bytes are the compulsory traffic of each pass the op makes over memory:
//   every tensor a pass reads counts once, every tensor it writes counts once
//   (a tensor read and written, like an accumulated gradient, counts twice),
//   as if caches held nothing between passes and everything within one.
//   The unfused attention makes three passes, so its T x T matrices count
//   once per pass that touches them (ops/attention.h).
// Element sizes: fp32 (4 bytes) activations and parameters, int32 tokens.
#pragma once

#include <cstdint>

namespace damscope::gpt2 {

struct OpCost {
  int64_t flops = 0;
  int64_t bytes = 0;
};

inline constexpr int64_t kFloatBytes = 4;
inline constexpr int64_t kTokenBytes = 4;

}  // namespace damscope::gpt2
