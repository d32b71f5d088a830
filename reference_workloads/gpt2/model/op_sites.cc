// Op sites: names and costs, see op_sites.h.
#include "reference_workloads/gpt2/model/op_sites.h"

#include "reference_workloads/gpt2/ops/adamw.h"
#include "reference_workloads/gpt2/ops/attention.h"
#include "reference_workloads/gpt2/ops/crossentropy.h"
#include "reference_workloads/gpt2/ops/embedding.h"
#include "reference_workloads/gpt2/ops/gelu.h"
#include "reference_workloads/gpt2/ops/grad_norm.h"
#include "reference_workloads/gpt2/ops/layernorm.h"
#include "reference_workloads/gpt2/ops/matmul.h"
#include "reference_workloads/gpt2/ops/residual.h"

namespace damscope::gpt2 {

OpSiteInfo opSiteInfo(OpSite site) {
  switch (site) {
    case OpSite::kEmbeddingFwd:
      return {"embedding_fwd", "", false};
    case OpSite::kLn1Fwd:
      return {"layernorm_fwd", "ln1", true};
    case OpSite::kQkvFwd:
      return {"matmul_fwd", "qkv", true};
    case OpSite::kAttentionFwd:
      return {"attention_fwd", "", true};
    case OpSite::kAttProjFwd:
      return {"matmul_fwd", "attn_proj", true};
    case OpSite::kResidualAttnFwd:
      return {"residual_fwd", "attn", true};
    case OpSite::kLn2Fwd:
      return {"layernorm_fwd", "ln2", true};
    case OpSite::kFcFwd:
      return {"matmul_fwd", "fc", true};
    case OpSite::kGeluFwd:
      return {"gelu_fwd", "", true};
    case OpSite::kFcProjFwd:
      return {"matmul_fwd", "fc_proj", true};
    case OpSite::kResidualMlpFwd:
      return {"residual_fwd", "mlp", true};
    case OpSite::kLnfFwd:
      return {"layernorm_fwd", "lnf", false};
    case OpSite::kLmHeadFwd:
      return {"matmul_fwd", "lm_head", false};
    case OpSite::kCrossentropyFwd:
      return {"crossentropy_fwd", "", false};
    case OpSite::kCrossentropyBwd:
      return {"crossentropy_bwd", "", false};
    case OpSite::kLmHeadBwd:
      return {"matmul_bwd", "lm_head", false};
    case OpSite::kLnfBwd:
      return {"layernorm_bwd", "lnf", false};
    case OpSite::kResidualMlpBwd:
      return {"residual_bwd", "mlp", true};
    case OpSite::kFcProjBwd:
      return {"matmul_bwd", "fc_proj", true};
    case OpSite::kGeluBwd:
      return {"gelu_bwd", "", true};
    case OpSite::kFcBwd:
      return {"matmul_bwd", "fc", true};
    case OpSite::kLn2Bwd:
      return {"layernorm_bwd", "ln2", true};
    case OpSite::kResidualAttnBwd:
      return {"residual_bwd", "attn", true};
    case OpSite::kAttProjBwd:
      return {"matmul_bwd", "attn_proj", true};
    case OpSite::kAttentionBwd:
      return {"attention_bwd", "", true};
    case OpSite::kQkvBwd:
      return {"matmul_bwd", "qkv", true};
    case OpSite::kLn1Bwd:
      return {"layernorm_bwd", "ln1", true};
    case OpSite::kEmbeddingBwd:
      return {"embedding_bwd", "", false};
    case OpSite::kGradNorm:
      return {"grad_norm", "", false};
    case OpSite::kAdamw:
      return {"adamw", "", false};
  }
  return {"", "", false};
}

std::vector<ParamTensor> paramGradientsFinished(OpSite site) {
  using P = ParamTensor;
  switch (site) {
    case OpSite::kLnfBwd:
      return {P::kLnfW, P::kLnfB};
    case OpSite::kFcProjBwd:
      return {P::kFcProjW, P::kFcProjB};
    case OpSite::kFcBwd:
      return {P::kFcW, P::kFcB};
    case OpSite::kLn2Bwd:
      return {P::kLn2W, P::kLn2B};
    case OpSite::kAttProjBwd:
      return {P::kAttProjW, P::kAttProjB};
    case OpSite::kQkvBwd:
      return {P::kQkvW, P::kQkvB};
    case OpSite::kLn1Bwd:
      return {P::kLn1W, P::kLn1B};
    case OpSite::kEmbeddingBwd:
      return {P::kWte, P::kWpe};
    default:
      return {};
  }
}

std::vector<std::pair<OpSite, int>> stepOrder(const ModelConfig& c) {
  using S = OpSite;
  std::vector<std::pair<OpSite, int>> order;
  order.emplace_back(S::kEmbeddingFwd, -1);
  for (int l = 0; l < c.layers; ++l) {
    for (OpSite s : {S::kLn1Fwd, S::kQkvFwd, S::kAttentionFwd, S::kAttProjFwd, S::kResidualAttnFwd,
                     S::kLn2Fwd, S::kFcFwd, S::kGeluFwd, S::kFcProjFwd, S::kResidualMlpFwd}) {
      order.emplace_back(s, l);
    }
  }
  for (OpSite s : {S::kLnfFwd, S::kLmHeadFwd, S::kCrossentropyFwd, S::kCrossentropyBwd,
                   S::kLmHeadBwd, S::kLnfBwd}) {
    order.emplace_back(s, -1);
  }
  for (int l = c.layers - 1; l >= 0; --l) {
    for (OpSite s :
         {S::kResidualMlpBwd, S::kFcProjBwd, S::kGeluBwd, S::kFcBwd, S::kLn2Bwd,
          S::kResidualAttnBwd, S::kAttProjBwd, S::kAttentionBwd, S::kQkvBwd, S::kLn1Bwd}) {
      order.emplace_back(s, l);
    }
  }
  for (OpSite s : {S::kEmbeddingBwd, S::kGradNorm, S::kAdamw}) order.emplace_back(s, -1);
  return order;
}

OpCost opSiteCost(OpSite site, const ModelConfig& c, StepShape s, size_t param_floats,
                  AttentionForm attention) {
  const int64_t B = s.batch, T = s.seq, C = c.d_model, NH = c.heads;
  const int64_t rows = B * T;
  const int64_t V = c.vocab, Vp = c.padded_vocab;
  const auto n = static_cast<int64_t>(param_floats);
  switch (site) {
    case OpSite::kEmbeddingFwd:
      return embeddingForwardCost(B, T, C);
    case OpSite::kLn1Fwd:
    case OpSite::kLn2Fwd:
    case OpSite::kLnfFwd:
      return layernormForwardCost(rows, C);
    case OpSite::kQkvFwd:
      return matmulForwardCost(rows, C, 3 * C, true);
    case OpSite::kAttentionFwd:
      return attentionForwardCost(B, T, C, NH, attention);
    case OpSite::kAttProjFwd:
      return matmulForwardCost(rows, C, C, true);
    case OpSite::kResidualAttnFwd:
    case OpSite::kResidualMlpFwd:
      return residualForwardCost(rows * C);
    case OpSite::kFcFwd:
      return matmulForwardCost(rows, C, 4 * C, true);
    case OpSite::kGeluFwd:
      return geluForwardCost(rows * 4 * C);
    case OpSite::kFcProjFwd:
      return matmulForwardCost(rows, 4 * C, C, true);
    case OpSite::kLmHeadFwd:
      return matmulForwardCost(rows, C, Vp, false);
    case OpSite::kCrossentropyFwd:
      return crossentropyForwardCost(rows, V, Vp);
    case OpSite::kCrossentropyBwd:
      return crossentropyBackwardCost(rows, V, Vp);
    case OpSite::kLmHeadBwd:
      return matmulBackwardCost(rows, C, Vp, false);
    case OpSite::kLnfBwd:
      return layernormBackwardCost(rows, C, false);
    case OpSite::kLn1Bwd:
    case OpSite::kLn2Bwd:
      return layernormBackwardCost(rows, C, true);
    case OpSite::kResidualMlpBwd:
    case OpSite::kResidualAttnBwd:
      return residualBackwardCost(rows * C);
    case OpSite::kFcProjBwd:
      return matmulBackwardCost(rows, 4 * C, C, true);
    case OpSite::kGeluBwd:
      return geluBackwardCost(rows * 4 * C);
    case OpSite::kFcBwd:
      return matmulBackwardCost(rows, C, 4 * C, true);
    case OpSite::kAttProjBwd:
      return matmulBackwardCost(rows, C, C, true);
    case OpSite::kAttentionBwd:
      return attentionBackwardCost(B, T, C, NH, attention);
    case OpSite::kQkvBwd:
      return matmulBackwardCost(rows, C, 3 * C, true);
    case OpSite::kEmbeddingBwd:
      return embeddingBackwardCost(B, T, C);
    case OpSite::kGradNorm:
      return gradNormCost(n);
    case OpSite::kAdamw:
      return adamwCost(n);
  }
  return {};
}

}  // namespace damscope::gpt2
