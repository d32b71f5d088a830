// The residual connection (He et al., "Deep Residual Learning", 2016; GPT-2's
// pre-LN blocks add each sub-layer's output to the stream):
//   forward   out = a + b
//   backward  da = dout, db = dout        (the gradient flows to both unchanged)
// Kernels: cpu/residual.cc.
#pragma once

#include "reference_workloads/gpt2/ops/op_cost.h"

namespace damscope::gpt2 {

// One add per element; reads a, b, writes out.
inline OpCost residualForwardCost(int64_t n) {
  return {n, kFloatBytes * 3 * n};
}

// No arithmetic: reads dout, writes da and db.
inline OpCost residualBackwardCost(int64_t n) {
  return {0, kFloatBytes * 3 * n};
}

}  // namespace damscope::gpt2
