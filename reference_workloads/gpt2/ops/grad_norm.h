// The global L2 norm of all gradients, for clipping at norm 1.0 (Pascanu,
// Mikolov & Bengio, "On the difficulty of training recurrent neural
// networks", ICML 2013; GPT-3, Brown et al. 2020, appendix B, clips at 1.0):
//   norm = sqrt(sum g^2),  grad_scale = norm > clip ? clip / norm : 1
// The scale is applied inside the AdamW pass (adamw.h), not by a pass of its own.
// Kernels: cpu/grad_norm.cc.
#pragma once

#include "reference_workloads/gpt2/ops/op_cost.h"

namespace damscope::gpt2 {

// One multiply-add per gradient; reads the gradients.
inline OpCost gradNormCost(int64_t n) {
  return {2 * n, kFloatBytes * n};
}

}  // namespace damscope::gpt2
