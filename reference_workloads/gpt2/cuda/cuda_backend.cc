// The CUDA backend (cuda_backend.h): memory, copies, streams, graphs and the
// ops' host side. Kernels are in the .cu files behind kernels.h, GEMMs in
// lt_gemm.h.
//
// bf16 GEMMs cast their inputs to bf16 scratch on every call rather than
// keeping a bf16 copy of the weights: the Backend interface has no signal
// for "the weights changed" besides adamw() and upload(), a parameter-sized
// second buffer would cost memory the capacity scenario counts, and the cast
// reads 4 and writes 2 bytes per input element against 2 K FLOPs per output
// element, small beside the GEMM for the trainer's shapes.
#include "reference_workloads/gpt2/cuda/cuda_backend.h"

#include <cuda_runtime.h>  // the typed cudaMalloc / cudaMallocHost overloads

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "reference_workloads/gpt2/cuda/kernels.h"
#include "reference_workloads/gpt2/cuda/lt_gemm.h"

namespace damscope::gpt2 {
namespace {

// cuBLASLt's workspace: 32 MiB, NVIDIA's recommendation for Hopper (cuBLAS
// documentation, cublasSetWorkspace: "32 MiB for Hopper", 4 MiB before),
// as llm.c's train_gpt2.cu uses.
constexpr size_t kGemmWorkspaceBytes = size_t(32) << 20;

// Pinned staging for upload(): two slots used in turn, so that the host
// fills one while the copy stream drains the other. 4 MiB per copy is well
// past the size where pinned H2D copies reach their full PCIe rate (Harris,
// "How to Optimize Data Transfers in CUDA C/C++", NVIDIA blog 2012).
constexpr size_t kStagingBytes = size_t(4) << 20;
constexpr int kStagingSlots = 2;

// Scratch carve-outs start at 256-byte boundaries (cudaMalloc's alignment),
// which cuBLASLt's fastest kernels want (lt_gemm.cc).
constexpr size_t kScratchAlign = 256;

size_t alignUp(size_t bytes) {
  return (bytes + kScratchAlign - 1) / kScratchAlign * kScratchAlign;
}

}  // namespace

struct CudaBackend::State {
  CudaOptions options;
  cudaStream_t compute = nullptr, copy = nullptr;
  cudaEvent_t compute_ready = nullptr, copy_done = nullptr;
  cudaEvent_t staging_free[kStagingSlots] = {};
  void* staging[kStagingSlots] = {};
  std::unique_ptr<cuda::LtGemm> gemm;

  // Per-op scratch: the permuted heads of the naive attention, the bf16
  // casts of GEMM inputs, the column partials of the bias and LayerNorm
  // parameter gradients (kernels.h). Grown on demand; a buffer a graph may reference is
  // kept (retired) until the graph is replaced.
  void* scratch = nullptr;
  size_t scratch_bytes = 0;
  std::vector<void*> retired;

  double* norm_result = nullptr;    // device, one double
  double* norm_partials = nullptr;  // device, kSumOfSquaresBlocks doubles
  double* norm_host = nullptr;      // pinned, one double

  std::vector<cuda::AdamWSegmentEntry> adamw_entries;  // as last uploaded
  cuda::AdamWSegmentEntry* adamw_table = nullptr;      // device
  cuda::AdamWSegmentEntry* adamw_mirror = nullptr;     // pinned source of the upload
  int adamw_capacity = 0;
  int adamw_blocks = 0;

  Status first_error;
  bool capturing = false;
  cudaGraphExec_t graph = nullptr;

  ~State() {
    if (capturing) {
      cudaGraph_t unfinished = nullptr;
      cudaStreamEndCapture(compute, &unfinished);
      if (unfinished) cudaGraphDestroy(unfinished);
    }
    if (graph) cudaGraphExecDestroy(graph);
    for (void* p : retired) cudaFree(p);
    if (scratch) cudaFree(scratch);
    gemm.reset();
    for (int i = 0; i < kStagingSlots; ++i) {
      if (staging[i]) cudaFreeHost(staging[i]);
      if (staging_free[i]) cudaEventDestroy(staging_free[i]);
    }
    if (norm_result) cudaFree(norm_result);
    if (norm_partials) cudaFree(norm_partials);
    if (norm_host) cudaFreeHost(norm_host);
    if (adamw_table) cudaFree(adamw_table);
    if (adamw_mirror) cudaFreeHost(adamw_mirror);
    if (compute_ready) cudaEventDestroy(compute_ready);
    if (copy_done) cudaEventDestroy(copy_done);
    if (copy) cudaStreamDestroy(copy);
    if (compute) cudaStreamDestroy(compute);
  }

