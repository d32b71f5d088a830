// Token + position embedding (Radford et al. 2018/2019: h0 = W_e[U] + W_p).
//   forward   out[b,t,:]  = wte[tok[b,t],:] + wpe[t,:]
//   backward  dwte[tok[b,t],:] += dout[b,t,:]       (scatter-add: a token may repeat)
//             dwpe[t,:]         = sum_b dout[b,t,:]
// Kernels: cpu/embedding.cc.
#pragma once

#include "reference_workloads/gpt2/ops/op_cost.h"

namespace damscope::gpt2 {

// One add per output element. Reads the tokens, the B*T gathered rows of wte
// and T rows of wpe; writes out.
inline OpCost embeddingForwardCost(int64_t B, int64_t T, int64_t C) {
  return {B * T * C, kTokenBytes * B * T + kFloatBytes * (B * T * C + T * C + B * T * C)};
}

// One add per element into dwte and one into dwpe. Reads tokens and dout,
// reads and writes the gathered rows of dwte, writes T rows of dwpe.
inline OpCost embeddingBackwardCost(int64_t B, int64_t T, int64_t C) {
  return {2 * B * T * C, kTokenBytes * B * T + kFloatBytes * (B * T * C + 2 * B * T * C + T * C)};
}

}  // namespace damscope::gpt2
