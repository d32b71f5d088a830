// The CPU backend: see cpu_backend.h. Each op forwards to its kernel in
// cpu/<op>.cc.
#include "reference_workloads/gpt2/cpu/cpu_backend.h"

#include <cblas.h>
#include <omp.h>
#include <sys/mman.h>

#include <cstring>

#include "reference_workloads/gpt2/cpu/kernels.h"

namespace damscope::gpt2 {

CpuBackend::CpuBackend(int threads) {
  omp_set_num_threads(threads);
  openblas_set_num_threads(1);
}

CpuBackend::~CpuBackend() {
  for (auto& [p, bytes] : mappings_) munmap(p, bytes);
}

// Anonymous mappings: page-aligned, zero-filled by the kernel, and committed
// page by page as they are first touched, so that allocating the model does
// not write gigabytes before the first step.
void* CpuBackend::allocate(size_t bytes) {
  if (bytes == 0) return nullptr;
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  std::lock_guard lock(mutex_);
  mappings_.emplace(p, bytes);
  return p;
}

void CpuBackend::release(void* p) noexcept {
  std::lock_guard lock(mutex_);
  auto it = mappings_.find(p);
  if (it == mappings_.end()) return;
  munmap(it->first, it->second);
  mappings_.erase(it);
}

void CpuBackend::upload(void* dst, const void* host_src, size_t bytes) {
  std::memcpy(dst, host_src, bytes);
}

void CpuBackend::download(void* host_dst, const void* src, size_t bytes) {
  std::memcpy(host_dst, src, bytes);
}

void CpuBackend::copy(void* dst, const void* src, size_t bytes) { std::memcpy(dst, src, bytes); }

void CpuBackend::embeddingForward(float* out, const int32_t* tokens, const float* wte,
                                  const float* wpe, int B, int T, int C) {
  cpu::embeddingForward(out, tokens, wte, wpe, B, T, C);
}
void CpuBackend::embeddingBackward(float* dwte, float* dwpe, const float* dout,
                                   const int32_t* tokens, int B, int T, int C) {
  cpu::embeddingBackward(dwte, dwpe, dout, tokens, B, T, C);
}
void CpuBackend::layernormForward(float* out, float* mean, float* rstd, const float* inp,
                                  const float* weight, const float* bias, int rows, int C) {
  cpu::layernormForward(out, mean, rstd, inp, weight, bias, rows, C);
}
void CpuBackend::layernormBackward(float* dinp, float* dweight, float* dbias, const float* dout,
                                   const float* inp, const float* weight, const float* mean,
                                   const float* rstd, int rows, int C, bool accumulate) {
  cpu::layernormBackward(dinp, dweight, dbias, dout, inp, weight, mean, rstd, rows, C, accumulate);
}
void CpuBackend::matmulForward(float* out, const float* inp, const float* weight, const float* bias,
                               int rows, int C, int OC) {
  cpu::matmulForward(out, inp, weight, bias, rows, C, OC);
}
void CpuBackend::matmulBackward(float* dinp, float* dweight, float* dbias, const float* dout,
                                const float* inp, const float* weight, int rows, int C, int OC) {
  cpu::matmulBackward(dinp, dweight, dbias, dout, inp, weight, rows, C, OC);
}
void CpuBackend::attentionForward(float* out, float* preatt, float* att, const float* qkv, int B,
                                  int T, int C, int NH) {
  cpu::attentionForward(out, preatt, att, qkv, B, T, C, NH);
}
void CpuBackend::attentionBackward(float* dqkv, float* dpreatt, float* datt, const float* dout,
                                   const float* qkv, const float* att, int B, int T, int C,
                                   int NH) {
  cpu::attentionBackward(dqkv, dpreatt, datt, dout, qkv, att, B, T, C, NH);
}
void CpuBackend::geluForward(float* out, const float* inp, size_t n) {
  cpu::geluForward(out, inp, n);
}
void CpuBackend::geluBackward(float* dinp, const float* inp, const float* dout, size_t n) {
  cpu::geluBackward(dinp, inp, dout, n);
}
void CpuBackend::residualForward(float* out, const float* a, const float* b, size_t n) {
  cpu::residualForward(out, a, b, n);
}
void CpuBackend::residualBackward(float* da, float* db, const float* dout, size_t n) {
  cpu::residualBackward(da, db, dout, n);
}
void CpuBackend::crossentropyForward(float* losses, float* probs, const float* logits,
                                     const int32_t* targets, int rows, int V, int Vp) {
  cpu::crossentropyForward(losses, probs, logits, targets, rows, V, Vp);
}
void CpuBackend::crossentropyBackward(float* dlogits, const float* probs, const int32_t* targets,
                                      float dloss, int rows, int V, int Vp) {
  cpu::crossentropyBackward(dlogits, probs, targets, dloss, rows, V, Vp);
}
double CpuBackend::gradNormSquared(const float* grads, size_t n) {
  return cpu::gradNormSquared(grads, n);
}
void CpuBackend::adamw(float* params, const float* grads, float* m, float* v,
                       const AdamWSegment* segments, int count, const AdamWArgs& args) {
  cpu::adamw(params, grads, m, v, segments, count, args);
}

}  // namespace damscope::gpt2