  bool ok() const { return first_error.ok(); }

  void fail(Error error) {
    if (ok()) first_error = Status(std::move(error));
  }

  // The fused kernels' tiles hold a head's rows in shared memory; a head too
  // wide for them is an error of the run, not a silent fallback.
  bool fusedAttentionFits(int hs) {
    if (cuda::fusedAttentionSupports(hs)) return true;
    fail(Error("fused attention: head size " + std::to_string(hs) +
                   " does not fit in 48 KiB of shared memory per tile; use the naive attention",
               ErrorCode::kBadInput));
    return false;
  }

  // bf16 runs with GPT-2's head size take the fused attention on tensor
  // cores (tensor_core_attention.cu); others the fp32 tiles.
  bool tensorCoreAttention(int hs) const {
    return options.precision == Precision::kBf16 && hs == cuda::kTensorCoreHeadSize;
  }

  // Keeps the first error; true when `e` is success.
  bool check(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return true;
    fail(Error(std::string(what) + ": " + cudaGetErrorString(e), ErrorCode::kFailure));
    return false;
  }

  // After an op's launches: its launch error, then (sync-every-op) the wait.
  void finishOp(cudaError_t e, const char* op) {
    if (!check(e, op)) return;
    if (options.sync_every_op && !capturing) check(cudaStreamSynchronize(compute), op);
  }

  // Host points (a host wait or a host-side copy) cannot be captured.
  bool notCapturing(const char* what) {
    if (!capturing) return true;
    fail(Error(std::string(what) + " during CUDA graph capture: only device ops may be captured",
               ErrorCode::kFailure));
    return false;
  }

  // At least `bytes` of scratch, or null (error kept).
  char* scratchOf(size_t bytes) {
    if (bytes <= scratch_bytes) return static_cast<char*>(scratch);
    if (scratch) {
      // cudaFree waits for the kernels still using it; a graph, captured or
      // being captured, keeps its address, so that buffer is kept.
      if (capturing || graph) {
        retired.push_back(scratch);
      } else {
        cudaFree(scratch);
      }
      scratch = nullptr;
      scratch_bytes = 0;
    }
    if (!check(cudaMalloc(&scratch, bytes), "scratch allocation")) return nullptr;
    scratch_bytes = bytes;
    return static_cast<char*>(scratch);
  }

  void dropGraph() {
    if (graph) cudaGraphExecDestroy(graph);
    graph = nullptr;
    for (void* p : retired) cudaFree(p);
    retired.clear();
  }

