// A linear layer on rows positions: out = inp W^T + b, with W (OC, C) as
// PyTorch's nn.Linear stores it.
//   forward   out[r,o]  = b[o] + sum_c inp[r,c] W[o,c]
//   backward  dinp[r,c] = sum_o dout[r,o] W[o,c]          (dout W)
//             dW[o,c]   = sum_r dout[r,o] inp[r,c]        (dout^T inp)
//             db[o]     = sum_r dout[r,o]
// The five per-block GEMMs and the LM head (the tied wte, no bias) use it;
// an NVTX range names which (qkv, attn_proj, fc, fc_proj, lm_head).
// Kernels: cpu/matmul.cc (SGEMM from a BLAS).
#pragma once

#include "reference_workloads/gpt2/ops/op_cost.h"

namespace damscope::gpt2 {

// 2 per multiply-add, + 1 per output for the bias. Reads inp, W, b; writes out.
inline OpCost matmulForwardCost(int64_t rows, int64_t C, int64_t OC, bool bias) {
  return {2 * rows * C * OC + (bias ? rows * OC : 0),
          kFloatBytes * (rows * C + OC * C + (bias ? OC : 0) + rows * OC)};
}

// Two GEMMs of 2 rows C OC each, + rows OC adds for db. Reads dout, W, inp;
// writes dinp, dW, db.
inline OpCost matmulBackwardCost(int64_t rows, int64_t C, int64_t OC, bool bias) {
  return {4 * rows * C * OC + (bias ? rows * OC : 0),
          kFloatBytes * (rows * OC + OC * C + rows * C + rows * C + OC * C + (bias ? OC : 0))};
}

}  // namespace damscope::gpt2
