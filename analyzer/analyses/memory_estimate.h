// Will the model fit? The device memory training needs, estimated from the
// model's size and shape, against the device's memory: the memory-capacity
// half of the D·A·M "Machine" question (DESIGN.md "Findings": gradient
// accumulation, checkpointing, ZeRO).
//
//   training state  16 bytes per parameter: with Adam, mixed precision keeps
//                   fp16/bf16 weights (2) and gradients (2) and fp32 master
//                   weights, momentum and variance (12); fp32 training keeps
//                   fp32 weights (4), gradients (4) and Adam's two moments
//                   (8) — 16 either way (Rajbhandari et al., "ZeRO: Memory
//                   Optimizations Toward Training Trillion Parameter Models",
//                   SC 2020, section 3.1, K = 12).
//   activations     per layer s b h (34 + 5 a s / h) bytes with 16-bit
//                   activations and no recomputation (Korthikanti et al.,
//                   "Reducing Activation Recomputation in Large Transformer
//                   Models", MLSys 2023, equation 1: s sequence length, b
//                   micro-batch, h width, a heads); twice that in fp32. The
//                   5 a s / h term is the attention score matrices, which
//                   fused attention (FlashAttention) never stores: the
//                   estimate counts them, so it is an upper bound.
//   ZeRO per GPU    over N data-parallel ranks, the state becomes
//                   stage 1: 4 + 12/N, stage 2: 2 + 14/N, stage 3: 16/N
//                   bytes per parameter (ZeRO, figure 1).
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
