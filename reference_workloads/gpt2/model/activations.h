// The activations of one training step, B sequences of T tokens: what the
// forward pass keeps for the backward pass, the forward scratch it does not
// keep, and the gradient scratch of the backward pass. All sizes in floats.
//
// Kept per layer (the backward pass reads them): as llm.c's ActivationTensors
// (train_gpt2.c) minus what backward never reads. The pre-softmax scores, the
// two projection outputs and the logits are forward scratch shared by all
// layers: the attention backward needs only the probabilities, and a residual
// add's backward needs neither input. Activation gradients live one layer at
// a time (the backward pass walks the layers in turn), as in llm.c's CUDA
// trainer, instead of llm.c CPU's full second copy of every activation.
#pragma once

#include <cstddef>

#include "reference_workloads/gpt2/model/config.h"

namespace damscope::gpt2 {

struct StepShape {
  int batch = 0;  // B
  int seq = 0;    // T <= config.max_seq
};

// Counts of each tensor; *_per_layer are multiplied by L in the buffer.
struct ActivationLayout {
  ActivationLayout(const ModelConfig& config, StepShape shape);

  // Kept, per layer.
  size_t ln = 0;         // (B,T,C) ln1, ln2 outputs (each)
  size_t ln_stats = 0;   // (B,T) mean, rstd (each, per layernorm)
  size_t qkv = 0;        // (B,T,3C)
  size_t att = 0;        // (B,NH,T,T) softmax probabilities
  size_t atty = 0;       // (B,T,C) attention output before the projection
  size_t residual = 0;   // (B,T,C) residual2, residual3 (each)
  size_t fch = 0;        // (B,T,4C) MLP hidden before and after GELU (each)
  size_t per_layer = 0;  // sum of the above for one layer
  // Kept once.
  size_t encoded = 0;  // (B,T,C)
  size_t lnf = 0;      // (B,T,C)
  size_t probs = 0;    // (B,T,Vp)
  size_t losses = 0;   // (B,T)
  // Forward scratch.
  size_t preatt = 0;  // (B,NH,T,T)
  size_t proj = 0;    // (B,T,C) attention projection / MLP projection output
  size_t logits = 0;  // (B,T,Vp)
  // Backward scratch.
  size_t dlogits = 0;  // (B,T,Vp)
  size_t dbtc = 0;     // (B,T,C): dln, dres_a, dres_b, dbranch, datty (each)
  size_t dqkv = 0;     // (B,T,3C)
  size_t dfch = 0;     // (B,T,4C): dfch_gelu, dfch (each)
  size_t datt = 0;     // (B,NH,T,T): dpreatt, datt (each)

  size_t forwardFloats() const;   // kept + forward scratch
  size_t backwardFloats() const;  // backward scratch
  int layers = 0;
};

}  // namespace damscope::gpt2
