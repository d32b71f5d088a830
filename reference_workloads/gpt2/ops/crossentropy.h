// Softmax over the vocabulary and the cross-entropy loss of the next token,
// per position (rows = B * T); the padded logits (V..Vp) take no part:
//   forward   p = softmax(logits[0..V)) = exp(l - max) / sum exp(l - max)
//             loss = -log p[target] = max + log(sum exp(l - max)) - l[target]
//             (the second form, which stays finite when p[target] underflows)
//   backward  dlogits = (p - onehot(target)) * dloss,  dloss = 1 / (B T)
//             (the mean loss's gradient; padded columns 0)
// Kernels: cpu/crossentropy.cc.
#pragma once

#include "reference_workloads/gpt2/ops/op_cost.h"

namespace damscope::gpt2 {

// Per row: max V, exp(l - max) 2 V, sum V, normalise V; 1/sum 1, log 1,
// + max 1, - l[target] 1. Reads V logits and the target; writes Vp probs and
// the loss.
inline OpCost crossentropyForwardCost(int64_t rows, int64_t V, int64_t Vp) {
  return {rows * (5 * V + 4), kFloatBytes * (rows * V + rows * Vp + rows) + kTokenBytes * rows};
}

// Per element p * dloss 1; per row the target's - dloss 1. Reads V probs
// and the target; writes Vp dlogits.
inline OpCost crossentropyBackwardCost(int64_t rows, int64_t V, int64_t Vp) {
  return {rows * (V + 1), kFloatBytes * (rows * V + rows * Vp) + kTokenBytes * rows};
}

}  // namespace damscope::gpt2
