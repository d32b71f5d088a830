// The CPU backend: fp32, GEMMs through OpenBLAS's CBLAS, the other ops as
// OpenMP loops (cpu/<op>.cc). Memory is ordinary host memory.
#pragma once

#include <cstddef>
#include <mutex>
#include <unordered_map>

#include "reference_workloads/gpt2/model/backend.h"

namespace damscope::gpt2 {

class CpuBackend final : public Backend {
 public:
  // threads: the OpenMP team size of every kernel (> 0). OpenBLAS is set to
  // run each call single-threaded: kernels slice GEMMs over OpenMP threads
  // themselves (cpu/matmul.cc). Process-wide settings: one backend at a time.
  explicit CpuBackend(int threads);
  ~CpuBackend() override;

  const char* name() const override { return "cpu"; }

  void* allocate(size_t bytes) override;
  void release(void* p) noexcept override;
  void upload(void* dst, const void* host_src, size_t bytes) override;
  void download(void* host_dst, const void* src, size_t bytes) override;
  void copy(void* dst, const void* src, size_t bytes) override;
  void synchronize() override {}

  void embeddingForward(float* out, const int32_t* tokens, const float* wte, const float* wpe,
                        int B, int T, int C) override;
  void embeddingBackward(float* dwte, float* dwpe, const float* dout, const int32_t* tokens, int B,
                         int T, int C) override;
  void layernormForward(float* out, float* mean, float* rstd, const float* inp, const float* weight,
                        const float* bias, int rows, int C) override;
  void layernormBackward(float* dinp, float* dweight, float* dbias, const float* dout,
                         const float* inp, const float* weight, const float* mean,
                         const float* rstd, int rows, int C, bool accumulate) override;
  void matmulForward(float* out, const float* inp, const float* weight, const float* bias, int rows,
                     int C, int OC) override;
  void matmulBackward(float* dinp, float* dweight, float* dbias, const float* dout,
                      const float* inp, const float* weight, int rows, int C, int OC) override;
  void attentionForward(float* out, float* preatt, float* att, const float* qkv, int B, int T,
                        int C, int NH) override;
  void attentionBackward(float* dqkv, float* dpreatt, float* datt, const float* dout,
                         const float* qkv, const float* att, int B, int T, int C, int NH) override;
  void geluForward(float* out, const float* inp, size_t n) override;
  void geluBackward(float* dinp, const float* inp, const float* dout, size_t n) override;
  void residualForward(float* out, const float* a, const float* b, size_t n) override;
  void residualBackward(float* da, float* db, const float* dout, size_t n) override;
  void crossentropyForward(float* losses, float* probs, const float* logits, const int32_t* targets,
                           int rows, int V, int Vp) override;
  void crossentropyBackward(float* dlogits, const float* probs, const int32_t* targets, float dloss,
                            int rows, int V, int Vp) override;
  double gradNormSquared(const float* grads, size_t n) override;
  void adamw(float* params, const float* grads, float* m, float* v, const AdamWSegment* segments,
             int count, const AdamWArgs& args) override;

 private:
  std::mutex mutex_;
  std::unordered_map<void*, size_t> mappings_;  // allocate()'s mappings and their sizes
};

}  // namespace damscope::gpt2
