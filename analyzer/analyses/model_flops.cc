// Training FLOPs of a transformer: see model_flops.h.
#include "analyzer/analyses/model_flops.h"

#include <algorithm>
#include <cctype>

namespace damscope {
namespace {

ModelShape gpt2(const char* name, int64_t layers, int64_t d_model, int64_t heads) {
  // Vocabulary 50,257 and context 1,024 for every GPT-2 size (Radford et al.
  // 2019, section 2.3).
  constexpr int64_t kVocab = 50257, kContext = 1024;
  return {name,  gpt2Params(layers, d_model, kVocab, kContext), layers, d_model, heads, kContext,
          kVocab};
}

std::vector<ModelShape> makePresets() {
  std::vector<ModelShape> p;
  // GPT-2, Radford et al. 2019, table 2 (layers, width); heads of 64 channels.
  p.push_back(gpt2("gpt2-124m", 12, 768, 12));
  p.push_back(gpt2("gpt2-350m", 24, 1024, 16));
  p.push_back(gpt2("gpt2-774m", 36, 1280, 20));
  p.push_back(gpt2("gpt2-1.5b", 48, 1600, 25));
  // Llama 2, Touvron et al., "Llama 2: Open Foundation and Fine-Tuned Chat
  // Models", 2023, table 1 (context 4k) and the released configurations
  // (meta-llama/Llama-2-7b-hf, -13b-hf config.json: hidden_size,
  // num_hidden_layers, num_attention_heads, vocab_size 32000); parameter
  // counts as the released checkpoints hold them.
  p.push_back({"llama2-7b", 6'738'415'616, 32, 4096, 32, 4096, 32000});
  p.push_back({"llama2-13b", 13'015'864'320, 40, 5120, 40, 4096, 32000});
  // Llama 3 8B, meta-llama/Meta-Llama-3-8B config.json (context 8192,
  // vocabulary 128,256).
  p.push_back({"llama3-8b", 8'030'261'248, 32, 4096, 32, 8192, 128256});
  return p;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

bool hasAttentionTerm(const ModelShape& s) {
  return s.layers && s.d_model && s.seq_len && *s.layers > 0 && *s.d_model > 0 && *s.seq_len > 0;
}

double trainingFlopsPerToken(const ModelShape& s) {
  double flops = 6.0 * s.params;
  if (hasAttentionTerm(s)) {
    flops += 6.0 * static_cast<double>(*s.layers) * static_cast<double>(*s.d_model) *
             static_cast<double>(*s.seq_len);
  }
  return flops;
}

double gpt2Params(int64_t layers, int64_t d_model, int64_t vocab, int64_t seq_len) {
  const double d = static_cast<double>(d_model);
  // Token and position embeddings; per block two layernorms (4 d), the
  // attention's QKV and output projections (4 d^2 + 4 d) and the MLP's two
  // (8 d^2 + 5 d); the final layernorm (2 d). The LM head is the tied wte.
  return static_cast<double>(vocab) * d + static_cast<double>(seq_len) * d +
         static_cast<double>(layers) * (12.0 * d * d + 13.0 * d) + 2.0 * d;
}

const std::vector<ModelShape>& modelPresets() {
  static const std::vector<ModelShape> presets = makePresets();
  return presets;
}

Result<ModelShape> findModelPreset(std::string_view name) {
  const std::string wanted = lower(name);
  std::string known;
  for (const ModelShape& m : modelPresets()) {
    if (m.name == wanted) return m;
    known += (known.empty() ? "" : ", ") + m.name;
  }
  return Error("no model preset \"" + std::string(name) + "\" (presets: " + known + ")");
}

}  // namespace damscope
