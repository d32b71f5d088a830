// The presets and the parameter count: see config.h.
#include "reference_workloads/gpt2/model/config.h"

namespace damscope::gpt2 {
namespace {

ModelConfig shape(const char* name, int layers, int d_model, int heads, int max_seq, int vocab) {
  ModelConfig c;
  c.name = name;
  c.layers = layers;
  c.d_model = d_model;
  c.heads = heads;
  c.max_seq = max_seq;
  c.vocab = vocab;
  c.padded_vocab = vocab;
  return c;
}

constexpr int kByteVocab = 256;
constexpr int kGpt2Vocab = 50257;  // GPT-2's BPE vocabulary (Radford et al. 2019)

}  // namespace

const std::vector<ConfigPreset>& configPresets() {
  static const std::vector<ConfigPreset> presets = {
      {shape("tiny", 2, 128, 4, 64, kByteVocab), "tests and quick checks"},
      {shape("small", 4, 256, 8, 128, kByteVocab), "the default; scenarios balanced, data-bound"},
      {shape("wide", 4, 768, 12, 128, kByteVocab),
       "GPT-2 124M's block width at byte vocabulary; scenario compute-bound"},
      {shape("long", 2, 64, 16, 1024, kByteVocab),
       "narrow and long, 16 heads of 4: attention's T x T matrices dominate; scenario "
       "memory-bound"},
      {shape("124m", 12, 768, 12, 1024, kGpt2Vocab), "GPT-2 small, as published"},
      {shape("350m", 24, 1024, 16, 1024, kGpt2Vocab), "GPT-2 medium, as published"},
      {shape("774m", 36, 1280, 20, 1024, kGpt2Vocab), "GPT-2 large, as published"},
      {shape("1.5b", 48, 1600, 25, 1024, kGpt2Vocab), "GPT-2 XL, as published"},
  };
  return presets;
}

int padVocab(int vocab) {
  return (vocab + 127) / 128 * 128;
}

Result<ModelConfig> findConfig(std::string_view name, bool pad_vocab) {
  std::string names;
  for (const ConfigPreset& p : configPresets()) {
    if (p.config.name == name) {
      ModelConfig c = p.config;
      if (pad_vocab) c.padded_vocab = padVocab(c.vocab);
      return c;
    }
    names += (names.empty() ? "" : ", ") + p.config.name;
  }
  return Error("unknown config '" + std::string(name) + "' (expected one of: " + names + ")");
}

int64_t parameterCount(const ModelConfig& c) {
  const int64_t d = c.d_model;
  const int64_t L = c.layers;
  return int64_t{c.vocab} * d + int64_t{c.max_seq} * d + L * (12 * d * d + 13 * d) + 2 * d;
}

}  // namespace damscope::gpt2
