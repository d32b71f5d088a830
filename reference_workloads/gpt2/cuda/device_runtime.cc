// The CUDA backend's device runtime: see device_runtime.h.
#include "reference_workloads/gpt2/cuda/device_runtime.h"

#include <cuda_runtime.h>  // the typed cudaMalloc / cudaMallocHost overloads

#include <algorithm>
#include <cstring>
#include <string>

namespace damscope::gpt2::cuda {

Result<std::unique_ptr<DeviceRuntime>> DeviceRuntime::create(int device, bool pinned_copies,
                                                             bool sync_every_op) {
  std::unique_ptr<DeviceRuntime> rt(new DeviceRuntime());
  rt->pinned_copies_ = pinned_copies;
  rt->sync_every_op_ = sync_every_op;
  auto must = [](cudaError_t e, const char* what) -> Status {
    if (e == cudaSuccess) return okStatus();
    return Error(std::string("CUDA backend: ") + what + ": " + cudaGetErrorString(e),
                 ErrorCode::kFailure);
  };
  DAMSCOPE_RETURN_IF_ERROR(must(cudaSetDevice(device), "cudaSetDevice"));
  DAMSCOPE_RETURN_IF_ERROR(must(cudaStreamCreate(&rt->compute_), "compute stream"));
  DAMSCOPE_RETURN_IF_ERROR(
      must(cudaStreamCreateWithFlags(&rt->copy_, cudaStreamNonBlocking), "copy stream"));
  DAMSCOPE_RETURN_IF_ERROR(
      must(cudaEventCreateWithFlags(&rt->compute_ready_, cudaEventDisableTiming), "event"));
  DAMSCOPE_RETURN_IF_ERROR(
      must(cudaEventCreateWithFlags(&rt->copy_done_, cudaEventDisableTiming), "event"));
  if (pinned_copies) {
    for (int i = 0; i < kStagingSlots; ++i) {
      DAMSCOPE_RETURN_IF_ERROR(
          must(cudaEventCreateWithFlags(&rt->staging_free_[i], cudaEventDisableTiming), "event"));
      DAMSCOPE_RETURN_IF_ERROR(
          must(cudaMallocHost(&rt->staging_[i], kStagingBytes), "pinned staging buffer"));
    }
  }
  return rt;
}

DeviceRuntime::~DeviceRuntime() {
  if (compute_) cudaStreamSynchronize(compute_);
  if (capturing_) {
    cudaGraph_t unfinished = nullptr;
    cudaStreamEndCapture(compute_, &unfinished);
    if (unfinished) cudaGraphDestroy(unfinished);
  }
  if (graph_) cudaGraphExecDestroy(graph_);
  for (void* p : retired_) cudaFree(p);
  if (scratch_) cudaFree(scratch_);
  for (int i = 0; i < kStagingSlots; ++i) {
    if (staging_[i]) cudaFreeHost(staging_[i]);
    if (staging_free_[i]) cudaEventDestroy(staging_free_[i]);
  }
  if (compute_ready_) cudaEventDestroy(compute_ready_);
  if (copy_done_) cudaEventDestroy(copy_done_);
  if (copy_) cudaStreamDestroy(copy_);
  if (compute_) cudaStreamDestroy(compute_);
}

void DeviceRuntime::fail(Error error) {
  if (ok()) first_error_ = Status(std::move(error));
}

bool DeviceRuntime::check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  fail(Error(std::string(what) + ": " + cudaGetErrorString(e), ErrorCode::kFailure));
  return false;
}

void DeviceRuntime::finishOp(cudaError_t e, const char* op) {
  if (!check(e, op)) return;
  if (sync_every_op_ && !capturing_) check(cudaStreamSynchronize(compute_), op);
}

bool DeviceRuntime::notCapturing(const char* what) {
  if (!capturing_) return true;
  fail(Error(std::string(what) + " during CUDA graph capture: only device ops may be captured",
             ErrorCode::kFailure));
  return false;
}

char* DeviceRuntime::scratchOf(size_t bytes) {
  if (bytes <= scratch_bytes_) return static_cast<char*>(scratch_);
  if (scratch_) {
    // cudaFree waits for the kernels still using it; a graph, captured or
    // being captured, keeps its address, so that buffer is kept.
    if (capturing_ || graph_) {
      retired_.push_back(scratch_);
    } else {
      cudaFree(scratch_);
    }
    scratch_ = nullptr;
    scratch_bytes_ = 0;
  }
  if (!check(cudaMalloc(&scratch_, bytes), "scratch allocation")) return nullptr;
  scratch_bytes_ = bytes;
  return static_cast<char*>(scratch_);
}

void DeviceRuntime::dropGraph() {
  if (graph_) cudaGraphExecDestroy(graph_);
  graph_ = nullptr;
  for (void* p : retired_) cudaFree(p);
  retired_.clear();
}

