// AdamW on the CPU; math and costs in ops/adamw.h.
#include <cmath>

#include "reference_workloads/gpt2/cpu/kernels.h"

namespace damscope::gpt2::cpu {

void adamw(float* params, const float* grads, float* m, float* v, size_t n, const AdamWArgs& a) {
  // Bias corrections 1 / (1 - beta^t), in double: beta2^t approaches 1
  // slowly and float would round 1 - beta2^t coarsely for small t.
  const float m_correction = static_cast<float>(1.0 / (1.0 - std::pow(double(a.beta1), a.step)));
  const float v_correction = static_cast<float>(1.0 / (1.0 - std::pow(double(a.beta2), a.step)));
  const float b1 = a.beta1, b2 = a.beta2, one_b1 = 1.0f - a.beta1, one_b2 = 1.0f - a.beta2;
  const float lr = a.lr, eps = a.eps, wd = a.weight_decay, scale = a.grad_scale;
#pragma omp parallel for simd schedule(static)
  for (size_t i = 0; i < n; ++i) {
    const float g = grads[i] * scale;
    const float mi = b1 * m[i] + one_b1 * g;
    const float vi = b2 * v[i] + one_b2 * (g * g);
    m[i] = mi;
    v[i] = vi;
    const float m_hat = mi * m_correction;
    const float v_hat = vi * v_correction;
    params[i] -= lr * (m_hat / (std::sqrt(v_hat) + eps) + wd * params[i]);
  }
}

}  // namespace damscope::gpt2::cpu
