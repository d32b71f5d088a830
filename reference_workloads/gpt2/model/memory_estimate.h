// What a model needs in memory for training, computed from the layouts before
// anything is allocated, so that a config that cannot fit is refused with the
// estimate instead of failing (or swapping) part-way.
#pragma once

#include <cstdint>
#include <string>

#include "reference_workloads/gpt2/model/activations.h"
#include "reference_workloads/gpt2/model/config.h"

namespace damscope::gpt2 {

struct MemoryEstimate {
  uint64_t parameter_bytes = 0;   // the parameter buffer (padded vocabulary included)
  uint64_t gradient_bytes = 0;    // same size
  uint64_t moment_bytes = 0;      // AdamW m and v
  uint64_t activation_bytes = 0;  // kept activations and forward scratch
  uint64_t activation_gradient_bytes = 0;
  uint64_t token_bytes = 0;

  uint64_t total() const {
    return parameter_bytes + gradient_bytes + moment_bytes + activation_bytes +
           activation_gradient_bytes + token_bytes;
  }
  // "6.2 GB (parameters 1.6 GB, gradients 1.6 GB, AdamW moments 3.1 GB, ...)"
  std::string describe() const;
};

MemoryEstimate estimateMemory(const ModelConfig& config, StepShape shape);

// Bytes in decimal gigabytes with one decimal ("12.3 GB"), or megabytes below 1 GB.
std::string formatBytes(uint64_t bytes);

}  // namespace damscope::gpt2
