// GELU (tanh approximation) on the CPU; math and costs in ops/gelu.h.
#include "reference_workloads/gpt2/cpu/kernels.h"
#include "reference_workloads/gpt2/cpu/parallel.h"
#include "reference_workloads/gpt2/cpu/vector_math.h"

namespace damscope::gpt2::cpu {
namespace {

constexpr float kS = 0.7978845608028654f;  // sqrt(2 / pi)
constexpr float kC = 0.044715f;            // Hendrycks & Gimpel 2016

// out = 0.5 x (1 + tanh(s (x + c x^3)))
GPT2_SIMD_CLONES void geluForwardSpan(float* out, const float* inp, size_t n) {
#pragma omp simd
  for (size_t i = 0; i < n; ++i) {
    const float x = inp[i];
    const float cube = kC * x * x * x;
    out[i] = 0.5f * x * (1.0f + tanhApprox(kS * (x + cube)));
  }
}

// dx = dout (0.5 (1 + tanh u) + 0.5 x sech^2(u) s (1 + 3 c x^2)), u = s (x + c x^3)
GPT2_SIMD_CLONES void geluBackwardSpan(float* dinp, const float* inp, const float* dout, size_t n) {
#pragma omp simd
  for (size_t i = 0; i < n; ++i) {
    const float x = inp[i];
    const float x2 = x * x;
    const float u = kS * (x + kC * x2 * x);
    const float t = tanhApprox(u);
    const float sech2 = 1.0f - t * t;
    const float local = 0.5f * (1.0f + t) + 0.5f * x * sech2 * kS * (3.0f * kC * x2 + 1.0f);
    dinp[i] = local * dout[i];
  }
}

}  // namespace

void geluForward(float* out, const float* inp, size_t n) {
#pragma omp parallel
  {
    const Slice mine = threadSlice(n);
    geluForwardSpan(out + mine.begin, inp + mine.begin, mine.end - mine.begin);
  }
}

void geluBackward(float* dinp, const float* inp, const float* dout, size_t n) {
#pragma omp parallel
  {
    const Slice mine = threadSlice(n);
    geluBackwardSpan(dinp + mine.begin, inp + mine.begin, dout + mine.begin, mine.end - mine.begin);
  }
}

}  // namespace damscope::gpt2::cpu