// Memory and copies ------------------------------------------------------------

void* DeviceRuntime::allocate(size_t bytes) {
  if (bytes == 0) return nullptr;
  void* p = nullptr;
  if (cudaMalloc(&p, bytes) != cudaSuccess) {
    cudaGetLastError();  // out of memory is not sticky: leave no error for the next call
    return nullptr;
  }
  // On the compute stream, so that every later op (and upload, which waits
  // for the compute stream) sees the zeros.
  if (!check(cudaMemsetAsync(p, 0, bytes, compute_), "allocate")) {
    cudaFree(p);
    return nullptr;
  }
  return p;
}

void DeviceRuntime::upload(void* dst, const void* host_src, size_t bytes) {
  if (!ok() || bytes == 0 || !notCapturing("upload")) return;
  if (!pinned_copies_) {
    // The pageable path: cudaMemcpy stages through the driver's own pinned
    // buffer and returns when the copy is done (CUDA Runtime API,
    // "API synchronization behavior").
    check(cudaMemcpy(dst, host_src, bytes, cudaMemcpyHostToDevice), "upload");
    return;
  }
  // The copy may overwrite memory that ops already enqueued still read.
  if (!check(cudaEventRecord(compute_ready_, compute_), "upload") ||
      !check(cudaStreamWaitEvent(copy_, compute_ready_, 0), "upload")) {
    return;
  }
  const auto* src = static_cast<const char*>(host_src);
  auto* out = static_cast<char*>(dst);
  for (size_t offset = 0, chunk = 0; offset < bytes; offset += kStagingBytes, ++chunk) {
    const int slot = static_cast<int>(chunk % kStagingSlots);
    const size_t n = std::min(kStagingBytes, bytes - offset);
    // The slot's previous copy must have drained before the host refills it.
    if (!check(cudaEventSynchronize(staging_free_[slot]), "upload")) return;
    std::memcpy(staging_[slot], src + offset, n);
    if (!check(cudaMemcpyAsync(out + offset, staging_[slot], n, cudaMemcpyHostToDevice, copy_),
               "upload") ||
        !check(cudaEventRecord(staging_free_[slot], copy_), "upload")) {
      return;
    }
  }
  check(cudaEventRecord(copy_done_, copy_), "upload");
  check(cudaStreamWaitEvent(compute_, copy_done_, 0), "upload");
}

void DeviceRuntime::download(void* host_dst, const void* src, size_t bytes) {
  if (!ok() || bytes == 0 || !notCapturing("download")) return;
  if (!check(cudaStreamSynchronize(compute_), "download")) return;
  check(cudaMemcpy(host_dst, src, bytes, cudaMemcpyDeviceToHost), "download");
}

void DeviceRuntime::copy(void* dst, const void* src, size_t bytes) {
  if (!ok() || bytes == 0) return;
  finishOp(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, compute_), "copy");
}

void DeviceRuntime::synchronize() {
  if (!ok() || !notCapturing("synchronize")) return;
  check(cudaStreamSynchronize(compute_), "synchronize");
}

// CUDA graphs --------------------------------------------------------------------

Status DeviceRuntime::beginCapture() {
  if (!ok()) return first_error_;
  if (capturing_) return Error("beginCapture: a capture is already open", ErrorCode::kFailure);
  dropGraph();
  // Relaxed: the ops may grow their scratch (cudaMalloc) while capturing,
  // which the stricter modes refuse (CUDA Runtime API, cudaStreamCaptureMode).
  if (!check(cudaStreamBeginCapture(compute_, cudaStreamCaptureModeRelaxed), "beginCapture")) {
    return first_error_;
  }
  capturing_ = true;
  return okStatus();
}

Status DeviceRuntime::endCapture() {
  if (!capturing_) return Error("endCapture without beginCapture", ErrorCode::kFailure);
  capturing_ = false;
  cudaGraph_t graph = nullptr;
  // Ends the capture even after an op failed inside it, so the stream is usable.
  const cudaError_t ended = cudaStreamEndCapture(compute_, &graph);
  if (!ok()) {
    if (graph) cudaGraphDestroy(graph);
    return first_error_;
  }
  if (!check(ended, "endCapture")) return first_error_;
  const cudaError_t made = cudaGraphInstantiate(&graph_, graph, 0);
  cudaGraphDestroy(graph);
  if (!check(made, "cudaGraphInstantiate")) {
    graph_ = nullptr;
    return first_error_;
  }
  return okStatus();
}

Status DeviceRuntime::replay() {
  if (!ok()) return first_error_;
  if (!graph_) return Error("replay: no CUDA graph was captured", ErrorCode::kFailure);
  finishOp(cudaGraphLaunch(graph_, compute_), "cudaGraphLaunch");
  return first_error_;
}

}  // namespace damscope::gpt2::cuda
