// The training FLOPs of a transformer, from its shape: what MFU divides by the
// hardware's peak (mfu.h).
//
// Per token trained (forward + backward), following PaLM (Chowdhery et al.,
// "PaLM: Scaling Language Modeling with Pathways", 2022, appendix B):
//   6 N                 the matrix multiplies with the weights: 2 FLOPs per
//                       parameter forward, 4 backward
//   + 6 L d T           attention's QK^T and AV products: PaLM writes
//                       12 L H Q T (H heads of width Q, H Q = d); with a
//                       causal mask half of the T x T scores are masked, and
//                       llm.c's gpt2_estimate_mfu (train_gpt2.cu) counts
//                       6 L C T, the half that is computed. damscope follows
//                       llm.c, so its MFU of the GPT-2 trainer equals the
//                       figure llm.c prints for the same run.
// N is the parameter count the workload reports: for GPT-2 every parameter
// with the tied embedding counted once, as llm.c reports it (124,439,808 for
// GPT-2 124M). The attention term needs the layers L, width d and sequence
// length T; without them only 6 N counts (and the report says so).
//
// Presets (`--model NAME`) give the published shapes; GPT-2's parameter
// count follows from its shape (Radford et al., "Language Models are
// Unsupervised Multitask Learners", 2019, table 2; layout as in llm.c's
// gpt2_build_from_checkpoint): V d + T d + L (12 d^2 + 13 d) + 2 d.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace damscope {

struct ModelShape {
  std::string name;                // "gpt2-124m", or what the annotation calls it
  double params = 0;               // N
  std::optional<int64_t> layers;   // L
  std::optional<int64_t> d_model;  // d
  std::optional<int64_t> heads;
  std::optional<int64_t> seq_len;  // T
  std::optional<int64_t> vocab;
  bool operator==(const ModelShape&) const = default;
};

// FLOPs per trained token: 6 N, plus 6 L d T when L, d and T are known.
double trainingFlopsPerToken(const ModelShape& shape);
// True when the attention term is in trainingFlopsPerToken.
bool hasAttentionTerm(const ModelShape& shape);

// GPT-2's parameter count from its shape (see above).
double gpt2Params(int64_t layers, int64_t d_model, int64_t vocab, int64_t seq_len);

// The presets, and one by name (case-insensitive); the error lists them.
const std::vector<ModelShape>& modelPresets();
Result<ModelShape> findModelPreset(std::string_view name);

}  // namespace damscope