  bool runGemm(const cuda::GemmCall& call, const char* op) {
    Result<bool> bias_added = gemm->run(call, compute);
    if (!bias_added.ok()) {
      fail(bias_added.error().withContext(op));
      return false;
    }
    if (call.bias != nullptr && !*bias_added) {
      return check(cuda::addBias(call.c, call.bias, call.M, call.N, compute), op);
    }
    return true;
  }
};

CudaBackend::CudaBackend(std::unique_ptr<State> state) : s_(std::move(state)) {}

CudaBackend::~CudaBackend() {
  if (s_->compute) cudaStreamSynchronize(s_->compute);
}

Result<std::unique_ptr<CudaBackend>> CudaBackend::create(const CudaOptions& options) {
  const Result<CudaDeviceInfo> device = probeCudaDevice(options.device, options.precision);
  if (!device.ok()) return device.error();
  auto s = std::make_unique<State>();
  s->options = options;
  auto setup = [&]() -> Status {
    auto must = [](cudaError_t e, const char* what) -> Status {
      if (e == cudaSuccess) return okStatus();
      return Error(std::string("CUDA backend: ") + what + ": " + cudaGetErrorString(e),
                   ErrorCode::kFailure);
    };
    DAMSCOPE_RETURN_IF_ERROR(must(cudaSetDevice(options.device), "cudaSetDevice"));
    // The compute stream is a blocking stream: it synchronises with the
    // legacy default stream, so that the pageable path's plain cudaMemcpy is
    // ordered with the ops on both sides. The copy stream is not.
    DAMSCOPE_RETURN_IF_ERROR(must(cudaStreamCreate(&s->compute), "compute stream"));
    DAMSCOPE_RETURN_IF_ERROR(
        must(cudaStreamCreateWithFlags(&s->copy, cudaStreamNonBlocking), "copy stream"));
    DAMSCOPE_RETURN_IF_ERROR(
        must(cudaEventCreateWithFlags(&s->compute_ready, cudaEventDisableTiming), "event"));
    DAMSCOPE_RETURN_IF_ERROR(
        must(cudaEventCreateWithFlags(&s->copy_done, cudaEventDisableTiming), "event"));
    if (options.pinned_copies) {
      for (int i = 0; i < kStagingSlots; ++i) {
        DAMSCOPE_RETURN_IF_ERROR(
            must(cudaEventCreateWithFlags(&s->staging_free[i], cudaEventDisableTiming), "event"));
        DAMSCOPE_RETURN_IF_ERROR(
            must(cudaMallocHost(&s->staging[i], kStagingBytes), "pinned staging buffer"));
      }
    }
    DAMSCOPE_RETURN_IF_ERROR(must(cudaMalloc(&s->norm_result, sizeof(double)), "norm buffer"));
    DAMSCOPE_RETURN_IF_ERROR(must(
        cudaMalloc(&s->norm_partials, sizeof(double) * cuda::kSumOfSquaresBlocks), "norm buffer"));
    DAMSCOPE_RETURN_IF_ERROR(must(cudaMallocHost(&s->norm_host, sizeof(double)), "norm buffer"));
    DAMSCOPE_ASSIGN_OR_RETURN(s->gemm, cuda::LtGemm::create(kGemmWorkspaceBytes));
    return okStatus();
  };
  const Status status = setup();
  if (!status.ok()) return status.error();
  return std::unique_ptr<CudaBackend>(new CudaBackend(std::move(s)));
}

Status CudaBackend::status() const {
  return s_->first_error;
}

void* CudaBackend::computeStream() const {
  return s_->compute;
}

// Memory -------------------------------------------------------------------

void* CudaBackend::allocate(size_t bytes) {
  if (bytes == 0) return nullptr;
  void* p = nullptr;
  if (cudaMalloc(&p, bytes) != cudaSuccess) {
    cudaGetLastError();  // out of memory is not sticky: leave no error for the next call
    return nullptr;
  }
  // On the compute stream, so that every later op (and upload, which waits
  // for the compute stream) sees the zeros.
  if (!s_->check(cudaMemsetAsync(p, 0, bytes, s_->compute), "allocate")) {
    cudaFree(p);
    return nullptr;
  }
  return p;
}

void CudaBackend::release(void* p) noexcept {
  if (p) cudaFree(p);
}

void CudaBackend::upload(void* dst, const void* host_src, size_t bytes) {
  State& s = *s_;
  if (!s.ok() || bytes == 0 || !s.notCapturing("upload")) return;
  if (!s.options.pinned_copies) {
    // The pageable path: cudaMemcpy stages through the driver's own pinned
    // buffer and returns when the copy is done (CUDA Runtime API,
    // "API synchronization behavior").
    s.check(cudaMemcpy(dst, host_src, bytes, cudaMemcpyHostToDevice), "upload");
    return;
  }
  // The copy may overwrite memory that ops already enqueued still read.
  if (!s.check(cudaEventRecord(s.compute_ready, s.compute), "upload") ||
      !s.check(cudaStreamWaitEvent(s.copy, s.compute_ready, 0), "upload")) {
    return;
  }
  const auto* src = static_cast<const char*>(host_src);
  auto* out = static_cast<char*>(dst);
  for (size_t offset = 0, chunk = 0; offset < bytes; offset += kStagingBytes, ++chunk) {
    const int slot = static_cast<int>(chunk % kStagingSlots);
    const size_t n = std::min(kStagingBytes, bytes - offset);
    // The slot's previous copy must have drained before the host refills it.
    if (!s.check(cudaEventSynchronize(s.staging_free[slot]), "upload")) return;
    std::memcpy(s.staging[slot], src + offset, n);
    if (!s.check(cudaMemcpyAsync(out + offset, s.staging[slot], n, cudaMemcpyHostToDevice, s.copy),
                 "upload") ||
        !s.check(cudaEventRecord(s.staging_free[slot], s.copy), "upload")) {
      return;
    }
  }
  s.check(cudaEventRecord(s.copy_done, s.copy), "upload");
  s.check(cudaStreamWaitEvent(s.compute, s.copy_done, 0), "upload");
}

void CudaBackend::download(void* host_dst, const void* src, size_t bytes) {
  State& s = *s_;
  if (!s.ok() || bytes == 0 || !s.notCapturing("download")) return;
  if (!s.check(cudaStreamSynchronize(s.compute), "download")) return;
  s.check(cudaMemcpy(host_dst, src, bytes, cudaMemcpyDeviceToHost), "download");
}

void CudaBackend::copy(void* dst, const void* src, size_t bytes) {
  State& s = *s_;
  if (!s.ok() || bytes == 0) return;
  s.finishOp(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s.compute), "copy");
}

