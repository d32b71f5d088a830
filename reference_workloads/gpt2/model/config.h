// The shape of a GPT-2 model: layers, width, heads, context and vocabulary,
// the named presets, and the parameter count.
//
// The published shapes (124m ... 1.5b) are GPT-2's (Radford et al., "Language
// Models are Unsupervised Multitask Learners", 2019, table 2) with a
// 1024-token context and the 50,257-token BPE vocabulary; the small presets use
// the 256-value byte vocabulary so that any text file is training data. Two
// presets exist for the scenarios (train/scenarios.h): `wide`, whose step is
// dominated by GEMMs, and `long`, whose step is dominated by the materialised
// attention matrices and elementwise passes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace damscope::gpt2 {

struct ModelConfig {
  std::string name;
  int layers = 0;   // L
  int d_model = 0;  // C (llm.c's name), d in the papers
  int heads = 0;    // NH; head size C / NH
  int max_seq = 0;  // maxT: positions in the position embedding
  int vocab = 0;    // V, the real vocabulary (token ids are < V)
  // Vp: rows of the token embedding and columns of the logits. Equal to V,
  // or V rounded up to a multiple of 128 with --pad-vocab (as llm.c pads
  // 50,257 to 50,304) so that the LM-head GEMM has an aligned dimension. The
  // padded rows stay zero and their logits are ignored by the loss.
  int padded_vocab = 0;

  int headSize() const { return d_model / heads; }
};

struct ConfigPreset {
  ModelConfig config;
  std::string description;
};

// The presets, in the order --help lists them.
const std::vector<ConfigPreset>& configPresets();

// A preset by name; with pad_vocab the vocabulary is padded to a multiple of
// 128. The error lists the presets.
Result<ModelConfig> findConfig(std::string_view name, bool pad_vocab);

// Vocabulary rounded up to a multiple of 128.
int padVocab(int vocab);

// Parameters as llm.c reports them (the tied embedding once, the real vocab):
// V d + T d + L (12 d^2 + 13 d) + 2 d, with T = max_seq. Per block:
// qkv 3d^2 + 3d, attention projection d^2 + d, MLP 4d^2 + 4d and 4d^2 + d,
// two layernorms 4d.
int64_t parameterCount(const ModelConfig& config);

}  // namespace damscope::gpt2
