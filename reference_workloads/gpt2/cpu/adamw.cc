// AdamW on the CPU; math and costs in ops/adamw.h.
#include <cmath>

#include "reference_workloads/gpt2/cpu/kernels.h"
#include "reference_workloads/gpt2/cpu/parallel.h"

namespace damscope::gpt2::cpu {
namespace {

struct Coefficients {
  float b1, b2, one_b1, one_b2, m_correction, v_correction, lr, eps, scale;
};

void adamwSpan(float* params, const float* grads, float* m, float* v, size_t n, float wd,
               const Coefficients& k) {
#pragma omp simd
  for (size_t i = 0; i < n; ++i) {
    const float g = grads[i] * k.scale;
    const float mi = k.b1 * m[i] + k.one_b1 * g;
    const float vi = k.b2 * v[i] + k.one_b2 * (g * g);
    m[i] = mi;
    v[i] = vi;
    const float m_hat = mi * k.m_correction;
    const float v_hat = vi * k.v_correction;
    params[i] -= k.lr * (m_hat / (std::sqrt(v_hat) + k.eps) + wd * params[i]);
  }
}

}  // namespace

// One parallel region for all segments: each thread takes its slice of every
// segment, with no barrier between segments.
void adamw(float* params, const float* grads, float* m, float* v, const AdamWSegment* segments,
           int count, const AdamWArgs& a) {
  // Bias corrections 1 / (1 - beta^t), in double: beta2^t approaches 1
  // slowly and float would round 1 - beta2^t coarsely for small t.
  Coefficients k;
  k.m_correction = static_cast<float>(1.0 / (1.0 - std::pow(double(a.beta1), a.step)));
  k.v_correction = static_cast<float>(1.0 / (1.0 - std::pow(double(a.beta2), a.step)));
  k.b1 = a.beta1;
  k.b2 = a.beta2;
  k.one_b1 = 1.0f - a.beta1;
  k.one_b2 = 1.0f - a.beta2;
  k.lr = a.lr;
  k.eps = a.eps;
  k.scale = a.grad_scale;
#pragma omp parallel
  {
    for (int s = 0; s < count; ++s) {
      const AdamWSegment& seg = segments[s];
      const Slice mine = threadSlice(seg.count);
      const size_t at = seg.offset + mine.begin;
      adamwSpan(params + at, grads + at, m + at, v + at, mine.end - mine.begin, seg.weight_decay,
                k);
    }
  }
}

}  // namespace damscope::gpt2::cpu
