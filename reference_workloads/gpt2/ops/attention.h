// Causal multi-head self-attention (Vaswani et al., "Attention Is All You
// Need", 2017), unfused and naive as llm.c's CPU code: the scores and the
// probabilities are materialised as (B, NH, T, T) tensors (the causal half,
// P = T (T+1) / 2 entries per head, is computed), in three passes over
// memory, the way an unfused implementation runs three kernels.
// Per head h, with q, k, v the head's slices (hs = C / NH) of qkv:
//   forward   pass 1  preatt[t,s] = q[t].k[s] / sqrt(hs)            s <= t
//             pass 2  att[t,:]    = softmax(preatt[t, 0..t])
//             pass 3  out[t]      = sum_{s<=t} att[t,s] v[s]
//   backward  pass 1  datt[t,s]   = dout[t].v[s];  dv[s] = sum_{t>=s} att[t,s] dout[t]
//             pass 2  dpreatt[t,s] = att[t,s] (datt[t,s] - sum_j att[t,j] datt[t,j]) / sqrt(hs)
//             pass 3  dq[t] = sum_s dpreatt[t,s] k[s];  dk[s] = sum_t dpreatt[t,s] q[t]
// The softmax backward uses the O(T) form above (the Jacobian-vector product
// of softmax), not llm.c CPU's O(T^2) loop over the full Jacobian.
// Kernels: cpu/attention.cc.
#pragma once

#include "reference_workloads/gpt2/ops/op_cost.h"

namespace damscope::gpt2 {

// How the attention runs: materialised (the three passes above: the CPU
// backend, --attention naive) or fused (FlashAttention's tiles, the CUDA
// default: the same FLOPs, but nothing T x T ever reaches memory).
enum class AttentionForm { kMaterialised, kFused };

// Causal entries per head.
inline int64_t causalPairs(int64_t T) {
  return T * (T + 1) / 2;
}

// Per entry: q.k 2 hs, scale 1; max 1, exp(x - max) 2, sum 1, normalise 1;
// att v 2 hs; + 1 per row for 1/sum. Pass 1 reads q, k, writes preatt;
// pass 2 reads preatt, writes att; pass 3 reads att, v, writes out.
// Fused, one pass reads q, k, v and writes out and the per-row log-sum-exp.
inline OpCost attentionForwardCost(int64_t B, int64_t T, int64_t C, int64_t NH,
                                   AttentionForm form = AttentionForm::kMaterialised) {
  const int64_t hs = C / NH;
  const int64_t P = B * NH * causalPairs(T);
  const int64_t flops = P * (4 * hs + 6) + B * NH * T;
  const int64_t btc = B * T * C;
  if (form == AttentionForm::kFused) return {flops, kFloatBytes * (4 * btc + B * NH * T)};
  return {flops, kFloatBytes * ((2 * btc + P) + (P + P) + (P + btc + btc))};
}

// Per entry: datt 2 hs, dv 2 hs; sum att datt 2, dpreatt (subtract,
// multiply, scale) 3; dq 2 hs, dk 2 hs. Pass 1 reads att, dout, v, writes
// datt, dv; pass 2 reads att, datt, writes dpreatt; pass 3 reads dpreatt, q,
// k, writes dq, dk. Fused, the passes read q, k, v, dout and the log-sum-exp
// and write dq, dk, dv, and the per-row D = dout . out is written and read
// once (FlashAttention-2, algorithm 2).
inline OpCost attentionBackwardCost(int64_t B, int64_t T, int64_t C, int64_t NH,
                                    AttentionForm form = AttentionForm::kMaterialised) {
  const int64_t hs = C / NH;
  const int64_t P = B * NH * causalPairs(T);
  const int64_t btc = B * T * C;
  if (form == AttentionForm::kFused)
    return {P * (8 * hs + 5), kFloatBytes * (7 * btc + 3 * B * NH * T)};
  return {P * (8 * hs + 5),
          kFloatBytes * ((P + 2 * btc + P + btc) + (2 * P + P) + (P + 2 * btc + 2 * btc))};
}

}  // namespace damscope::gpt2
