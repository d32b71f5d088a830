// The parameter layout and GPT-2's initialisation: see parameters.h.
#include "reference_workloads/gpt2/model/parameters.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "reference_workloads/gpt2/model/random.h"

namespace damscope::gpt2 {
namespace {

bool perLayer(ParamTensor t) {
  return t != ParamTensor::kWte && t != ParamTensor::kWpe && t != ParamTensor::kLnfW &&
         t != ParamTensor::kLnfB;
}

}  // namespace

std::string_view paramTensorName(ParamTensor t) {
  static constexpr std::string_view kNames[kNumParamTensors] = {
      "wte",  "wpe",  "ln1w", "ln1b", "qkvw",    "qkvb",    "attprojw", "attprojb",
      "ln2w", "ln2b", "fcw",  "fcb",  "fcprojw", "fcprojb", "lnfw",     "lnfb"};
  return kNames[static_cast<int>(t)];
}

ParameterLayout::ParameterLayout(const ModelConfig& c) : layers_(c.layers) {
  const size_t C = c.d_model;
  const size_t L = c.layers;
  sizes_ = {size_t(c.padded_vocab) * C,
            size_t(c.max_seq) * C,
            L * C,
            L * C,
            L * 3 * C * C,
            L * 3 * C,
            L * C * C,
            L * C,
            L * C,
            L * C,
            L * 4 * C * C,
            L * 4 * C,
            L * C * 4 * C,
            L * C,
            C,
            C};
  for (int i = 0; i < kNumParamTensors; ++i) {
    offsets_[i] = total_;
    total_ += sizes_[i];
  }
}

size_t ParameterLayout::layerStride(ParamTensor t) const {
  return perLayer(t) ? size(t) / layers_ : size(t);
}

bool ParameterLayout::decays(ParamTensor t) {
  switch (t) {
    case ParamTensor::kWte:
    case ParamTensor::kWpe:
    case ParamTensor::kQkvW:
    case ParamTensor::kAttProjW:
    case ParamTensor::kFcW:
    case ParamTensor::kFcProjW:
      return true;
    default:
      return false;
  }
}

void fillNormal(float* x, size_t n, uint64_t seed, float scale) {
  constexpr size_t kBlockPairs = size_t{1} << 16;
  const int64_t blocks = static_cast<int64_t>((n + 2 * kBlockPairs - 1) / (2 * kBlockPairs));
#pragma omp parallel for schedule(static)
  for (int64_t b = 0; b < blocks; ++b) {
    Normal normal = Normal::fromPair(seed, uint64_t(b) * kBlockPairs);
    const size_t end = std::min(n, size_t(b + 1) * 2 * kBlockPairs);
    for (size_t j = size_t(b) * 2 * kBlockPairs; j < end; ++j) x[j] = scale * normal.next();
  }
}

void initParameters(float* params, const ParameterLayout& layout, const ModelConfig& c,
                    uint64_t seed) {
  constexpr float kStd = 0.02f;
  const float residual_std = kStd / std::sqrt(2.0f * c.layers);
  std::memset(params, 0, layout.total() * sizeof(float));
  // One stream per tensor, so that a tensor's values do not depend on the
  // sizes of the tensors before it (e.g. on --pad-vocab).
  for (int i = 0; i < kNumParamTensors; ++i) {
    const auto t = static_cast<ParamTensor>(i);
    float* p = params + layout.offset(t);
    const uint64_t stream = mixSeed(seed, 0x9a7a3e7e00 + i);
    switch (t) {
      case ParamTensor::kWte:  // padded rows stay 0
        fillNormal(p, size_t(c.vocab) * c.d_model, stream, kStd);
        break;
      case ParamTensor::kWpe:
      case ParamTensor::kQkvW:
      case ParamTensor::kFcW:
        fillNormal(p, layout.size(t), stream, kStd);
        break;
      case ParamTensor::kAttProjW:
      case ParamTensor::kFcProjW:
        fillNormal(p, layout.size(t), stream, residual_std);
        break;
      case ParamTensor::kLn1W:
      case ParamTensor::kLn2W:
      case ParamTensor::kLnfW:
        for (size_t j = 0; j < layout.size(t); ++j) p[j] = 1.0f;
        break;
      default:  // biases and layernorm shifts: 0
        break;
    }
  }
}

}  // namespace damscope::gpt2
