// Activation sizes: see activations.h.
#include "reference_workloads/gpt2/model/activations.h"

namespace damscope::gpt2 {

ActivationLayout::ActivationLayout(const ModelConfig& c, StepShape s) : layers(c.layers) {
  const size_t B = s.batch, T = s.seq, C = c.d_model, NH = c.heads, Vp = c.padded_vocab;
  const size_t BT = B * T;
  ln = BT * C;
  ln_stats = BT;
  qkv = BT * 3 * C;
  att = B * NH * T * T;
  atty = BT * C;
  residual = BT * C;
  fch = BT * 4 * C;
  per_layer = 2 * ln + 4 * ln_stats + qkv + att + atty + 2 * residual + 2 * fch;
  encoded = BT * C;
  lnf = BT * C;
  probs = BT * Vp;
  losses = BT;
  preatt = B * NH * T * T;
  proj = BT * C;
  logits = BT * Vp;
  dlogits = BT * Vp;
  dbtc = BT * C;
  dqkv = BT * 3 * C;
  dfch = BT * 4 * C;
  datt = B * NH * T * T;
}

size_t ActivationLayout::forwardFloats() const {
  return layers * per_layer + encoded + lnf + 2 * ln_stats + probs + losses + preatt + proj +
         logits;
}

size_t ActivationLayout::backwardFloats() const {
  return dlogits + 5 * dbtc + dqkv + 2 * dfch + 2 * datt;
}

}  // namespace damscope::gpt2
