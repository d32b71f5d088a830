// The CPU backend's kernels, one op per file (cpu/<op>.cc), fp32, threaded
// with OpenMP. Signatures and semantics are Backend's (model/backend.h); the
// math and the FLOP/byte counts are in ops/<op>.h.
//
// Determinism: every parallel loop uses a static schedule or writes disjoint
// outputs, and every reduction across threads combines per-thread partials in
// thread order, so a run is bit-identical for the same thread count.
#pragma once

#include <cstddef>
#include <cstdint>

#include "reference_workloads/gpt2/model/backend.h"

namespace damscope::gpt2::cpu {

void embeddingForward(float* out, const int32_t* tokens, const float* wte, const float* wpe, int B,
                      int T, int C);
void embeddingBackward(float* dwte, float* dwpe, const float* dout, const int32_t* tokens, int B,
                       int T, int C);

void layernormForward(float* out, float* mean, float* rstd, const float* inp, const float* weight,
                      const float* bias, int rows, int C);
void layernormBackward(float* dinp, float* dweight, float* dbias, const float* dout,
                       const float* inp, const float* weight, const float* mean, const float* rstd,
                       int rows, int C, bool accumulate);

void matmulForward(float* out, const float* inp, const float* weight, const float* bias, int rows,
                   int C, int OC);
void matmulBackward(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                    const float* weight, int rows, int C, int OC);

void attentionForward(float* out, float* preatt, float* att, const float* qkv, int B, int T, int C,
                      int NH);
void attentionBackward(float* dqkv, float* dpreatt, float* datt, const float* dout,
                       const float* qkv, const float* att, int B, int T, int C, int NH);

void geluForward(float* out, const float* inp, size_t n);
void geluBackward(float* dinp, const float* inp, const float* dout, size_t n);

void residualForward(float* out, const float* a, const float* b, size_t n);
void residualBackward(float* da, float* db, const float* dout, size_t n);

void crossentropyForward(float* losses, float* probs, const float* logits, const int32_t* targets,
                         int rows, int V, int Vp);
void crossentropyBackward(float* dlogits, const float* probs, const int32_t* targets, float dloss,
                          int rows, int V, int Vp);

double gradNormSquared(const float* grads, size_t n);
void adamw(float* params, const float* grads, float* m, float* v, const AdamWSegment* segments,
           int count, const AdamWArgs& args);

}  // namespace damscope::gpt2::cpu