void CudaBackend::synchronize() {
  State& s = *s_;
  if (!s.ok() || !s.notCapturing("synchronize")) return;
  s.check(cudaStreamSynchronize(s.compute), "synchronize");
}

// Elementwise and row ops ----------------------------------------------------

void CudaBackend::embeddingForward(float* out, const int32_t* tokens, const float* wte,
                                   const float* wpe, int B, int T, int C) {
  if (!s_->ok()) return;
  s_->finishOp(cuda::embeddingForward(out, tokens, wte, wpe, B, T, C, s_->compute),
               "embedding forward");
}

void CudaBackend::embeddingBackward(float* dwte, float* dwpe, const float* dout,
                                    const int32_t* tokens, int B, int T, int C) {
  if (!s_->ok()) return;
  s_->finishOp(cuda::embeddingBackward(dwte, dwpe, dout, tokens, B, T, C, s_->compute),
               "embedding backward");
}

void CudaBackend::layernormForward(float* out, float* mean, float* rstd, const float* inp,
                                   const float* weight, const float* bias, int rows, int C) {
  if (!s_->ok()) return;
  s_->finishOp(cuda::layernormForward(out, mean, rstd, inp, weight, bias, rows, C, s_->compute),
               "layernorm forward");
}

void CudaBackend::layernormBackward(float* dinp, float* dweight, float* dbias, const float* dout,
                                    const float* inp, const float* weight, const float* mean,
                                    const float* rstd, int rows, int C, bool accumulate) {
  if (!s_->ok()) return;
  const size_t partial_bytes = 2 * sizeof(float) * cuda::columnSumPartials(rows, C);
  float* partials = nullptr;
  if (partial_bytes > 0 && !(partials = reinterpret_cast<float*>(s_->scratchOf(partial_bytes)))) {
    return;
  }
  s_->finishOp(cuda::layernormBackward(dinp, dweight, dbias, dout, inp, weight, mean, rstd, rows, C,
                                       accumulate, partials, s_->compute),
               "layernorm backward");
}

void CudaBackend::geluForward(float* out, const float* inp, size_t n) {
  if (!s_->ok()) return;
  s_->finishOp(cuda::geluForward(out, inp, n, s_->compute), "gelu forward");
}

void CudaBackend::geluBackward(float* dinp, const float* inp, const float* dout, size_t n) {
  if (!s_->ok()) return;
  s_->finishOp(cuda::geluBackward(dinp, inp, dout, n, s_->compute), "gelu backward");
}

void CudaBackend::residualForward(float* out, const float* a, const float* b, size_t n) {
  if (!s_->ok()) return;
  s_->finishOp(cuda::residualForward(out, a, b, n, s_->compute), "residual forward");
}

