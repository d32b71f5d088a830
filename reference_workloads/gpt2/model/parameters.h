// Where each parameter tensor lives in the one contiguous parameter buffer,
// and GPT-2's initialisation.
//
// The sixteen tensors and their order follow llm.c's ParameterTensors
// (train_gpt2.c): per-layer tensors are stacked over L so that one offset
// plus layer * stride addresses a block's weight. The gradients and both AdamW
// moments use the same layout, so one offset serves all four buffers.
// Weights are stored [out, in] (row-major, "out" rows), as PyTorch's Linear
// and llm.c store them: matmul_fwd computes out = inp W^T + b.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "reference_workloads/gpt2/model/config.h"

namespace damscope::gpt2 {

enum class ParamTensor : int {
  kWte,       // (Vp, C) token embedding, also the LM head (tied)
  kWpe,       // (maxT, C) position embedding
  kLn1W,      // (L, C)
  kLn1B,      // (L, C)
  kQkvW,      // (L, 3C, C)
  kQkvB,      // (L, 3C)
  kAttProjW,  // (L, C, C)
  kAttProjB,  // (L, C)
  kLn2W,      // (L, C)
  kLn2B,      // (L, C)
  kFcW,       // (L, 4C, C)
  kFcB,       // (L, 4C)
  kFcProjW,   // (L, C, 4C)
  kFcProjB,   // (L, C)
  kLnfW,      // (C)
  kLnfB,      // (C)
};
inline constexpr int kNumParamTensors = 16;

std::string_view paramTensorName(ParamTensor t);

class ParameterLayout {
 public:
  explicit ParameterLayout(const ModelConfig& config);

  // Floats in the whole tensor (all layers) and its offset in the buffer.
  size_t size(ParamTensor t) const { return sizes_[static_cast<int>(t)]; }
  size_t offset(ParamTensor t) const { return offsets_[static_cast<int>(t)]; }
  // Floats of one layer's slice of a per-layer tensor.
  size_t layerStride(ParamTensor t) const;
  // Offset of layer l's slice of a per-layer tensor.
  size_t offset(ParamTensor t, int layer) const { return offset(t) + layer * layerStride(t); }
  // Floats in the buffer (the padded vocabulary rows included).
  size_t total() const { return total_; }

  // Weight decay applies to the 2-D weights (matmul weights and embeddings),
  // not to biases and layernorm gains/shifts: GPT-2/GPT-3 practice as in
  // nanoGPT's configure_optimizers and llm.c (AdamW: Loshchilov & Hutter,
  // "Decoupled Weight Decay Regularization", ICLR 2019).
  static bool decays(ParamTensor t);

 private:
  int layers_;
  std::array<size_t, kNumParamTensors> sizes_{};
  std::array<size_t, kNumParamTensors> offsets_{};
  size_t total_ = 0;
};

// GPT-2's initialisation into a host buffer of layout.total() floats:
// weights N(0, 0.02), the residual projections (attention projection and
// MLP projection) N(0, 0.02 / sqrt(2L)) so that the residual stream's
// variance does not grow with depth (Radford et al. 2019, section 2.3; as in
// nanoGPT and llm.c), biases 0, layernorm gains 1 and shifts 0. The padded
// vocabulary rows of wte are 0. Deterministic for a seed on every machine
// (its own generator, not <random>'s implementation-defined distributions).
void initParameters(float* params, const ParameterLayout& layout, const ModelConfig& config,
                    uint64_t seed);

// x[j] = scale * the j-th deviate of Normal(seed), j < n: the values of one
// sequential pass, computed in parallel blocks (OpenMP) that each start at
// their first pair (Normal::fromPair). GPT-2 1.5B's 1.6 G deviates took
// ~25 s on one core.
void fillNormal(float* x, size_t n, uint64_t seed, float scale);

}  // namespace damscope::gpt2
