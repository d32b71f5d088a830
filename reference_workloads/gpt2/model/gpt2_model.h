// GPT-2 (Radford et al., "Language Models are Unsupervised Multitask
// Learners", 2019): token + position embeddings, L pre-LayerNorm blocks
// (causal multi-head self-attention, GELU MLP of width 4d, residual adds), a
// final LayerNorm, the LM head tied to the token embedding, and the mean
// cross-entropy of the next token; trained with AdamW and global-norm
// clipping. llm.c's train_gpt2.c (Karpathy) is the reference for the layout
// and the order of the ops.
//
// This class is the order of a training step and nothing else: it owns the
// parameter, gradient, optimizer-moment and activation buffers on a backend
// and calls the backend's ops in order, one OpTracer scope per call. It is
// backend-neutral: the same code drives the CPU backend (cpu/) and, later, a
// CUDA backend.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "reference_workloads/gpt2/model/activations.h"
#include "reference_workloads/gpt2/model/backend.h"
#include "reference_workloads/gpt2/model/config.h"
#include "reference_workloads/gpt2/model/device_buffer.h"
#include "reference_workloads/gpt2/model/gradient_listener.h"
#include "reference_workloads/gpt2/model/op_tracer.h"
#include "reference_workloads/gpt2/model/parameters.h"
#include "base/result.h"

namespace damscope::gpt2 {

// GPT-3's optimizer settings (Brown et al. 2020, appendix B), which llm.c and
// nanoGPT use for GPT-2 too.
struct OptimizerSettings {
  float beta1 = 0.9f;
  float beta2 = 0.95f;
  float eps = 1e-8f;
  float weight_decay = 0.1f;  // on 2-D weights only (ParameterLayout::decays)
  float clip_norm = 1.0f;     // global gradient norm
};

// The four buffers of parameter layout (parameters.h).
enum class StateBuffer { kParams, kGrads, kAdamM, kAdamV };

class Gpt2Model {
 public:
  // Allocates everything on the backend and initialises the parameters as
  // GPT-2 does (initParameters). Fails when memory cannot be had.
  static Result<std::unique_ptr<Gpt2Model>> create(const ModelConfig& config, StepShape shape,
                                                   Backend& backend, uint64_t seed);

  const ModelConfig& config() const { return config_; }
  StepShape shape() const { return shape_; }
  const ParameterLayout& layout() const { return layout_; }
  // The tracer every op call reports to; null (the default) for none. Not owned.
  void setTracer(OpTracer* tracer) { tracer_ = tracer; }
  // Told when parameter gradients become final in backward(); null (the
  // default) for none. Not owned.
  void setGradientListener(GradientListener* listener) { listener_ = listener; }

  // The forward pass over B x T host token ids (every id < V); targets[i] is
  // the token that follows inputs[i]. Returns the mean loss:
  // setTokens + forwardOps + readLoss.
  float forward(const int32_t* inputs, const int32_t* targets);
  // The three parts of forward(), for a CUDA graph that captures the ops of
  // forward and backward between a token upload and a loss read.
  void setTokens(const int32_t* inputs, const int32_t* targets);
  void forwardOps();
  float readLoss();
  // The backward pass of the last forward: writes every parameter gradient.
  void backward();
  // The global L2 norm of the gradients (before clipping).
  float gradNorm();
  // Clips the gradients to settings.clip_norm (by the norm gradNorm gave)
  // and takes one AdamW step at learning rate lr.
  void optimizerStep(float lr, float grad_norm, const OptimizerSettings& settings);
  // AdamW steps taken (t of the bias correction); restored by checkpoints.
  int64_t optimizerSteps() const { return optimizer_steps_; }
  void setOptimizerSteps(int64_t steps) { optimizer_steps_ = steps; }

  // The gradient buffer (backend memory, layout()), which data parallel
  // averages across ranks between backward() and the optimizer.
  float* gradientBuffer() const { return grads_.get(); }
  // Copies one state buffer (layout().total() floats) to or from the host.
  void download(StateBuffer which, float* host) const;
  void upload(StateBuffer which, const float* host);

 private:
  struct LayerActivations {
    float* ln1;
    float* ln1_mean;
    float* ln1_rstd;
    float* qkv;
    float* att;
    float* atty;
    float* residual2;
    float* ln2;
    float* ln2_mean;
    float* ln2_rstd;
    float* fch;
    float* fch_gelu;
    float* residual3;
  };

  Gpt2Model(const ModelConfig& config, StepShape shape, Backend& backend);
  Status allocate();
  // Tells the listener that the backward op at (site, layer) was issued.
  void gradientsIssued(OpSite site, int layer = -1) {
    if (listener_) listener_->gradientsReady(site, layer);
  }
  float* param(ParamTensor t, int layer = 0) const;
  float* grad(ParamTensor t, int layer = 0) const;
  const DeviceBuffer<float>& state(StateBuffer which) const;

  ModelConfig config_;
  StepShape shape_;
  Backend& backend_;
  ParameterLayout layout_;
  ActivationLayout acts_layout_;
  OpTracer* tracer_ = nullptr;
  GradientListener* listener_ = nullptr;
  int64_t optimizer_steps_ = 0;

  DeviceBuffer<float> params_, grads_, adam_m_, adam_v_;
  DeviceBuffer<float> acts_;       // kept + forward scratch (ActivationLayout)
  DeviceBuffer<float> grad_acts_;  // backward scratch
  DeviceBuffer<int32_t> tokens_;   // inputs then targets, B*T each

  // Pointers into acts_ and grad_acts_.
  std::vector<LayerActivations> layers_;
  float* encoded_ = nullptr;
  float* lnf_ = nullptr;
  float* lnf_mean_ = nullptr;
  float* lnf_rstd_ = nullptr;
  float* probs_ = nullptr;
  float* losses_ = nullptr;
  float* preatt_ = nullptr;
  float* proj_ = nullptr;
  float* logits_ = nullptr;
  float* dlogits_ = nullptr;
  float* dln_ = nullptr;
  float* dres_a_ = nullptr;
  float* dres_b_ = nullptr;
  float* dbranch_ = nullptr;
  float* datty_ = nullptr;
  float* dqkv_ = nullptr;
  float* dfch_gelu_ = nullptr;
  float* dfch_ = nullptr;
  float* dpreatt_ = nullptr;
  float* datt_ = nullptr;
  std::vector<float> host_losses_;
};

}  // namespace damscope::gpt2