void CudaBackend::residualBackward(float* da, float* db, const float* dout, size_t n) {
  if (!s_->ok()) return;
  s_->finishOp(cuda::residualBackward(da, db, dout, n, s_->compute), "residual backward");
}

void CudaBackend::crossentropyForward(float* losses, float* probs, const float* logits,
                                      const int32_t* targets, int rows, int V, int Vp) {
  if (!s_->ok()) return;
  s_->finishOp(cuda::crossentropyForward(losses, probs, logits, targets, rows, V, Vp, s_->compute),
               "crossentropy forward");
}

void CudaBackend::crossentropyBackward(float* dlogits, const float* probs, const int32_t* targets,
                                       float dloss, int rows, int V, int Vp) {
  if (!s_->ok()) return;
  s_->finishOp(cuda::crossentropyBackward(dlogits, probs, targets, dloss, rows, V, Vp, s_->compute),
               "crossentropy backward");
}

// GEMMs ----------------------------------------------------------------------

void CudaBackend::matmulForward(float* out, const float* inp, const float* weight,
                                const float* bias, int rows, int C, int OC) {
  State& s = *s_;
  if (!s.ok()) return;
  // out (rows, OC) = inp (rows, C) weight^T, weight (OC, C) row-major.
  cuda::GemmCall g;
  g.M = rows, g.N = OC, g.K = C;
  g.a = inp, g.lda = C;
  g.b = weight, g.ldb = C, g.trans_b = true;
  g.c = out, g.ldc = OC;
  g.bias = bias;
  g.tf32 = s.options.precision == Precision::kTf32;
  if (s.options.precision == Precision::kBf16) {
    const size_t inp_n = size_t(rows) * C, w_n = size_t(OC) * C;
    char* scratch = s.scratchOf(alignUp(inp_n * 2) + alignUp(w_n * 2));
    if (!scratch) return;
    char* w16 = scratch + alignUp(inp_n * 2);
    if (!s.check(cuda::castToBf16(scratch, inp, inp_n, s.compute), "matmul forward") ||
        !s.check(cuda::castToBf16(w16, weight, w_n, s.compute), "matmul forward")) {
      return;
    }
    g.a = scratch, g.b = w16, g.bf16_inputs = true;
  }
  if (s.runGemm(g, "matmul forward")) s.finishOp(cudaSuccess, "matmul forward");
}

void CudaBackend::matmulBackward(float* dinp, float* dweight, float* dbias, const float* dout,
                                 const float* inp, const float* weight, int rows, int C, int OC) {
  State& s = *s_;
  if (!s.ok()) return;
  const void* dout_in = dout;
  const void* inp_in = inp;
  const void* weight_in = weight;
  const bool bf16 = s.options.precision == Precision::kBf16;
  // Scratch: the bias gradient's column partials, then the bf16 casts.
  const size_t partial_bytes =
      dbias ? alignUp(sizeof(float) * cuda::columnSumPartials(rows, OC)) : 0;
  const size_t dout_n = size_t(rows) * OC, inp_n = size_t(rows) * C, w_n = size_t(OC) * C;
  const size_t scratch_bytes =
      partial_bytes + (bf16 ? alignUp(dout_n * 2) + alignUp(inp_n * 2) + alignUp(w_n * 2) : 0);
  char* scratch = nullptr;
  if (scratch_bytes > 0 && !(scratch = s.scratchOf(scratch_bytes))) return;
  auto* partials = reinterpret_cast<float*>(scratch);
  if (bf16) {
    char* dout16 = scratch + partial_bytes;
    char* inp16 = dout16 + alignUp(dout_n * 2);
    char* w16 = inp16 + alignUp(inp_n * 2);
    if (!s.check(cuda::castToBf16(dout16, dout, dout_n, s.compute), "matmul backward") ||
        !s.check(cuda::castToBf16(inp16, inp, inp_n, s.compute), "matmul backward") ||
        !s.check(cuda::castToBf16(w16, weight, w_n, s.compute), "matmul backward")) {
      return;
    }
    dout_in = dout16, inp_in = inp16, weight_in = w16;
  }
  const bool tf32 = s.options.precision == Precision::kTf32;
  // dinp (rows, C) = dout (rows, OC) weight (OC, C)
  cuda::GemmCall d;
  d.M = rows, d.N = C, d.K = OC;
  d.a = dout_in, d.lda = OC;
  d.b = weight_in, d.ldb = C;
  d.c = dinp, d.ldc = C;
  d.bf16_inputs = bf16, d.tf32 = tf32;
  // dweight (OC, C) = dout^T (OC, rows) inp (rows, C)
  cuda::GemmCall w;
  w.M = OC, w.N = C, w.K = rows;
  w.a = dout_in, w.lda = OC, w.trans_a = true;
  w.b = inp_in, w.ldb = C;
  w.c = dweight, w.ldc = C;
  w.bf16_inputs = bf16, w.tf32 = tf32;
  if (!s.runGemm(d, "matmul backward") || !s.runGemm(w, "matmul backward")) return;
  const cudaError_t e =
      dbias ? cuda::biasColumnSum(dbias, dout, rows, OC, partials, s.compute) : cudaSuccess;
  s.finishOp(e, "matmul backward");
}

