// Every op invocation of a training step, named: which op (the stem damscope's
// analyzer classifies by), which instance within a block (qkv, ln1, ...), and
// its cost for a config and step shape. The model opens one tracer scope per
// invocation (op_tracer.h); the NVTX tracer turns (site, layer) into the
// range message {"op":..,"layer":..,"name":..,"flops":..,"bytes":..}, built
// once at start-up because the costs depend only on the config, B and T.
#pragma once

#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

#include "reference_workloads/gpt2/model/activations.h"
#include "reference_workloads/gpt2/model/config.h"
#include "reference_workloads/gpt2/model/parameters.h"
#include "reference_workloads/gpt2/ops/attention.h"
#include "reference_workloads/gpt2/ops/op_cost.h"

namespace damscope::gpt2 {

// In step order: forward, backward, optimizer.
enum class OpSite : int {
  kEmbeddingFwd,
  kLn1Fwd,
  kQkvFwd,
  kAttentionFwd,
  kAttProjFwd,
  kResidualAttnFwd,
  kLn2Fwd,
  kFcFwd,
  kGeluFwd,
  kFcProjFwd,
  kResidualMlpFwd,
  kLnfFwd,
  kLmHeadFwd,
  kCrossentropyFwd,
  kCrossentropyBwd,
  kLmHeadBwd,
  kLnfBwd,
  kResidualMlpBwd,
  kFcProjBwd,
  kGeluBwd,
  kFcBwd,
  kLn2Bwd,
  kResidualAttnBwd,
  kAttProjBwd,
  kAttentionBwd,
  kQkvBwd,
  kLn1Bwd,
  kEmbeddingBwd,
  kGradNorm,
  kAdamw,
};
inline constexpr int kNumOpSites = static_cast<int>(OpSite::kAdamw) + 1;

struct OpSiteInfo {
  std::string_view op;    // "matmul_fwd", "layernorm_bwd", ... (the analyzer's stems)
  std::string_view name;  // instance: "qkv", "ln1", "attn"...; empty when the op occurs once
  bool per_layer;         // runs once per block (the range carries "layer")
};

OpSiteInfo opSiteInfo(OpSite site);

// Every (site, layer) of one training step in the order the model runs them
// (gpt2_model.cc; a test holds the two to each other).
std::vector<std::pair<OpSite, int>> stepOrder(const ModelConfig& config);

// The parameter tensors whose gradients (for the site's layer, or whole
// for tensors outside the blocks) are final once this backward site has run,
// in the order the site writes them; empty for every other site. The tied
// token embedding is final only after the embedding's backward, which adds
// its share to the LM head's.
std::vector<ParamTensor> paramGradientsFinished(OpSite site);

// FLOPs and bytes of one invocation (ops/*.h); param_floats is the size of
// the parameter buffer (grad_norm and adamw run over all of it); attention:
// how the run's attention runs (its bytes differ).
OpCost opSiteCost(OpSite site, const ModelConfig& config, StepShape shape, size_t param_floats,
                  AttentionForm attention = AttentionForm::kMaterialised);

}  // namespace damscope::gpt2
