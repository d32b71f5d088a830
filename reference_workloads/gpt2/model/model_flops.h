// The model FLOPs of a training step, what MFU divides by the peak: per
// token 6 N for the weight matmuls (2 forward, 4 backward per parameter)
// plus 6 L d T for attention's two T x T products (the causal half, as
// llm.c's gpt2_estimate_mfu counts it), with N the parameter count as llm.c
// reports it. damscope's analyzer counts the same (analyzer/analyses/
// model_flops.h), so the trainer's MFU and damscope's agree on a run.
#pragma once

#include <cstdint>

#include "reference_workloads/gpt2/model/activations.h"
#include "reference_workloads/gpt2/model/config.h"

namespace damscope::gpt2 {

inline double modelFlopsPerStep(const ModelConfig& c, StepShape s) {
  const double tokens = double(s.batch) * s.seq;
  const double per_token =
      6.0 * double(parameterCount(c)) + 6.0 * c.layers * double(c.d_model) * s.seq;
  return tokens * per_token;
}

}  // namespace damscope::gpt2
