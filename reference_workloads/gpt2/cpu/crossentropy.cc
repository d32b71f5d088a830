// Softmax + cross-entropy on the CPU; math and costs in ops/crossentropy.h.
#include <cmath>

#include "reference_workloads/gpt2/cpu/kernels.h"
#include "reference_workloads/gpt2/cpu/parallel.h"
#include "reference_workloads/gpt2/cpu/vector_math.h"

namespace damscope::gpt2::cpu {
namespace {

// One row: p = softmax(logits[0..V)), padding 0; returns the loss
// max + log(sum) - logit[target].
GPT2_SIMD_CLONES float softmaxLossRow(float* p, const float* l, int target, int V, int Vp) {
  float max = l[0];
#pragma omp simd reduction(max : max)
  for (int i = 0; i < V; ++i) max = l[i] > max ? l[i] : max;
  float sum = 0.0f;
#pragma omp simd reduction(+ : sum)
  for (int i = 0; i < V; ++i) {
    p[i] = expApprox(l[i] - max);
    sum += p[i];
  }
  const float inv = 1.0f / sum;
#pragma omp simd
  for (int i = 0; i < V; ++i) p[i] *= inv;
  for (int i = V; i < Vp; ++i) p[i] = 0.0f;
  return max + std::log(sum) - l[target];
}

}  // namespace

void crossentropyForward(float* losses, float* probs, const float* logits, const int32_t* targets,
                         int rows, int V, int Vp) {
#pragma omp parallel for schedule(static)
  for (int r = 0; r < rows; ++r) {
    losses[r] = softmaxLossRow(probs + size_t(r) * Vp, logits + size_t(r) * Vp, targets[r], V, Vp);
  }
}

// dlogits = (p - onehot(target)) dloss, padding 0.
void crossentropyBackward(float* dlogits, const float* probs, const int32_t* targets, float dloss,
                          int rows, int V, int Vp) {
#pragma omp parallel for schedule(static)
  for (int r = 0; r < rows; ++r) {
    const float* p = probs + size_t(r) * Vp;
    float* d = dlogits + size_t(r) * Vp;
#pragma omp simd
    for (int i = 0; i < V; ++i) d[i] = p[i] * dloss;
    d[targets[r]] -= dloss;
    for (int i = V; i < Vp; ++i) d[i] = 0.0f;
  }
}

}  // namespace damscope::gpt2::cpu