// Attention -------------------------------------------------------------------

namespace {

// The naive attention's batched products: `batch` = B NH heads, each (T, hs)
// or (T, T), row-major and contiguous. Its GEMMs run at fp32 or tf32; bf16
// maps to tf32 here, because casting the materialised T x T matrices would
// add two more passes over them to the op whose cost is that traffic.
cuda::GemmCall headProduct(const float* a, bool trans_a, const float* b, bool trans_b, float* c,
                           int M, int N, int K, int batch, float alpha, Precision precision) {
  cuda::GemmCall g;
  g.M = M, g.N = N, g.K = K;
  g.a = a, g.trans_a = trans_a, g.lda = trans_a ? M : K;
  g.b = b, g.trans_b = trans_b, g.ldb = trans_b ? K : N;
  g.c = c, g.ldc = N;
  g.alpha = alpha;
  g.batch = batch;
  g.stride_a = int64_t(M) * K, g.stride_b = int64_t(K) * N, g.stride_c = int64_t(M) * N;
  g.tf32 = precision != Precision::kFp32;
  return g;
}

}  // namespace

void CudaBackend::attentionForward(float* out, float* preatt, float* att, const float* qkv, int B,
                                   int T, int C, int NH) {
  State& s = *s_;
  if (!s.ok()) return;
  const int hs = C / NH;
  if (s.options.attention == AttentionKind::kFused) {
    // The logsumexp of each row goes to the first B NH T floats of att.
    if (s.tensorCoreAttention(hs)) {
      s.finishOp(cuda::tensorCoreAttentionForward(out, att, qkv, B, T, C, NH, s.compute),
                 "attention forward");
      return;
    }
    if (!s.fusedAttentionFits(hs)) return;
    s.finishOp(cuda::fusedAttentionForward(out, att, qkv, B, T, C, NH, s.compute),
               "attention forward");
    return;
  }
  const size_t btc = size_t(B) * T * C;
  auto* q = reinterpret_cast<float*>(s.scratchOf(4 * btc * sizeof(float)));
  if (!q) return;
  float *k = q + btc, *v = k + btc, *y = v + btc;
  const int heads = B * NH;
  const float scale = 1.0f / std::sqrt(static_cast<float>(hs));
  const Precision p = s.options.precision;
  if (!s.check(cuda::permuteQkv(q, k, v, qkv, B, T, C, NH, s.compute), "attention forward") ||
      !s.runGemm(headProduct(q, false, k, true, preatt, T, T, hs, heads, scale, p),
                 "attention forward") ||
      !s.check(cuda::causalSoftmaxForward(att, preatt, long(heads) * T, T, s.compute),
               "attention forward") ||
      !s.runGemm(headProduct(att, false, v, false, y, T, hs, T, heads, 1.0f, p),
                 "attention forward")) {
    return;
  }
  s.finishOp(cuda::unpermuteHeads(out, y, B, T, C, NH, s.compute), "attention forward");
}

