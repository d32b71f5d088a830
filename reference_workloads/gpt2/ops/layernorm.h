// Layer normalisation (Ba, Kiros & Hinton, "Layer Normalization", 2016), per
// row x of C features, eps 1e-5 (PyTorch's default, as GPT-2 uses):
//   forward   mean = sum(x)/C,  rstd = 1/sqrt(sum((x-mean)^2)/C + eps)
//             n = (x - mean) * rstd,  out = n * w + b
//   backward  dn = dout * w
//             dx += rstd * (dn - mean(dn) - n * mean(dn * n))   (or =, see below)
//             dw  = sum over rows of dout * n,   db = sum over rows of dout
// (the derivation as in llm.c's layernorm_backward, train_gpt2.c).
// Kernels: cpu/layernorm.cc.
#pragma once

#include "reference_workloads/gpt2/ops/op_cost.h"

namespace damscope::gpt2 {

// Per row: mean C adds + 1 multiply; variance C (subtract, multiply, add) + 1;
// rstd: add eps, sqrt, divide; output C (subtract, multiply, multiply, add).
// Reads inp, w, b; writes out, mean, rstd.
inline OpCost layernormForwardCost(int64_t rows, int64_t C) {
  return {rows * (8 * C + 5), kFloatBytes * (2 * rows * C + 2 * C + 2 * rows)};
}

// Per row, pass 1 (means): n (2), dn (1), sum dn (1), sum dn*n (2) = 6 C,
// + 2 multiplies by 1/C; pass 2: n (2), dn (1), dn - mean(dn) - n * mean(dn n)
// (3), * rstd (1), += dx (1), dw += dout * n (2), db += dout (1) = 11 C.
// Reads dout, inp, w, mean, rstd; reads and writes dinp (only writes it when
// not accumulating: the final layernorm, whose input has no other gradient);
// writes dw, db.
inline OpCost layernormBackwardCost(int64_t rows, int64_t C, bool accumulate) {
  return {rows * (17 * C + 2) - (accumulate ? 0 : rows * C),
          kFloatBytes * ((accumulate ? 4 : 3) * rows * C + 3 * C + 2 * rows)};
}

}  // namespace damscope::gpt2
