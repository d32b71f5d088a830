// The CUDA backend of the GPT-2 trainer: a second implementation of
// model/backend.h beside the CPU one. fp32 buffers and fp32 master weights;
// GEMMs in cuBLASLt at the chosen precision (precision.h); own kernels for
// the other ops (kernels.h, one .cu per family); attention naive
// (materialised T x T, batched GEMMs) or fused (FlashAttention-2 style,
// flash_attention.cu). Plain C++20, no CUDA header: the trainer includes it
// with g++.
//
// Streams: every op is enqueued on one compute stream (computeStream(), which
// NCCL orders itself after); uploads from pinned staging run on a copy
// stream that the compute stream waits for by event. Ops return nothing: the
// first CUDA or cuBLAS error is kept, later ops are skipped, and status()
// reports it (the trainer checks it after each step). download() and
// gradNormSquared() wait for the compute stream; gradNormSquared returns NaN
// once an error is kept.
//
// Fused attention keeps each row's logsumexp, (B, NH, T) floats, in the first
// floats of `att`; the rest of att, and preatt, are not touched. It needs a
// head size whose tiles fit in 48 KiB of shared memory (hs <= 128 fits).
//
// The naive attention's batched GEMMs run at fp32, or tf32 under both tf32
// and bf16 (precision_gemm.h says why); the linear layers at the precision
// asked.
//
// Not thread-safe: one thread issues the ops (the CUDA device is made
// current on the thread that calls create()). While a graph is captured no
// other thread may use the legacy default stream (the compute stream
// synchronises with it, which a capture refuses).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "reference_workloads/gpt2/cuda/precision.h"
#include "reference_workloads/gpt2/model/backend.h"
#include "base/result.h"

namespace damscope::gpt2 {

struct CudaOptions {
  int device = 0;  // CUDA ordinal (the trainer passes LOCAL_RANK)
  Precision precision = Precision::kFp32;
  AttentionKind attention = AttentionKind::kFused;
  // false: upload() copies from the caller's pageable memory with a plain
  // cudaMemcpy (the pageable-copies scenario)
  bool pinned_copies = true;
  // true: the host waits for the device after every op (the sync-every-step
  // scenario); ignored while a graph is being captured
  bool sync_every_op = false;
};

struct CudaDeviceInfo {
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sms = 0;
  uint64_t total_memory_bytes = 0, free_memory_bytes = 0;
  // dense peak at the asked precision from NVIDIA's datasheets
  // (device_peaks.h); 0 when the GPU is not in the table
  double peak_flops_per_s = 0;
  // memory clock x bus width x 2 (double data rate), from the device attributes
  double bandwidth_bytes_per_s = 0;
};

// The device's description; an Error ("no CUDA device: <reason>", "CUDA
// device 3 of 2", ...) where there is no GPU or driver.
Result<CudaDeviceInfo> probeCudaDevice(int device, Precision precision);

class CudaBackend final : public Backend {
 public:
  // Makes `options.device` current, creates the streams, events and the
  // cuBLASLt handle and workspace. An Error without a usable device.
  static Result<std::unique_ptr<CudaBackend>> create(const CudaOptions& options);
  ~CudaBackend() override;
  CudaBackend(const CudaBackend&) = delete;
  CudaBackend& operator=(const CudaBackend&) = delete;

  const char* name() const override { return "cuda"; }

  void* allocate(size_t bytes) override;
  void release(void* p) noexcept override;
  void upload(void* dst, const void* host_src, size_t bytes) override;
  void download(void* host_dst, const void* src, size_t bytes) override;
  void copy(void* dst, const void* src, size_t bytes) override;
  void synchronize() override;

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

  // The first error any op met, or ok.
  Status status() const;
  // The cudaStream_t every op runs on.
  void* computeStream() const;

  // CUDA graphs: beginCapture(), the ops of forward + backward (no download,
  // gradNormSquared, upload or synchronize in between: they are host points
  // and fail the capture), endCapture(), then replay() each step, the first
  // included. A new capture replaces the graph.
  Status beginCapture();
  Status endCapture();
  Status replay();
  bool hasGraph() const;

 private:
  struct State;
  explicit CudaBackend(std::unique_ptr<State> state);
  std::unique_ptr<State> s_;
};

}  // namespace damscope::gpt2