void CudaBackend::attentionBackward(float* dqkv, float* dpreatt, float* datt, const float* dout,
                                    const float* qkv, const float* att, int B, int T, int C,
                                    int NH) {
  State& s = *s_;
  if (!s.ok()) return;
  const int hs = C / NH;
  if (s.options.attention == AttentionKind::kFused) {
    // D = dO . O per row goes to the first B NH T floats of datt (scratch).
    if (s.tensorCoreAttention(hs)) {
      s.finishOp(
          cuda::tensorCoreAttentionBackward(dqkv, datt, dout, qkv, att, B, T, C, NH, s.compute),
          "attention backward");
      return;
    }
    if (!s.fusedAttentionFits(hs)) return;
    s.finishOp(cuda::fusedAttentionBackward(dqkv, datt, dout, qkv, att, B, T, C, NH, s.compute),
               "attention backward");
    return;
  }
  const size_t btc = size_t(B) * T * C;
  auto* q = reinterpret_cast<float*>(s.scratchOf(7 * btc * sizeof(float)));
  if (!q) return;
  float *k = q + btc, *v = k + btc, *dy = v + btc, *dq = dy + btc, *dk = dq + btc, *dv = dk + btc;
  const int heads = B * NH;
  const float scale = 1.0f / std::sqrt(static_cast<float>(hs));
  const Precision p = s.options.precision;
  const char* op = "attention backward";
  if (!s.check(cuda::permuteQkv(q, k, v, qkv, B, T, C, NH, s.compute), op) ||
      !s.check(cuda::permuteHeads(dy, dout, B, T, C, NH, s.compute), op) ||
      // datt = dy v^T; dv = att^T dy
      !s.runGemm(headProduct(dy, false, v, true, datt, T, T, hs, heads, 1.0f, p), op) ||
      !s.runGemm(headProduct(att, true, dy, false, dv, T, hs, T, heads, 1.0f, p), op) ||
      !s.check(
          cuda::causalSoftmaxBackward(dpreatt, att, datt, long(heads) * T, T, scale, s.compute),
          op) ||
      // dq = dpreatt k; dk = dpreatt^T q
      !s.runGemm(headProduct(dpreatt, false, k, false, dq, T, hs, T, heads, 1.0f, p), op) ||
      !s.runGemm(headProduct(dpreatt, true, q, false, dk, T, hs, T, heads, 1.0f, p), op)) {
    return;
  }
  s.finishOp(cuda::unpermuteQkv(dqkv, dq, dk, dv, B, T, C, NH, s.compute), op);
}

// Optimizer ---------------------------------------------------------------------

double CudaBackend::gradNormSquared(const float* grads, size_t n) {
  State& s = *s_;
  constexpr double kFailed = std::numeric_limits<double>::quiet_NaN();
  if (!s.ok() || !s.notCapturing("gradNormSquared")) return kFailed;
  if (!s.check(cuda::sumOfSquares(s.norm_result, s.norm_partials, grads, n, s.compute),
               "grad norm") ||
      !s.check(cudaMemcpyAsync(s.norm_host, s.norm_result, sizeof(double), cudaMemcpyDeviceToHost,
                               s.compute),
               "grad norm") ||
      !s.check(cudaStreamSynchronize(s.compute), "grad norm")) {
    return kFailed;
  }
  return *s.norm_host;
}

