// Token + position embedding on the CPU; math and costs in ops/embedding.h.
#include "reference_workloads/gpt2/cpu/kernels.h"
#include "reference_workloads/gpt2/cpu/parallel.h"

namespace damscope::gpt2::cpu {

// out[b,t,:] = wte[tok[b,t],:] + wpe[t,:], positions split over threads.
void embeddingForward(float* out, const int32_t* tokens, const float* wte, const float* wpe, int B,
                      int T, int C) {
  const long rows = long{B} * T;
#pragma omp parallel for schedule(static)
  for (long bt = 0; bt < rows; ++bt) {
    const float* e = wte + size_t(tokens[bt]) * C;
    const float* p = wpe + size_t(bt % T) * C;
    float* o = out + size_t(bt) * C;
#pragma omp simd
    for (int c = 0; c < C; ++c) o[c] = e[c] + p[c];
  }
}

// dwte[tok[b,t],:] += dout[b,t,:];  dwpe[t,:] = sum_b dout[b,t,:].
// A token may occur at many positions, so the scatter-add splits the
// channels over threads rather than the positions: no two threads write the
// same element, and each element sums its positions in order.
void embeddingBackward(float* dwte, float* dwpe, const float* dout, const int32_t* tokens, int B,
                       int T, int C) {
  const long rows = long{B} * T;
#pragma omp parallel
  {
    const Slice channels = threadSlice(C);
    for (long bt = 0; bt < rows; ++bt) {
      float* d = dwte + size_t(tokens[bt]) * C;
      const float* g = dout + size_t(bt) * C;
#pragma omp simd
      for (size_t c = channels.begin; c < channels.end; ++c) d[c] += g[c];
    }
  }
#pragma omp parallel for schedule(static)
  for (int t = 0; t < T; ++t) {
    float* d = dwpe + size_t(t) * C;
#pragma omp simd
    for (int c = 0; c < C; ++c) d[c] = 0.0f;
    for (int b = 0; b < B; ++b) {
      const float* g = dout + (size_t(b) * T + t) * C;
#pragma omp simd
      for (int c = 0; c < C; ++c) d[c] += g[c];
    }
  }
}

}  // namespace damscope::gpt2::cpu
