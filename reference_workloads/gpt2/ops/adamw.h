// AdamW (Loshchilov & Hutter, "Decoupled Weight Decay Regularization", ICLR
// 2019, algorithm 2), per parameter p with gradient g at step t >= 1:
//   g  = g * grad_scale                      (global-norm clipping, grad_norm.h)
//   m  = b1 m + (1 - b1) g
//   v  = b2 v + (1 - b2) g^2
//   mh = m / (1 - b1^t),  vh = v / (1 - b2^t)
//   p  = p - lr (mh / (sqrt(vh) + eps) + wd p)
// Kernels: cpu/adamw.cc.
#pragma once

#include "reference_workloads/gpt2/ops/op_cost.h"

namespace damscope::gpt2 {

// Per parameter: scale 1, m 3, v 4, two bias corrections 2 (multiplies by
// precomputed reciprocals), sqrt + eps + divide 3, + wd p 2, * lr 1,
// subtract 1 = 17. Reads p, g, m, v; writes p, m, v.
inline OpCost adamwCost(int64_t n) {
  return {17 * n, kFloatBytes * 7 * n};
}

}  // namespace damscope::gpt2
