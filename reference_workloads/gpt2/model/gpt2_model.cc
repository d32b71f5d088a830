// The order of a GPT-2 training step: see gpt2_model.h. The shapes of each
// call follow llm.c's gpt2_forward / gpt2_backward (train_gpt2.c).
#include "reference_workloads/gpt2/model/gpt2_model.h"

#include <cmath>

namespace damscope::gpt2 {

Gpt2Model::Gpt2Model(const ModelConfig& config, StepShape shape, Backend& backend)
    : config_(config),
      shape_(shape),
      backend_(backend),
      layout_(config),
      acts_layout_(config, shape) {}

Result<std::unique_ptr<Gpt2Model>> Gpt2Model::create(const ModelConfig& config, StepShape shape,
                                                     Backend& backend, uint64_t seed) {
  std::unique_ptr<Gpt2Model> model(new Gpt2Model(config, shape, backend));
  DAMSCOPE_RETURN_IF_ERROR(model->allocate());
  std::vector<float> host(model->layout_.total());
  initParameters(host.data(), model->layout_, config, seed);
  model->upload(StateBuffer::kParams, host.data());
  return model;
}

Status Gpt2Model::allocate() {
  const size_t n = layout_.total();
  DAMSCOPE_ASSIGN_OR_RETURN(params_, DeviceBuffer<float>::allocate(backend_, n, "parameters"));
  DAMSCOPE_ASSIGN_OR_RETURN(grads_, DeviceBuffer<float>::allocate(backend_, n, "gradients"));
  DAMSCOPE_ASSIGN_OR_RETURN(adam_m_, DeviceBuffer<float>::allocate(backend_, n, "AdamW m"));
  DAMSCOPE_ASSIGN_OR_RETURN(adam_v_, DeviceBuffer<float>::allocate(backend_, n, "AdamW v"));
  const ActivationLayout& a = acts_layout_;
  DAMSCOPE_ASSIGN_OR_RETURN(
      acts_, DeviceBuffer<float>::allocate(backend_, a.forwardFloats(), "activations"));
  DAMSCOPE_ASSIGN_OR_RETURN(grad_acts_, DeviceBuffer<float>::allocate(backend_, a.backwardFloats(),
                                                                      "activation gradients"));
  const size_t rows = size_t(shape_.batch) * shape_.seq;
  DAMSCOPE_ASSIGN_OR_RETURN(tokens_, DeviceBuffer<int32_t>::allocate(backend_, 2 * rows, "tokens"));

  // Carve the activation buffers, in ActivationLayout's order.
  float* p = acts_.get();
  auto take = [&p](size_t count) {
    float* out = p;
    p += count;
    return out;
  };
  layers_.resize(config_.layers);
  for (LayerActivations& l : layers_) {
    l.ln1 = take(a.ln);
    l.ln1_mean = take(a.ln_stats);
    l.ln1_rstd = take(a.ln_stats);
    l.qkv = take(a.qkv);
    l.att = take(a.att);
    l.atty = take(a.atty);
    l.residual2 = take(a.residual);
    l.ln2 = take(a.ln);
    l.ln2_mean = take(a.ln_stats);
    l.ln2_rstd = take(a.ln_stats);
    l.fch = take(a.fch);
    l.fch_gelu = take(a.fch);
    l.residual3 = take(a.residual);
  }
  encoded_ = take(a.encoded);
  lnf_ = take(a.lnf);
  lnf_mean_ = take(a.ln_stats);
  lnf_rstd_ = take(a.ln_stats);
  probs_ = take(a.probs);
  losses_ = take(a.losses);
  preatt_ = take(a.preatt);
  proj_ = take(a.proj);
  logits_ = take(a.logits);

  p = grad_acts_.get();
  dlogits_ = take(a.dlogits);
  dln_ = take(a.dbtc);
  dres_a_ = take(a.dbtc);
  dres_b_ = take(a.dbtc);
  dbranch_ = take(a.dbtc);
  datty_ = take(a.dbtc);
  dqkv_ = take(a.dqkv);
  dfch_gelu_ = take(a.dfch);
  dfch_ = take(a.dfch);
  dpreatt_ = take(a.datt);
  datt_ = take(a.datt);
  host_losses_.resize(rows);
  return okStatus();
}

float* Gpt2Model::param(ParamTensor t, int layer) const {
  return params_.get() + layout_.offset(t, layer);
}

float* Gpt2Model::grad(ParamTensor t, int layer) const {
  return grads_.get() + layout_.offset(t, layer);
}

float Gpt2Model::forward(const int32_t* inputs, const int32_t* targets) {
  setTokens(inputs, targets);
  forwardOps();
  return readLoss();
}

void Gpt2Model::setTokens(const int32_t* inputs, const int32_t* targets) {
  const size_t rows = size_t(shape_.batch) * shape_.seq;
  backend_.upload(tokens_.get(), inputs, rows * sizeof(int32_t));
  backend_.upload(tokens_.get() + rows, targets, rows * sizeof(int32_t));
}

void Gpt2Model::forwardOps() {
  const int B = shape_.batch, T = shape_.seq, C = config_.d_model, NH = config_.heads;
  const int rows = B * T;
  const size_t btc = size_t(rows) * C;
  const int32_t* in = tokens_.get();
  const int32_t* tgt = tokens_.get() + rows;
  using P = ParamTensor;

  {
    OpScope s(tracer_, OpSite::kEmbeddingFwd);
    backend_.embeddingForward(encoded_, in, param(P::kWte), param(P::kWpe), B, T, C);
  }
  const float* residual = encoded_;  // the stream entering block l
  for (int l = 0; l < config_.layers; ++l) {
    const LayerActivations& a = layers_[l];
    {
      OpScope s(tracer_, OpSite::kLn1Fwd, l);
      backend_.layernormForward(a.ln1, a.ln1_mean, a.ln1_rstd, residual, param(P::kLn1W, l),
                                param(P::kLn1B, l), rows, C);
    }
    {
      OpScope s(tracer_, OpSite::kQkvFwd, l);
      backend_.matmulForward(a.qkv, a.ln1, param(P::kQkvW, l), param(P::kQkvB, l), rows, C, 3 * C);
    }
    {
      OpScope s(tracer_, OpSite::kAttentionFwd, l);
      backend_.attentionForward(a.atty, preatt_, a.att, a.qkv, B, T, C, NH);
    }
    {
      OpScope s(tracer_, OpSite::kAttProjFwd, l);
      backend_.matmulForward(proj_, a.atty, param(P::kAttProjW, l), param(P::kAttProjB, l), rows, C,
                             C);
    }
    {
      OpScope s(tracer_, OpSite::kResidualAttnFwd, l);
      backend_.residualForward(a.residual2, residual, proj_, btc);
    }
    {
      OpScope s(tracer_, OpSite::kLn2Fwd, l);
      backend_.layernormForward(a.ln2, a.ln2_mean, a.ln2_rstd, a.residual2, param(P::kLn2W, l),
                                param(P::kLn2B, l), rows, C);
    }
    {
      OpScope s(tracer_, OpSite::kFcFwd, l);
      backend_.matmulForward(a.fch, a.ln2, param(P::kFcW, l), param(P::kFcB, l), rows, C, 4 * C);
    }
    {
      OpScope s(tracer_, OpSite::kGeluFwd, l);
      backend_.geluForward(a.fch_gelu, a.fch, 4 * btc);
    }
    {
      OpScope s(tracer_, OpSite::kFcProjFwd, l);
      backend_.matmulForward(proj_, a.fch_gelu, param(P::kFcProjW, l), param(P::kFcProjB, l), rows,
                             4 * C, C);
    }
    {
      OpScope s(tracer_, OpSite::kResidualMlpFwd, l);
      backend_.residualForward(a.residual3, a.residual2, proj_, btc);
    }
    residual = a.residual3;
  }
  {
    OpScope s(tracer_, OpSite::kLnfFwd);
    backend_.layernormForward(lnf_, lnf_mean_, lnf_rstd_, residual, param(P::kLnfW),
                              param(P::kLnfB), rows, C);
  }
  {
    OpScope s(tracer_, OpSite::kLmHeadFwd);  // tied: the logits use wte as the weight
    backend_.matmulForward(logits_, lnf_, param(P::kWte), nullptr, rows, C, config_.padded_vocab);
  }
  {
    OpScope s(tracer_, OpSite::kCrossentropyFwd);
    backend_.crossentropyForward(losses_, probs_, logits_, tgt, rows, config_.vocab,
                                 config_.padded_vocab);
  }
}

float Gpt2Model::readLoss() {
  const size_t rows = host_losses_.size();
  backend_.download(host_losses_.data(), losses_, rows * sizeof(float));
  double sum = 0;  // in a fixed order, so the same losses give the same mean
  for (float x : host_losses_) sum += x;
  return static_cast<float>(sum / rows);
}

void Gpt2Model::backward() {
  const int B = shape_.batch, T = shape_.seq, C = config_.d_model, NH = config_.heads;
  const int rows = B * T;
  const size_t btc = size_t(rows) * C;
  const int32_t* in = tokens_.get();
  const int32_t* tgt = tokens_.get() + rows;
  using P = ParamTensor;

  {
    // d(mean loss)/d(loss of one position) = 1 / (B T)
    OpScope s(tracer_, OpSite::kCrossentropyBwd);
    backend_.crossentropyBackward(dlogits_, probs_, tgt, 1.0f / rows, rows, config_.vocab,
                                  config_.padded_vocab);
  }
  {
    // Writes dwte (the LM head's share); the embedding adds its share last.
    OpScope s(tracer_, OpSite::kLmHeadBwd);
    backend_.matmulBackward(dln_, grad(P::kWte), nullptr, dlogits_, lnf_, param(P::kWte), rows, C,
                            config_.padded_vocab);
  }
  const float* last = config_.layers > 0 ? layers_.back().residual3 : encoded_;
  {
    // dres_a: the gradient of the stream leaving the last block, which only
    // the final layernorm reads, so it is written, not added to.
    OpScope s(tracer_, OpSite::kLnfBwd);
    backend_.layernormBackward(dres_a_, grad(P::kLnfW), grad(P::kLnfB), dln_, last, param(P::kLnfW),
                               lnf_mean_, lnf_rstd_, rows, C, false);
  }
  gradientsIssued(OpSite::kLnfBwd);
  // Each block takes the stream's gradient in dres_a and leaves the gradient
  // of the stream entering it in dres_a (via dres_b for the middle).
  for (int l = config_.layers - 1; l >= 0; --l) {
    const LayerActivations& a = layers_[l];
    const float* residual_in = l == 0 ? encoded_ : layers_[l - 1].residual3;
    {
      OpScope s(tracer_, OpSite::kResidualMlpBwd, l);  // residual3 = residual2 + fcproj
      backend_.residualBackward(dres_b_, dbranch_, dres_a_, btc);
    }
    {
      OpScope s(tracer_, OpSite::kFcProjBwd, l);
      backend_.matmulBackward(dfch_gelu_, grad(P::kFcProjW, l), grad(P::kFcProjB, l), dbranch_,
                              a.fch_gelu, param(P::kFcProjW, l), rows, 4 * C, C);
    }
    gradientsIssued(OpSite::kFcProjBwd, l);
    {
      OpScope s(tracer_, OpSite::kGeluBwd, l);
      backend_.geluBackward(dfch_, a.fch, dfch_gelu_, 4 * btc);
    }
    {
      OpScope s(tracer_, OpSite::kFcBwd, l);
      backend_.matmulBackward(dln_, grad(P::kFcW, l), grad(P::kFcB, l), dfch_, a.ln2,
                              param(P::kFcW, l), rows, C, 4 * C);
    }
    gradientsIssued(OpSite::kFcBwd, l);
    {
      OpScope s(tracer_, OpSite::kLn2Bwd, l);  // adds to residual2's gradient
      backend_.layernormBackward(dres_b_, grad(P::kLn2W, l), grad(P::kLn2B, l), dln_, a.residual2,
                                 param(P::kLn2W, l), a.ln2_mean, a.ln2_rstd, rows, C, true);
    }
    gradientsIssued(OpSite::kLn2Bwd, l);
    {
      OpScope s(tracer_, OpSite::kResidualAttnBwd, l);  // residual2 = residual_in + attproj
      backend_.residualBackward(dres_a_, dbranch_, dres_b_, btc);
    }
    {
      OpScope s(tracer_, OpSite::kAttProjBwd, l);
      backend_.matmulBackward(datty_, grad(P::kAttProjW, l), grad(P::kAttProjB, l), dbranch_,
                              a.atty, param(P::kAttProjW, l), rows, C, C);
    }
    gradientsIssued(OpSite::kAttProjBwd, l);
    {
      OpScope s(tracer_, OpSite::kAttentionBwd, l);
      backend_.attentionBackward(dqkv_, dpreatt_, datt_, datty_, a.qkv, a.att, B, T, C, NH);
    }
    {
      OpScope s(tracer_, OpSite::kQkvBwd, l);
      backend_.matmulBackward(dln_, grad(P::kQkvW, l), grad(P::kQkvB, l), dqkv_, a.ln1,
                              param(P::kQkvW, l), rows, C, 3 * C);
    }
    gradientsIssued(OpSite::kQkvBwd, l);
    {
      OpScope s(tracer_, OpSite::kLn1Bwd, l);  // adds to residual_in's gradient
      backend_.layernormBackward(dres_a_, grad(P::kLn1W, l), grad(P::kLn1B, l), dln_, residual_in,
                                 param(P::kLn1W, l), a.ln1_mean, a.ln1_rstd, rows, C, true);
    }
    gradientsIssued(OpSite::kLn1Bwd, l);
  }
  {
    OpScope s(tracer_, OpSite::kEmbeddingBwd);
    backend_.embeddingBackward(grad(P::kWte), grad(P::kWpe), dres_a_, in, B, T, C);
  }
  gradientsIssued(OpSite::kEmbeddingBwd);
}

float Gpt2Model::gradNorm() {
  OpScope s(tracer_, OpSite::kGradNorm);
  return static_cast<float>(std::sqrt(backend_.gradNormSquared(grads_.get(), layout_.total())));
}

void Gpt2Model::optimizerStep(float lr, float grad_norm, const OptimizerSettings& settings) {
  ++optimizer_steps_;
  AdamWArgs args;
  args.lr = lr;
  args.beta1 = settings.beta1;
  args.beta2 = settings.beta2;
  args.eps = settings.eps;
  args.step = optimizer_steps_;
  // Clip by the global norm (llm.c, train_gpt2.cu: grad_scale = clip / norm
  // when the norm exceeds it). A non-finite norm leaves the scale at 1 and
  // the non-finite gradients show in the loss.
  args.grad_scale = std::isfinite(grad_norm) && grad_norm > settings.clip_norm
                        ? settings.clip_norm / grad_norm
                        : 1.0f;
  OpScope s(tracer_, OpSite::kAdamw);
  std::vector<AdamWSegment> segments(kNumParamTensors);
  for (int i = 0; i < kNumParamTensors; ++i) {
    const auto t = static_cast<ParamTensor>(i);
    segments[i] = {layout_.offset(t), layout_.size(t),
                   ParameterLayout::decays(t) ? settings.weight_decay : 0.0f};
  }
  backend_.adamw(params_.get(), grads_.get(), adam_m_.get(), adam_v_.get(), segments.data(),
                 kNumParamTensors, args);
}

const DeviceBuffer<float>& Gpt2Model::state(StateBuffer which) const {
  switch (which) {
    case StateBuffer::kParams:
      return params_;
    case StateBuffer::kGrads:
      return grads_;
    case StateBuffer::kAdamM:
      return adam_m_;
    case StateBuffer::kAdamV:
      return adam_v_;
  }
  return params_;
}

void Gpt2Model::download(StateBuffer which, float* host) const {
  backend_.download(host, state(which).get(), layout_.total() * sizeof(float));
}

void Gpt2Model::upload(StateBuffer which, const float* host) {
  backend_.upload(state(which).get(), host, layout_.total() * sizeof(float));
}

}  // namespace damscope::gpt2