void CudaBackend::adamw(float* params, const float* grads, float* m, float* v,
                        const AdamWSegment* segments, int count, const AdamWArgs& args) {
  State& s = *s_;
  if (!s.ok() || count <= 0) return;
  std::vector<cuda::AdamWSegmentEntry> entries(count);
  for (int i = 0; i < count; ++i) {
    entries[i] = {segments[i].offset, segments[i].count, segments[i].weight_decay, 0};
  }
  const int blocks = cuda::adamwAssignBlocks(entries.data(), count);
  const bool same = entries.size() == s.adamw_entries.size() &&
                    std::equal(entries.begin(), entries.end(), s.adamw_entries.begin(),
                               [](const auto& a, const auto& b) {
                                 return a.offset == b.offset && a.count == b.count &&
                                        a.weight_decay == b.weight_decay;
                               });
  if (!same) {
    // The table is uploaded once per layout (the model passes the same
    // segments every step). The pinned mirror may still be the source of
    // the previous upload: wait for it before rewriting.
    if (!s.check(cudaStreamSynchronize(s.compute), "adamw")) return;
    if (count > s.adamw_capacity) {
      if (s.adamw_table) cudaFree(s.adamw_table);
      if (s.adamw_mirror) cudaFreeHost(s.adamw_mirror);
      s.adamw_table = nullptr, s.adamw_mirror = nullptr, s.adamw_capacity = 0;
      const size_t bytes = sizeof(cuda::AdamWSegmentEntry) * count;
      if (!s.check(cudaMalloc(&s.adamw_table, bytes), "adamw") ||
          !s.check(cudaMallocHost(&s.adamw_mirror, bytes), "adamw")) {
        return;
      }
      s.adamw_capacity = count;
    }
    std::copy(entries.begin(), entries.end(), s.adamw_mirror);
    if (!s.check(
            cudaMemcpyAsync(s.adamw_table, s.adamw_mirror, sizeof(cuda::AdamWSegmentEntry) * count,
                            cudaMemcpyHostToDevice, s.compute),
            "adamw")) {
      return;
    }
    s.adamw_entries = std::move(entries);
    s.adamw_blocks = blocks;
  }
  // Bias corrections 1 / (1 - beta^t) in double, as cpu/adamw.cc: float
  // would round 1 - beta2^t coarsely for small t.
  cuda::AdamWCoefficients k;
  k.beta1 = args.beta1;
  k.beta2 = args.beta2;
  k.one_minus_beta1 = 1.0f - args.beta1;
  k.one_minus_beta2 = 1.0f - args.beta2;
  k.m_correction = static_cast<float>(1.0 / (1.0 - std::pow(double(args.beta1), args.step)));
  k.v_correction = static_cast<float>(1.0 / (1.0 - std::pow(double(args.beta2), args.step)));
  k.lr = args.lr;
  k.eps = args.eps;
  k.grad_scale = args.grad_scale;
  s.finishOp(cuda::adamw(params, grads, m, v, s.adamw_table, count, s.adamw_blocks, k, s.compute),
             "adamw");
}

// CUDA graphs ---------------------------------------------------------------------

Status CudaBackend::beginCapture() {
  State& s = *s_;
  if (!s.ok()) return s.first_error;
  if (s.capturing) return Error("beginCapture: a capture is already open", ErrorCode::kFailure);
  s.dropGraph();
  // Relaxed: the ops may grow their scratch (cudaMalloc) while capturing,
  // which the stricter modes refuse (CUDA Runtime API, cudaStreamCaptureMode).
  if (!s.check(cudaStreamBeginCapture(s.compute, cudaStreamCaptureModeRelaxed), "beginCapture")) {
    return s.first_error;
  }
  s.capturing = true;
  return okStatus();
}

Status CudaBackend::endCapture() {
  State& s = *s_;
  if (!s.capturing) return Error("endCapture without beginCapture", ErrorCode::kFailure);
  s.capturing = false;
  cudaGraph_t graph = nullptr;
  // Ends the capture even after an op failed inside it, so the stream is usable.
  const cudaError_t ended = cudaStreamEndCapture(s.compute, &graph);
  if (!s.ok()) {
    if (graph) cudaGraphDestroy(graph);
    return s.first_error;
  }
  if (!s.check(ended, "endCapture")) return s.first_error;
  const cudaError_t made = cudaGraphInstantiate(&s.graph, graph, 0);
  cudaGraphDestroy(graph);
  if (!s.check(made, "cudaGraphInstantiate")) {
    s.graph = nullptr;
    return s.first_error;
  }
  return okStatus();
}

Status CudaBackend::replay() {
  State& s = *s_;
  if (!s.ok()) return s.first_error;
  if (!s.graph) return Error("replay: no CUDA graph was captured", ErrorCode::kFailure);
  s.finishOp(cudaGraphLaunch(s.graph, s.compute), "cudaGraphLaunch");
  return s.first_error;
}

bool CudaBackend::hasGraph() const {
  return s_->graph != nullptr;
}

}  // namespace damscope::gpt2
