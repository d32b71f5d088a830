// Layer normalisation on the CPU; math and costs in ops/layernorm.h.
#include <cmath>
#include <vector>

#include "reference_workloads/gpt2/cpu/kernels.h"
#include "reference_workloads/gpt2/cpu/parallel.h"

namespace damscope::gpt2::cpu {
namespace {
constexpr float kEps = 1e-5f;  // PyTorch's LayerNorm default, as GPT-2 uses
}

// Per row: mean, rstd = 1/sqrt(var + eps), out = (x - mean) rstd w + b.
// Rows split over threads.
void layernormForward(float* out, float* mean, float* rstd, const float* inp, const float* weight,
                      const float* bias, int rows, int C) {
#pragma omp parallel for schedule(static)
  for (int r = 0; r < rows; ++r) {
    const float* x = inp + size_t(r) * C;
    float sum = 0.0f;
#pragma omp simd reduction(+ : sum)
    for (int c = 0; c < C; ++c) sum += x[c];
    const float m = sum * (1.0f / C);
    float var = 0.0f;
#pragma omp simd reduction(+ : var)
    for (int c = 0; c < C; ++c) {
      const float d = x[c] - m;
      var += d * d;
    }
    const float s = 1.0f / std::sqrt(var * (1.0f / C) + kEps);
    float* o = out + size_t(r) * C;
#pragma omp simd
    for (int c = 0; c < C; ++c) o[c] = (x[c] - m) * s * weight[c] + bias[c];
    mean[r] = m;
    rstd[r] = s;
  }
}

// dx (+)= rstd (dn - mean(dn) - n mean(dn n)) with n the normalised input and
// dn = dout w; dw = sum_rows dout n, db = sum_rows dout. The parameter
// gradients are reductions over rows: each thread sums its rows into its own
// partials, then the partials are added in thread order.
void layernormBackward(float* dinp, float* dweight, float* dbias, const float* dout,
                       const float* inp, const float* weight, const float* mean, const float* rstd,
                       int rows, int C, bool accumulate) {
  const int max_threads = omp_get_max_threads();
  std::vector<float> partials(size_t(max_threads) * 2 * C, 0.0f);
  int used_threads = 1;
#pragma omp parallel
  {
#pragma omp single
    used_threads = omp_get_num_threads();
    float* pdw = partials.data() + size_t(omp_get_thread_num()) * 2 * C;
    float* pdb = pdw + C;
#pragma omp for schedule(static)
    for (int r = 0; r < rows; ++r) {
      const float* x = inp + size_t(r) * C;
      const float* g = dout + size_t(r) * C;
      const float m = mean[r], s = rstd[r];
      float dn_sum = 0.0f, dn_n_sum = 0.0f;
#pragma omp simd reduction(+ : dn_sum, dn_n_sum)
      for (int c = 0; c < C; ++c) {
        const float n = (x[c] - m) * s;
        const float dn = weight[c] * g[c];
        dn_sum += dn;
        dn_n_sum += dn * n;
      }
      const float dn_mean = dn_sum * (1.0f / C);
      const float dn_n_mean = dn_n_sum * (1.0f / C);
      float* dx = dinp + size_t(r) * C;
#pragma omp simd
      for (int c = 0; c < C; ++c) {
        const float n = (x[c] - m) * s;
        const float dn = weight[c] * g[c];
        const float d = (dn - dn_mean - n * dn_n_mean) * s;
        dx[c] = accumulate ? dx[c] + d : d;
        pdw[c] += g[c] * n;
        pdb[c] += g[c];
      }
    }
  }
  for (int c = 0; c < C; ++c) {
    float w = 0.0f, b = 0.0f;
    for (int t = 0; t < used_threads; ++t) {
      w += partials[size_t(t) * 2 * C + c];
      b += partials[size_t(t) * 2 * C + C + c];
    }
    dweight[c] = w;
    dbias[c] = b;
  }
}

}  // namespace damscope::gpt2::cpu
