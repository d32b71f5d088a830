// Row-major GEMMs through cuBLASLt (cublasLtMatmul) for the CUDA backend:
// the linear layers and the naive attention's batched products. One handle,
// one workspace, and a cache of matmul descriptors, layouts and the
// heuristic's algorithm per shape, so that a step's dozen distinct GEMMs pay
// for the heuristic once.
//
// Row-major to cuBLAS's column-major: a row-major (R, K) buffer with row
// stride ld is the column-major (K, R) matrix with the same ld, its
// transpose. So row-major C = op(A) op(B) is computed as the column-major
//   C^T = op(B)^T op(A)^T
// i.e. cuBLASLt's "A" is our B and its "B" our A, each with the transpose
// flag it has in the row-major product, and m, n = N, M.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <tuple>

#include <cublasLt.h>
#include <cuda_runtime_api.h>

#include "base/result.h"

namespace damscope::gpt2::cuda {

// One row-major product C (M, N) = alpha op(A) op(B) + beta C (+ bias (N)
// broadcast over the rows), op(A) (M, K), op(B) (K, N); `batch` of them at
// the given strides (elements). Inputs fp32 or bf16 (`bf16_inputs`), C fp32.
struct GemmCall {
  int M = 0, N = 0, K = 0;
  const void* a = nullptr;
  int64_t lda = 0;
  bool trans_a = false;
  const void* b = nullptr;
  int64_t ldb = 0;
  bool trans_b = false;
  float* c = nullptr;
  int64_t ldc = 0;
  float alpha = 1.0f, beta = 0.0f;
  const float* bias = nullptr;  // null for none
  int batch = 1;
  int64_t stride_a = 0, stride_b = 0, stride_c = 0;
  bool bf16_inputs = false;
  bool tf32 = false;  // CUBLAS_COMPUTE_32F_FAST_TF32 instead of CUBLAS_COMPUTE_32F
};

class LtGemm {
 public:
  // workspace_bytes of device memory for cuBLASLt's split-K and similar
  // algorithms.
  static Result<std::unique_ptr<LtGemm>> create(size_t workspace_bytes);
  ~LtGemm();
  LtGemm(const LtGemm&) = delete;
  LtGemm& operator=(const LtGemm&) = delete;

  // Enqueues the product on `stream`. Returns whether the bias was added (in
  // the epilogue); false when the call has a bias but no algorithm with the
  // bias epilogue exists for it, and the caller adds it (kernels.h addBias).
  Result<bool> run(const GemmCall& call, cudaStream_t stream);

 private:
  struct Plan;
  // Everything the heuristic's choice depends on: shapes, flags, types,
  // batch strides and the operands' alignments.
  using PlanKey =
      std::tuple<int, int, int, int64_t, int64_t, int64_t, bool, bool, int, int64_t, int64_t,
                 int64_t, bool, bool, bool, uint32_t, uint32_t, uint32_t, uint32_t>;

  LtGemm() = default;
  Result<Plan*> plan(const GemmCall& call, bool with_bias);

  cublasLtHandle_t handle_ = nullptr;
  void* workspace_ = nullptr;
  size_t workspace_bytes_ = 0;
  std::map<PlanKey, std::unique_ptr<Plan>> plans_;
};

}  // namespace damscope::gpt2::cuda
