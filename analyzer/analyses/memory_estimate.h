// Will the model fit? The device memory training needs, estimated from the
// model's size and shape, against the device's memory: the memory-capacity
// half of the D·A·M "Machine" question (DESIGN.md "Findings": gradient
// accumulation, checkpointing, ZeRO).
//
// The formulas (training state with Adam and master weights, ZeRO sharding,
// activations without recomputation, score matrices counted: an upper bound
// with fused attention) are in training_memory.h, which the planner shares.
// The micro-batch is the model annotation's "batch", else tokens per step /
// sequence length (one micro-batch per step: an upper bound again).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analyzer/analyses/analysis_input.h"
#include "analyzer/analyses/model_flops.h"
#include "analyzer/devices/device_specs.h"

namespace damscope {

struct MemoryEstimate {
  double state_bytes = 0;                  // weights, gradients, optimizer state
  std::optional<double> activation_bytes;  // empty without the shape
  double total_bytes = 0;
  std::optional<double> device_bytes;  // the device's memory
  std::optional<double> pct_of_device;
  int64_t micro_batch = 0;                   // sequences; 0 when unknown
  bool micro_batch_from_tokens = false;      // derived from tokens per step
  int32_t ranks = 1;                         // data-parallel ranks for ZeRO
  std::array<double, 3> zero_state_bytes{};  // per GPU, stages 1, 2, 3
  bool operator==(const MemoryEstimate&) const = default;
};

// Empty without a model (parameter count).
std::optional<MemoryEstimate> estimateTrainingMemory(const AnalysisInput& input,
                                                     const std::optional<ModelShape>& model,
                                                     Precision precision, double tokens_per_step,
                                                     std::optional<double> device_bytes);

}  // namespace damscope
