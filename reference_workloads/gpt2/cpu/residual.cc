// Residual add on the CPU; math and costs in ops/residual.h.
#include "reference_workloads/gpt2/cpu/kernels.h"

namespace damscope::gpt2::cpu {

// out = a + b
void residualForward(float* out, const float* a, const float* b, size_t n) {
#pragma omp parallel for simd schedule(static)
  for (size_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
}

// da = dout, db = dout
void residualBackward(float* da, float* db, const float* dout, size_t n) {
#pragma omp parallel for simd schedule(static)
  for (size_t i = 0; i < n; ++i) {
    da[i] = dout[i];
    db[i] = dout[i];
  }
}

}  // namespace damscope::gpt2::cpu
