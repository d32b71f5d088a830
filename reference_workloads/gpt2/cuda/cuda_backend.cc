// The CUDA backend (cuda_backend.h): an adapter from model/backend.h's ops
// to the CUDA kernels' launchers (kernels.h, one .cu per family) and the
// GEMMs at the run's precision (precision_gemm.h), all enqueued on the
// device runtime's compute stream (device_runtime.h: streams, copies,
// scratch, graphs and the first-error rule).
#include "reference_workloads/gpt2/cuda/cuda_backend.h"

#include <cuda_runtime.h>  // the typed cudaMalloc / cudaMallocHost overloads

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "reference_workloads/gpt2/cuda/device_runtime.h"
#include "reference_workloads/gpt2/cuda/kernels.h"
#include "reference_workloads/gpt2/cuda/lt_gemm.h"
#include "reference_workloads/gpt2/cuda/precision_gemm.h"

namespace damscope::gpt2 {
namespace {

// cuBLASLt's workspace: 32 MiB, NVIDIA's recommendation for Hopper (cuBLAS
// documentation, cublasSetWorkspace: "32 MiB for Hopper", 4 MiB before),
// as llm.c's train_gpt2.cu uses.
constexpr size_t kGemmWorkspaceBytes = size_t(32) << 20;

}  // namespace

struct CudaBackend::State {
  CudaOptions options;
  std::unique_ptr<cuda::DeviceRuntime> rt;
  std::unique_ptr<cuda::LtGemm> gemm;

  double* norm_result = nullptr;    // device, one double
  double* norm_partials = nullptr;  // device, kSumOfSquaresBlocks doubles
  double* norm_host = nullptr;      // pinned, one double

  std::vector<cuda::AdamWSegmentEntry> adamw_entries;  // as last uploaded
  cuda::AdamWSegmentEntry* adamw_table = nullptr;      // device
  cuda::AdamWSegmentEntry* adamw_mirror = nullptr;     // pinned source of the upload
  int adamw_capacity = 0;
  int adamw_blocks = 0;

  ~State() {
    gemm.reset();
    if (norm_result) cudaFree(norm_result);
    if (norm_partials) cudaFree(norm_partials);
    if (norm_host) cudaFreeHost(norm_host);
    if (adamw_table) cudaFree(adamw_table);
    if (adamw_mirror) cudaFreeHost(adamw_mirror);
  }

  // One op: skipped once an error is kept; else `launch` enqueues it on the
  // compute stream and returns its launch error, and the op is finished
  // (device_runtime.h finishOp). Every op is named once, here.
  template <typename Launch>
  void op(const char* name, Launch&& launch) {
    if (!rt->ok()) return;
    rt->finishOp(launch(rt->compute()), name);
  }

  // The fused kernels' tiles hold a head's rows in shared memory; a head too
  // wide for them is an error of the run, not a silent fallback.
  bool fusedAttentionFits(int hs) {
    if (cuda::fusedAttentionSupports(hs)) return true;
    rt->fail(Error("fused attention: head size " + std::to_string(hs) +
                       " does not fit in 48 KiB of shared memory per tile; use the naive attention",
                   ErrorCode::kBadInput));
    return false;
  }

  // bf16 runs with GPT-2's head size take the fused attention on tensor
  // cores (tensor_core_attention.cu); others the fp32 tiles.
  bool tensorCoreAttention(int hs) const {
    return options.precision == Precision::kBf16 && hs == cuda::kTensorCoreHeadSize;
  }

