// The CUDA backend's device runtime: the streams, events, pinned staging,
// scratch and CUDA graph that every op of cuda_backend.cc runs on, and the
// first-error rule of cuda_backend.h (the first CUDA or cuBLAS error is
// kept, later ops are skipped, status() reports it).
//
// Streams: ops are enqueued on the compute stream, a blocking stream (it
// synchronises with the legacy default stream, so that the pageable path's
// plain cudaMemcpy is ordered with the ops on both sides). Uploads from
// pinned staging run on a non-blocking copy stream that the compute stream
// waits for by event.
//
// Not thread-safe, like the backend: one thread issues the ops.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <vector>

#include "base/result.h"

namespace damscope::gpt2::cuda {

class DeviceRuntime {
 public:
  // Makes `device` current and creates the streams and events, and with
  // `pinned_copies` the pinned staging of upload(). `sync_every_op`: the
  // host waits for the device after every op (outside a capture).
  static Result<std::unique_ptr<DeviceRuntime>> create(int device, bool pinned_copies,
                                                       bool sync_every_op);
  ~DeviceRuntime();
  DeviceRuntime(const DeviceRuntime&) = delete;
  DeviceRuntime& operator=(const DeviceRuntime&) = delete;

  cudaStream_t compute() const { return compute_; }

  // The first error, or ok; fail() keeps `error` when it is the first.
  const Status& status() const { return first_error_; }
  bool ok() const { return first_error_.ok(); }
  void fail(Error error);
  // Keeps the first error; true when `e` is success.
  bool check(cudaError_t e, const char* what);
  // After an op's launches: its launch error, then (sync-every-op) the wait.
  void finishOp(cudaError_t e, const char* op);
  // Host points (a host wait or a host-side copy) cannot be captured: false,
  // and the error kept, while a capture is open.
  bool notCapturing(const char* what);

  // At least `bytes` of device scratch (256-byte aligned), or null with the
  // error kept. Grown on demand; a buffer a graph may reference is kept
  // (retired) until the graph is replaced.
  char* scratchOf(size_t bytes);

  // Backend's memory and copies (model/backend.h).
  void* allocate(size_t bytes);
  void upload(void* dst, const void* host_src, size_t bytes);
  void download(void* host_dst, const void* src, size_t bytes);
  void copy(void* dst, const void* src, size_t bytes);
  void synchronize();

  // CUDA graphs of the compute stream (cuda_backend.h).
  Status beginCapture();
  Status endCapture();
  Status replay();
  bool capturing() const { return capturing_; }
  bool hasGraph() const { return graph_ != nullptr; }

 private:
  // Pinned staging for upload(): two slots used in turn, so that the host
  // fills one while the copy stream drains the other. 4 MiB per copy is well
  // past the size where pinned H2D copies reach their full PCIe rate (Harris,
  // "How to Optimize Data Transfers in CUDA C/C++", NVIDIA blog 2012).
  static constexpr size_t kStagingBytes = size_t(4) << 20;
  static constexpr int kStagingSlots = 2;

  DeviceRuntime() = default;
  void dropGraph();

  bool pinned_copies_ = true;
  bool sync_every_op_ = false;
  cudaStream_t compute_ = nullptr, copy_ = nullptr;
  cudaEvent_t compute_ready_ = nullptr, copy_done_ = nullptr;
  cudaEvent_t staging_free_[kStagingSlots] = {};
  void* staging_[kStagingSlots] = {};
  void* scratch_ = nullptr;
  size_t scratch_bytes_ = 0;
  std::vector<void*> retired_;
  Status first_error_;
  bool capturing_ = false;
  cudaGraphExec_t graph_ = nullptr;
};

}  // namespace damscope::gpt2::cuda
