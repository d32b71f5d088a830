// GELU, tanh approximation (Hendrycks & Gimpel, "Gaussian Error Linear Units",
// 2016, eq. for GELU(x) ~ 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))),
// the form GPT-2 uses:
//   forward   u = s (x + c x^3), s = sqrt(2/pi), c = 0.044715
//             out = 0.5 x (1 + tanh u)
//   backward  dx = dout * (0.5 (1 + tanh u) + 0.5 x (1 - tanh^2 u) s (1 + 3 c x^2))
// Kernels: cpu/gelu.cc.
#pragma once

#include "reference_workloads/gpt2/ops/op_cost.h"

namespace damscope::gpt2 {

// Per element: x^3 2, * c 1, + x 1, * s 1, tanh 1, + 1 1, * x 1, * 0.5 1 = 9.
// Reads inp, writes out.
inline OpCost geluForwardCost(int64_t n) {
  return {9 * n, kFloatBytes * 2 * n};
}

// Per element: x^2 1, u (x^2 * c, + 1, * x, * s) 4, tanh 1, 1 - tanh^2 2,
// 0.5 (1 + tanh) 2, 3 c x^2 + 1 2, * s 1, 0.5 x 1, products 2, + 1,
// * dout 1 = 18. Reads inp, dout; writes dinp.
inline OpCost geluBackwardCost(int64_t n) {
  return {18 * n, kFloatBytes * 3 * n};
}

}  // namespace damscope::gpt2
