// Memory estimate: see memory_estimate.h.
#include "reference_workloads/gpt2/model/memory_estimate.h"

#include <cstdio>

#include "reference_workloads/gpt2/model/parameters.h"

namespace damscope::gpt2 {

MemoryEstimate estimateMemory(const ModelConfig& config, StepShape shape) {
  const ParameterLayout params(config);
  const ActivationLayout acts(config, shape);
  MemoryEstimate e;
  e.parameter_bytes = params.total() * sizeof(float);
  e.gradient_bytes = e.parameter_bytes;
  e.moment_bytes = 2 * e.parameter_bytes;
  e.activation_bytes = acts.forwardFloats() * sizeof(float);
  e.activation_gradient_bytes = acts.backwardFloats() * sizeof(float);
  e.token_bytes = 2 * uint64_t(shape.batch) * shape.seq * sizeof(int32_t);
  return e;
}

std::string formatBytes(uint64_t bytes) {
  char text[32];
  if (bytes >= 1000000000ull) {
    std::snprintf(text, sizeof text, "%.1f GB", bytes / 1e9);
  } else {
    std::snprintf(text, sizeof text, "%.1f MB", bytes / 1e6);
  }
  return text;
}

std::string MemoryEstimate::describe() const {
  return formatBytes(total()) + " (parameters " + formatBytes(parameter_bytes) + ", gradients " +
         formatBytes(gradient_bytes) + ", AdamW moments " + formatBytes(moment_bytes) +
         ", activations " + formatBytes(activation_bytes) + ", activation gradients " +
         formatBytes(activation_gradient_bytes) + ")";
}

}  // namespace damscope::gpt2
