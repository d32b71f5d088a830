// The bytes training keeps on a device, by component: the formulas both the
// estimate of a recorded run (memory_estimate.h) and the planner
// (analyzer/planner/training_plan.h) use.
//
//   state        per parameter, with Adam: the weights and their gradients
//                in the training precision (2 + 2 bytes in fp16/bf16, 4 + 4
//                in fp32), fp32 master weights in mixed precision (4;
//                Micikevicius et al., "Mixed Precision Training", ICLR 2018,
//                section 3.1) and Adam's fp32 momentum and variance (8) —
//                16 bytes either way with master weights (Rajbhandari et al.,
//                "ZeRO: Memory Optimizations Toward Training Trillion
//                Parameter Models", SC 2020, section 3.1, K = 12).
//   ZeRO         over D data-parallel ranks, stage 1 shards the optimizer
//                state (and the master weights), stage 2 the gradients too,
//                stage 3 the weights too (ZeRO, figure 1): 4 + 12/D,
//                2 + 14/D and 16/D bytes per parameter in mixed precision.
//   activations  per layer s b h (34 + 5 a s / h) bytes with 16-bit
//                activations and no recomputation (Korthikanti et al.,
//                "Reducing Activation Recomputation in Large Transformer
//                Models", MLSys 2023, equation 1: s sequence length, b
//                micro-batch, h width, a heads); twice that in fp32. The
//                5 a s / h term is the attention score matrices: fused
//                attention (FlashAttention) never stores them, and selective
//                recomputation recomputes them (section 4.2, 34 s b h).
//                Full recomputation keeps each layer's input, 2 s b h
//                (table 2), plus the one layer being recomputed.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "analyzer/devices/device_specs.h"

namespace damscope {

// What the backward pass recomputes instead of storing.
enum class Checkpointing : uint8_t {
  kNone,
  kSelective,  // the attention scores (Korthikanti et al. 2023, section 4.2)
  kFull,       // everything but each layer's input
};
std::string_view toText(Checkpointing checkpointing);
std::optional<Checkpointing> checkpointingFromText(std::string_view text);

// Bytes of training state by component.
struct TrainingState {
  double weights = 0;
  double gradients = 0;
  double master_weights = 0;
  double optimizer = 0;  // Adam's momentum and variance

  double total() const { return weights + gradients + master_weights + optimizer; }
  bool operator==(const TrainingState&) const = default;
};

// True for the precisions training keeps weights in 16 bits or fewer.
bool isSixteenBitOrLess(Precision precision);

// The state of `params` parameters trained with Adam in `precision`; master
// weights only in mixed precision (a precision of 16 bits or fewer) and only
// when `master_weights`.
TrainingState trainingState(double params, Precision precision, bool master_weights);

// One data-parallel rank's share of `state` under ZeRO stage 0..3 over
// `ranks` ranks.
TrainingState shardedState(const TrainingState& state, int zero_stage, double ranks);

struct ActivationShape {
  double seq_len = 0;     // s
  double micro_batch = 0; // b
  double width = 0;       // h
  double heads = 0;       // a
  double layers = 0;      // L
};

// The activations all layers keep for the backward pass, bytes.
// `scores_stored` is false with fused attention.
double activationBytes(const ActivationShape& shape, Precision precision,
                       Checkpointing checkpointing, bool scores_stored);

}  // namespace damscope