  bool runGemm(const cuda::GemmCall& call, const char* name) {
    return cuda::runGemm(*rt, *gemm, call, name);
  }
};

CudaBackend::CudaBackend(std::unique_ptr<State> state) : s_(std::move(state)) {}

CudaBackend::~CudaBackend() {
  // The op buffers are freed before the runtime's streams: wait for the work first.
  if (s_->rt) cudaStreamSynchronize(s_->rt->compute());
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
    DAMSCOPE_ASSIGN_OR_RETURN(
        s->rt,
        cuda::DeviceRuntime::create(options.device, options.pinned_copies, options.sync_every_op));
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
  return s_->rt->status();
}

void* CudaBackend::computeStream() const {
  return s_->rt->compute();
}

// Memory -------------------------------------------------------------------

void* CudaBackend::allocate(size_t bytes) {
  return s_->rt->allocate(bytes);
}

void CudaBackend::release(void* p) noexcept {
  if (p) cudaFree(p);
}

void CudaBackend::upload(void* dst, const void* host_src, size_t bytes) {
  s_->rt->upload(dst, host_src, bytes);
}

void CudaBackend::download(void* host_dst, const void* src, size_t bytes) {
  s_->rt->download(host_dst, src, bytes);
}

void CudaBackend::copy(void* dst, const void* src, size_t bytes) {
  s_->rt->copy(dst, src, bytes);
}

void CudaBackend::synchronize() {
  s_->rt->synchronize();
}

// Elementwise and row ops ----------------------------------------------------

void CudaBackend::embeddingForward(float* out, const int32_t* tokens, const float* wte,
                                   const float* wpe, int B, int T, int C) {
  s_->op("embedding forward", [&](cudaStream_t stream) {
    return cuda::embeddingForward(out, tokens, wte, wpe, B, T, C, stream);
  });
}

void CudaBackend::embeddingBackward(float* dwte, float* dwpe, const float* dout,
                                    const int32_t* tokens, int B, int T, int C) {
  s_->op("embedding backward", [&](cudaStream_t stream) {
    return cuda::embeddingBackward(dwte, dwpe, dout, tokens, B, T, C, stream);
  });
}

void CudaBackend::layernormForward(float* out, float* mean, float* rstd, const float* inp,
                                   const float* weight, const float* bias, int rows, int C) {
  s_->op("layernorm forward", [&](cudaStream_t stream) {
    return cuda::layernormForward(out, mean, rstd, inp, weight, bias, rows, C, stream);
  });
}

void CudaBackend::layernormBackward(float* dinp, float* dweight, float* dbias, const float* dout,
                                    const float* inp, const float* weight, const float* mean,
                                    const float* rstd, int rows, int C, bool accumulate) {
  if (!s_->rt->ok()) return;
  const size_t partial_bytes = 2 * sizeof(float) * cuda::columnSumPartials(rows, C);
  float* partials = nullptr;
  if (partial_bytes > 0 &&
      !(partials = reinterpret_cast<float*>(s_->rt->scratchOf(partial_bytes)))) {
    return;
  }
  s_->op("layernorm backward", [&](cudaStream_t stream) {
    return cuda::layernormBackward(dinp, dweight, dbias, dout, inp, weight, mean, rstd, rows, C,
                                   accumulate, partials, stream);
  });
}

void CudaBackend::geluForward(float* out, const float* inp, size_t n) {
  s_->op("gelu forward",
         [&](cudaStream_t stream) { return cuda::geluForward(out, inp, n, stream); });
}

void CudaBackend::geluBackward(float* dinp, const float* inp, const float* dout, size_t n) {
  s_->op("gelu backward",
         [&](cudaStream_t stream) { return cuda::geluBackward(dinp, inp, dout, n, stream); });
}

void CudaBackend::residualForward(float* out, const float* a, const float* b, size_t n) {
  s_->op("residual forward",
         [&](cudaStream_t stream) { return cuda::residualForward(out, a, b, n, stream); });
}

void CudaBackend::residualBackward(float* da, float* db, const float* dout, size_t n) {
  s_->op("residual backward",
         [&](cudaStream_t stream) { return cuda::residualBackward(da, db, dout, n, stream); });
}

void CudaBackend::crossentropyForward(float* losses, float* probs, const float* logits,
                                      const int32_t* targets, int rows, int V, int Vp) {
  s_->op("crossentropy forward", [&](cudaStream_t stream) {
    return cuda::crossentropyForward(losses, probs, logits, targets, rows, V, Vp, stream);
  });
}

void CudaBackend::crossentropyBackward(float* dlogits, const float* probs, const int32_t* targets,
                                       float dloss, int rows, int V, int Vp) {
  s_->op("crossentropy backward", [&](cudaStream_t stream) {
    return cuda::crossentropyBackward(dlogits, probs, targets, dloss, rows, V, Vp, stream);
  });
}

// GEMMs ----------------------------------------------------------------------

void CudaBackend::matmulForward(float* out, const float* inp, const float* weight,
                                const float* bias, int rows, int C, int OC) {
  State& s = *s_;
  if (!s.rt->ok()) return;
  if (cuda::linearForward(*s.rt, *s.gemm, s.options.precision, out, inp, weight, bias, rows, C,
                          OC)) {
    s.rt->finishOp(cudaSuccess, "matmul forward");
  }
}

void CudaBackend::matmulBackward(float* dinp, float* dweight, float* dbias, const float* dout,
                                 const float* inp, const float* weight, int rows, int C, int OC) {
  State& s = *s_;
  if (!s.rt->ok()) return;
  if (cuda::linearBackward(*s.rt, *s.gemm, s.options.precision, dinp, dweight, dbias, dout, inp,
                           weight, rows, C, OC)) {
    s.rt->finishOp(cudaSuccess, "matmul backward");
  }
}

// Attention -------------------------------------------------------------------

void CudaBackend::attentionForward(float* out, float* preatt, float* att, const float* qkv, int B,
                                   int T, int C, int NH) {
  State& s = *s_;
  cuda::DeviceRuntime& rt = *s.rt;
  if (!rt.ok()) return;
  const int hs = C / NH;
  const char* op = "attention forward";
  if (s.options.attention == AttentionKind::kFused) {
    // The logsumexp of each row goes to the first B NH T floats of att.
    if (s.tensorCoreAttention(hs)) {
      s.op(op, [&](cudaStream_t stream) {
        return cuda::tensorCoreAttentionForward(out, att, qkv, B, T, C, NH, stream);
      });
      return;
    }
    if (!s.fusedAttentionFits(hs)) return;
    s.op(op, [&](cudaStream_t stream) {
      return cuda::fusedAttentionForward(out, att, qkv, B, T, C, NH, stream);
    });
    return;
  }
  const size_t btc = size_t(B) * T * C;
  auto* q = reinterpret_cast<float*>(rt.scratchOf(4 * btc * sizeof(float)));
  if (!q) return;
  float *k = q + btc, *v = k + btc, *y = v + btc;
  const int heads = B * NH;
  const float scale = 1.0f / std::sqrt(static_cast<float>(hs));
  const Precision p = s.options.precision;
  if (!rt.check(cuda::permuteQkv(q, k, v, qkv, B, T, C, NH, rt.compute()), op) ||
      !s.runGemm(cuda::headProduct(q, false, k, true, preatt, T, T, hs, heads, scale, p), op) ||
      !rt.check(cuda::causalSoftmaxForward(att, preatt, long(heads) * T, T, rt.compute()), op) ||
      !s.runGemm(cuda::headProduct(att, false, v, false, y, T, hs, T, heads, 1.0f, p), op)) {
    return;
  }
  rt.finishOp(cuda::unpermuteHeads(out, y, B, T, C, NH, rt.compute()), op);
}

void CudaBackend::attentionBackward(float* dqkv, float* dpreatt, float* datt, const float* dout,
                                    const float* qkv, const float* att, int B, int T, int C,
                                    int NH) {
  State& s = *s_;
  cuda::DeviceRuntime& rt = *s.rt;
  if (!rt.ok()) return;
  const int hs = C / NH;
  const char* op = "attention backward";
  if (s.options.attention == AttentionKind::kFused) {
    // D = dO . O per row goes to the first B NH T floats of datt (scratch).
    if (s.tensorCoreAttention(hs)) {
      s.op(op, [&](cudaStream_t stream) {
        return cuda::tensorCoreAttentionBackward(dqkv, datt, dout, qkv, att, B, T, C, NH, stream);
      });
      return;
    }
    if (!s.fusedAttentionFits(hs)) return;
    s.op(op, [&](cudaStream_t stream) {
      return cuda::fusedAttentionBackward(dqkv, datt, dout, qkv, att, B, T, C, NH, stream);
    });
    return;
  }
  const size_t btc = size_t(B) * T * C;
  auto* q = reinterpret_cast<float*>(rt.scratchOf(7 * btc * sizeof(float)));
  if (!q) return;
  float *k = q + btc, *v = k + btc, *dy = v + btc, *dq = dy + btc, *dk = dq + btc, *dv = dk + btc;
  const int heads = B * NH;
  const float scale = 1.0f / std::sqrt(static_cast<float>(hs));
  const Precision p = s.options.precision;
  if (!rt.check(cuda::permuteQkv(q, k, v, qkv, B, T, C, NH, rt.compute()), op) ||
      !rt.check(cuda::permuteHeads(dy, dout, B, T, C, NH, rt.compute()), op) ||
      // datt = dy v^T; dv = att^T dy
      !s.runGemm(cuda::headProduct(dy, false, v, true, datt, T, T, hs, heads, 1.0f, p), op) ||
      !s.runGemm(cuda::headProduct(att, true, dy, false, dv, T, hs, T, heads, 1.0f, p), op) ||
      !rt.check(
          cuda::causalSoftmaxBackward(dpreatt, att, datt, long(heads) * T, T, scale, rt.compute()),
          op) ||
      // dq = dpreatt k; dk = dpreatt^T q
      !s.runGemm(cuda::headProduct(dpreatt, false, k, false, dq, T, hs, T, heads, 1.0f, p), op) ||
      !s.runGemm(cuda::headProduct(dpreatt, true, q, false, dk, T, hs, T, heads, 1.0f, p), op)) {
    return;
  }
  rt.finishOp(cuda::unpermuteQkv(dqkv, dq, dk, dv, B, T, C, NH, rt.compute()), op);
}

// Optimizer ---------------------------------------------------------------------

double CudaBackend::gradNormSquared(const float* grads, size_t n) {
  State& s = *s_;
  cuda::DeviceRuntime& rt = *s.rt;
  constexpr double kFailed = std::numeric_limits<double>::quiet_NaN();
  if (!rt.ok() || !rt.notCapturing("gradNormSquared")) return kFailed;
  if (!rt.check(cuda::sumOfSquares(s.norm_result, s.norm_partials, grads, n, rt.compute()),
                "grad norm") ||
      !rt.check(cudaMemcpyAsync(s.norm_host, s.norm_result, sizeof(double), cudaMemcpyDeviceToHost,
                                rt.compute()),
                "grad norm") ||
      !rt.check(cudaStreamSynchronize(rt.compute()), "grad norm")) {
    return kFailed;
  }
  return *s.norm_host;
}

void CudaBackend::adamw(float* params, const float* grads, float* m, float* v,
                        const AdamWSegment* segments, int count, const AdamWArgs& args) {
  State& s = *s_;
  cuda::DeviceRuntime& rt = *s.rt;
  if (!rt.ok() || count <= 0) return;
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
    if (!rt.check(cudaStreamSynchronize(rt.compute()), "adamw")) return;
    if (count > s.adamw_capacity) {
      if (s.adamw_table) cudaFree(s.adamw_table);
      if (s.adamw_mirror) cudaFreeHost(s.adamw_mirror);
      s.adamw_table = nullptr, s.adamw_mirror = nullptr, s.adamw_capacity = 0;
      const size_t bytes = sizeof(cuda::AdamWSegmentEntry) * count;
      if (!rt.check(cudaMalloc(&s.adamw_table, bytes), "adamw") ||
          !rt.check(cudaMallocHost(&s.adamw_mirror, bytes), "adamw")) {
        return;
      }
      s.adamw_capacity = count;
    }
    std::copy(entries.begin(), entries.end(), s.adamw_mirror);
    if (!rt.check(
            cudaMemcpyAsync(s.adamw_table, s.adamw_mirror, sizeof(cuda::AdamWSegmentEntry) * count,
                            cudaMemcpyHostToDevice, rt.compute()),
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
  s.op("adamw", [&](cudaStream_t stream) {
    return cuda::adamw(params, grads, m, v, s.adamw_table, count, s.adamw_blocks, k, stream);
  });
}

// CUDA graphs ---------------------------------------------------------------------

Status CudaBackend::beginCapture() {
  return s_->rt->beginCapture();
}

Status CudaBackend::endCapture() {
  return s_->rt->endCapture();
}

Status CudaBackend::replay() {
  return s_->rt->replay();
}

bool CudaBackend::hasGraph() const {
  return s_->rt->hasGraph();
}

}  // namespace damscope::gpt2
