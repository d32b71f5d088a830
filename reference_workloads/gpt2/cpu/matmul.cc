// Linear layers on the CPU: SGEMM through CBLAS (OpenBLAS); math and costs in
// ops/matmul.h.
//
// Threading: OpenMP owns the threads and every GEMM is cut into one slice
// per thread, each an OpenBLAS call that runs single-threaded (the backend
// sets openblas_set_num_threads(1), cpu_backend.cc). One pool for every op,
// instead of OpenBLAS's pthread pool and OpenMP's each spinning while the
// other works; docs/gpt2-trainer.md has the measurements behind the choice.
// The slices are the output rows a thread owns, so no two threads write the
// same element and the result does not depend on timing.
#include <cblas.h>

#include <algorithm>

#include "reference_workloads/gpt2/cpu/kernels.h"
#include "reference_workloads/gpt2/cpu/parallel.h"

namespace damscope::gpt2::cpu {

// out[r,:] = inp[r,:] W^T + b: threads split the rows. With a bias, each
// thread's rows start as b and the GEMM adds to them (beta 1).
void matmulForward(float* out, const float* inp, const float* weight, const float* bias, int rows,
                   int C, int OC) {
#pragma omp parallel
  {
    const Slice mine = threadSlice(rows);
    const size_t r0 = mine.begin, r1 = mine.end;
    if (r1 > r0) {
      float* o = out + r0 * OC;
      if (bias) {
        for (size_t r = r0; r < r1; ++r) std::copy(bias, bias + OC, out + r * OC);
      }
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, int(r1 - r0), OC, C, 1.0f, inp + r0 * C,
                  C, weight, C, bias ? 1.0f : 0.0f, o, OC);
    }
  }
}

// dinp = dout W (threads split its rows); dW = dout^T inp and db = column
// sums of dout (threads split the output features, the rows of dW).
void matmulBackward(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                    const float* weight, int rows, int C, int OC) {
#pragma omp parallel
  {
    const Slice my_rows = threadSlice(rows);
    const size_t r0 = my_rows.begin, r1 = my_rows.end;
    if (r1 > r0) {
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(r1 - r0), C, OC, 1.0f,
                  dout + r0 * OC, OC, weight, C, 0.0f, dinp + r0 * C, C);
    }
    const Slice my_features = threadSlice(OC);
    const size_t o0 = my_features.begin, o1 = my_features.end;
    if (o1 > o0) {
      cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, int(o1 - o0), C, rows, 1.0f, dout + o0,
                  OC, inp, C, 0.0f, dweight + o0 * C, C);
      if (dbias) {
        float* db = dbias + o0;
        const size_t width = o1 - o0;
        std::fill(db, db + width, 0.0f);
        for (int r = 0; r < rows; ++r) {
          const float* g = dout + size_t(r) * OC + o0;
#pragma omp simd
          for (size_t o = 0; o < width; ++o) db[o] += g[o];
        }
      }
    }
  }
}

}  // namespace damscope::gpt2::cpu
