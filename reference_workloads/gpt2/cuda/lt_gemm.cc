// cuBLASLt GEMMs for the CUDA backend (lt_gemm.h).
#include "reference_workloads/gpt2/cuda/lt_gemm.h"

#include <string>

namespace damscope::gpt2::cuda {
namespace {

Error cublasError(const char* what, cublasStatus_t status) {
  return Error(std::string(what) + ": " + cublasLtGetStatusString(status), ErrorCode::kFailure);
}

// The largest power of two, at most 256 (cuBLASLt's default assumption),
// dividing every address the operand's batches start at.
uint32_t alignmentOf(const void* p, int64_t batch_stride_bytes) {
  const uint64_t bits = reinterpret_cast<uintptr_t>(p) | uint64_t(batch_stride_bytes) | 256u;
  return static_cast<uint32_t>(bits & (~bits + 1));
}

}  // namespace

struct LtGemm::Plan {
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
  cublasLtMatmulPreference_t preference = nullptr;
  cublasLtMatmulHeuristicResult_t heuristic{};
  bool found = false;

  ~Plan() {
    if (preference) cublasLtMatmulPreferenceDestroy(preference);
    if (c) cublasLtMatrixLayoutDestroy(c);
    if (b) cublasLtMatrixLayoutDestroy(b);
    if (a) cublasLtMatrixLayoutDestroy(a);
    if (desc) cublasLtMatmulDescDestroy(desc);
  }
};

Result<std::unique_ptr<LtGemm>> LtGemm::create(size_t workspace_bytes) {
  std::unique_ptr<LtGemm> gemm(new LtGemm());
  const cublasStatus_t status = cublasLtCreate(&gemm->handle_);
  if (status != CUBLAS_STATUS_SUCCESS) return cublasError("cublasLtCreate", status);
  const cudaError_t error = cudaMalloc(&gemm->workspace_, workspace_bytes);
  if (error != cudaSuccess) {
    return Error("cuBLASLt workspace of " + std::to_string(workspace_bytes) +
                     " bytes: " + cudaGetErrorString(error),
                 ErrorCode::kFailure);
  }
  gemm->workspace_bytes_ = workspace_bytes;
  return gemm;
}

LtGemm::~LtGemm() {
  plans_.clear();
  if (workspace_) cudaFree(workspace_);
  if (handle_) cublasLtDestroy(handle_);
}

Result<LtGemm::Plan*> LtGemm::plan(const GemmCall& g, bool with_bias) {
  const int64_t in_bytes = g.bf16_inputs ? 2 : 4;
  const uint32_t align_a = alignmentOf(g.a, g.stride_a * in_bytes);
  const uint32_t align_b = alignmentOf(g.b, g.stride_b * in_bytes);
  const uint32_t align_c = alignmentOf(g.c, g.stride_c * 4);
  const uint32_t align_bias = with_bias ? alignmentOf(g.bias, 0) : 256;
  const PlanKey key{g.M,        g.N,        g.K,           g.lda,     g.ldb,
                    g.ldc,      g.trans_a,  g.trans_b,     g.batch,   g.stride_a,
                    g.stride_b, g.stride_c, g.bf16_inputs, g.tf32,    with_bias,
                    align_a,    align_b,    align_c,       align_bias};
  auto it = plans_.find(key);
  if (it != plans_.end()) return it->second.get();

  auto p = std::make_unique<Plan>();
  const cublasComputeType_t compute = g.tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
  const cudaDataType_t in_type = g.bf16_inputs ? CUDA_R_16BF : CUDA_R_32F;
  cublasStatus_t s = cublasLtMatmulDescCreate(&p->desc, compute, CUDA_R_32F);
  if (s != CUBLAS_STATUS_SUCCESS) return cublasError("cublasLtMatmulDescCreate", s);
  // Column-major roles (lt_gemm.h): cuBLASLt's A is our B, its B our A.
  const cublasOperation_t op_a = g.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t op_b = g.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasLtMatmulDescSetAttribute(p->desc, CUBLASLT_MATMUL_DESC_TRANSA, &op_a, sizeof(op_a));
  cublasLtMatmulDescSetAttribute(p->desc, CUBLASLT_MATMUL_DESC_TRANSB, &op_b, sizeof(op_b));
  if (with_bias) {
    // The bias is indexed by D's column-major rows, our N output features.
    const cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_BIAS;
    cublasLtMatmulDescSetAttribute(p->desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue,
                                   sizeof(epilogue));
  }
  // Stored shapes, column-major: cuBLASLt A is (N, K) or, transposed, (K, N);
  // its B (K, M) or (M, K); D (N, M).
  const uint64_t a_rows = g.trans_b ? g.K : g.N, a_cols = g.trans_b ? g.N : g.K;
  const uint64_t b_rows = g.trans_a ? g.M : g.K, b_cols = g.trans_a ? g.K : g.M;
  s = cublasLtMatrixLayoutCreate(&p->a, in_type, a_rows, a_cols, g.ldb);
  if (s == CUBLAS_STATUS_SUCCESS)
    s = cublasLtMatrixLayoutCreate(&p->b, in_type, b_rows, b_cols, g.lda);
  if (s == CUBLAS_STATUS_SUCCESS)
    s = cublasLtMatrixLayoutCreate(&p->c, CUDA_R_32F, g.N, g.M, g.ldc);
  if (s != CUBLAS_STATUS_SUCCESS) return cublasError("cublasLtMatrixLayoutCreate", s);
  if (g.batch > 1) {
    const int32_t batch = g.batch;
    const struct {
      cublasLtMatrixLayout_t layout;
      int64_t stride;
    } batched[] = {{p->a, g.stride_b}, {p->b, g.stride_a}, {p->c, g.stride_c}};
    for (const auto& [layout, stride] : batched) {
      cublasLtMatrixLayoutSetAttribute(layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &batch,
                                       sizeof(batch));
      cublasLtMatrixLayoutSetAttribute(layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride,
                                       sizeof(stride));
    }
  }
  s = cublasLtMatmulPreferenceCreate(&p->preference);
  if (s != CUBLAS_STATUS_SUCCESS) return cublasError("cublasLtMatmulPreferenceCreate", s);
  cublasLtMatmulPreferenceSetAttribute(p->preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                       &workspace_bytes_, sizeof(workspace_bytes_));
  // The heuristic assumes 256-byte aligned operands unless told otherwise
  // (cuBLASLt docs, cublasLtMatmulPreferenceAttributes_t); parameter tensors
  // and the per-head slices are often less aligned.
  const struct {
    cublasLtMatmulPreferenceAttributes_t attribute;
    uint32_t bytes;
  } alignments[] = {{CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, align_b},
                    {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, align_a},
                    {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, align_c},
                    {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, align_c}};
  for (const auto& [attribute, bytes] : alignments) {
    cublasLtMatmulPreferenceSetAttribute(p->preference, attribute, &bytes, sizeof(bytes));
  }
  if (with_bias) {
    cublasLtMatmulDescSetAttribute(p->desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &g.bias,
                                   sizeof(g.bias));
  }
  int returned = 0;
  s = cublasLtMatmulAlgoGetHeuristic(handle_, p->desc, p->a, p->b, p->c, p->c, p->preference, 1,
                                     &p->heuristic, &returned);
  p->found = s == CUBLAS_STATUS_SUCCESS && returned > 0;
  if (s != CUBLAS_STATUS_SUCCESS && s != CUBLAS_STATUS_NOT_SUPPORTED) {
    return cublasError("cublasLtMatmulAlgoGetHeuristic", s);
  }
  Plan* raw = p.get();
  plans_.emplace(key, std::move(p));
  return raw;
}

Result<bool> LtGemm::run(const GemmCall& g, cudaStream_t stream) {
  bool with_bias = g.bias != nullptr;
  DAMSCOPE_ASSIGN_OR_RETURN(Plan * p, plan(g, with_bias));
  if (!p->found && with_bias) {
    with_bias = false;
    DAMSCOPE_ASSIGN_OR_RETURN(p, plan(g, false));
  }
  if (!p->found) {
    return Error("cuBLASLt has no algorithm for a " + std::to_string(g.M) + "x" +
                     std::to_string(g.N) + "x" + std::to_string(g.K) + " GEMM (batch " +
                     std::to_string(g.batch) + ")",
                 ErrorCode::kFailure);
  }
  if (with_bias) {
    cublasLtMatmulDescSetAttribute(p->desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &g.bias,
                                   sizeof(g.bias));
  }
  // cuBLASLt's A is our B (lt_gemm.h).
  const cublasStatus_t s =
      cublasLtMatmul(handle_, p->desc, &g.alpha, g.b, p->a, g.a, p->b, &g.beta, g.c, p->c, g.c,
                     p->c, &p->heuristic.algo, workspace_, workspace_bytes_, stream);
  if (s != CUBLAS_STATUS_SUCCESS) return cublasError("cublasLtMatmul", s);
  return with_bias;
}

}  // namespace damscope::gpt2::cuda
