// Softmax + cross-entropy on the CPU; math and costs in ops/crossentropy.h.
#include <cmath>

#include "reference_workloads/gpt2/cpu/kernels.h"

namespace damscope::gpt2::cpu {

// p = softmax(logits[0..V)), padding 0; loss = max + log(sum) - logit[target].
void crossentropyForward(float* losses, float* probs, const float* logits, const int32_t* targets,
                         int rows, int V, int Vp) {
#pragma omp parallel for schedule(static)
  for (int r = 0; r < rows; ++r) {
    const float* l = logits + size_t(r) * Vp;
    float* p = probs + size_t(r) * Vp;
    float max = l[0];
    for (int i = 1; i < V; ++i) max = std::fmax(max, l[i]);
    float sum = 0.0f;
    for (int i = 0; i < V; ++i) {
      p[i] = std::exp(l[i] - max);
      sum += p[i];
    }
    const float inv = 1.0f / sum;
#pragma omp simd
    for (int i = 0; i < V; ++i) p[i] *= inv;
    for (int i = V; i < Vp; ++i) p[i] = 0.0f;
    losses[r] = max + std::log(sum) - l[targets[r]];
  }
}

// dlogits = (p - onehot(target)) dloss, padding 0.
void crossentropyBackward(float* dlogits, const float* probs, const int32_t* targets, float dloss,
                          int rows, int V, int Vp) {
#pragma omp parallel for schedule(static)
  for (int r = 0; r < rows; ++r) {
    const float* p = probs + size_t(r) * Vp;
    float* d = dlogits + size_t(r) * Vp;
    const int target = targets[r];
#pragma omp simd
    for (int i = 0; i < V; ++i) d[i] = (p[i] - (i == target ? 1.0f : 0.0f)) * dloss;
    for (int i = V; i < Vp; ++i) d[i] = 0.0f;
  }
}

}  // namespace damscope::gpt2::cpu
