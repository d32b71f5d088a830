// The NCCL communicator of nccl_communicator.h: NCCL's entry points found
// with dlsym, the rendezvous for the unique id, and the two events that
// order the communication stream after the compute stream and back.
#include "reference_workloads/gpt2/dist/nccl_communicator.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace damscope::gpt2 {

// The few NCCL entry points used, declared by hand so that the build needs
// no nccl.h: handles are pointers, enums are ints (the x86-64 and AArch64
// ABIs pass an enum as an int), ncclUniqueId is 128 bytes
// (NCCL_UNIQUE_ID_BYTES). Values from nccl.h, unchanged since NCCL 2.10.
// ncclGetLastError takes a null communicator ("currently unused and can be
// set to NULL", NCCL 2.16 API docs).
struct NcclApi {
  using Comm = void*;
  struct UniqueId {
    char internal[128];
  };
  static constexpr int kSuccess = 0;     // ncclSuccess
  static constexpr int kInProgress = 7;  // ncclInProgress
  static constexpr int kFloat32 = 7;     // ncclFloat32
  static constexpr int kAvg = 4;         // ncclAvg
  // The newest entry point used, ncclCommFinalize, arrived in NCCL 2.14
  // (its release notes; ncclAvg in 2.10). NCCL_VERSION_CODE is major * 10000
  // + minor * 100 + patch from 2.9 on, so 2.14.0 is 21400.
  static constexpr int kMinVersion = 21400;

  int (*getVersion)(int*) = nullptr;
  int (*getUniqueId)(UniqueId*) = nullptr;
  int (*commInitRank)(Comm*, int, UniqueId, int) = nullptr;
  int (*allReduce)(const void*, void*, size_t, int, int, Comm, cudaStream_t) = nullptr;
  int (*commGetAsyncError)(Comm, int*) = nullptr;
  int (*commFinalize)(Comm) = nullptr;
  int (*commDestroy)(Comm) = nullptr;
  int (*commAbort)(Comm) = nullptr;
  const char* (*getErrorString)(int) = nullptr;
  const char* (*getLastError)(Comm) = nullptr;

  // NCCL's name for `result`, and what it last said about `comm`.
  std::string describe(int result, Comm comm) const {
    std::string text = getErrorString(result);
    const char* last = getLastError(comm);
    if (last != nullptr && *last != '\0') text += std::string(" (") + last + ")";
    return text;
  }
};

namespace {

template <typename Function>
bool resolve(void* library, const char* symbol, Function& function) {
  function = reinterpret_cast<Function>(dlsym(library, symbol));
  return function != nullptr;
}

// The library handle is never closed: NCCL keeps threads and CUDA state
// that outlive a communicator, and dlopen of a loaded library only counts.
Result<std::shared_ptr<const NcclApi>> loadNccl() {
  const char* configured = std::getenv("DAMSCOPE_NCCL_LIBRARY");
  const std::string path =
      configured != nullptr && *configured != '\0' ? configured : "libnccl.so.2";
  const std::string advice =
      "; install NCCL (e.g. pip install nvidia-nccl-cu13) or set DAMSCOPE_NCCL_LIBRARY to the path "
      "of libnccl.so.2";
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr)
    return Error(std::string("NCCL could not be loaded (") + dlerror() + ")" + advice);
  auto api = std::make_shared<NcclApi>();
  for (const auto& [symbol, found] : {
           std::pair{"ncclGetVersion", resolve(library, "ncclGetVersion", api->getVersion)},
           std::pair{"ncclGetUniqueId", resolve(library, "ncclGetUniqueId", api->getUniqueId)},
           std::pair{"ncclCommInitRank", resolve(library, "ncclCommInitRank", api->commInitRank)},
           std::pair{"ncclAllReduce", resolve(library, "ncclAllReduce", api->allReduce)},
           std::pair{"ncclCommGetAsyncError",
                     resolve(library, "ncclCommGetAsyncError", api->commGetAsyncError)},
           std::pair{"ncclCommFinalize", resolve(library, "ncclCommFinalize", api->commFinalize)},
           std::pair{"ncclCommDestroy", resolve(library, "ncclCommDestroy", api->commDestroy)},
           std::pair{"ncclCommAbort", resolve(library, "ncclCommAbort", api->commAbort)},
           std::pair{"ncclGetErrorString",
                     resolve(library, "ncclGetErrorString", api->getErrorString)},
           std::pair{"ncclGetLastError", resolve(library, "ncclGetLastError", api->getLastError)},
       }) {
    if (!found)
      return Error("NCCL could not be loaded (" + path + " has no " + symbol +
                   ": NCCL 2.14 or newer is needed)" + advice);
  }
  int version = 0;
  if (api->getVersion(&version) != NcclApi::kSuccess || version < NcclApi::kMinVersion)
    return Error("NCCL could not be loaded (" + path + " is version code " +
                 std::to_string(version) + ", older than 2.14)" + advice);
  return std::shared_ptr<const NcclApi>(std::move(api));
}

std::string cudaFailure(const char* call, cudaError_t e) {
  return std::string(call) + ": " + cudaGetErrorString(e);
}

}  // namespace

Result<std::unique_ptr<NcclCommunicator>> createNcclCommunicator(
    const RankEnvironment& env, int device, void* compute_stream,
    const RendezvousOptions& rendezvous) {
  DAMSCOPE_ASSIGN_OR_RETURN(std::shared_ptr<const NcclApi> api, loadNccl());
  const std::string where =
      "nccl: rank " + std::to_string(env.rank) + " on GPU " + std::to_string(device);
  auto failed = [&where](const std::string& what) {
    return Error(where + ": " + what, ErrorCode::kFailure);
  };
  if (cudaError_t e = cudaSetDevice(device); e != cudaSuccess)
    return failed(cudaFailure("cudaSetDevice", e));

  std::unique_ptr<NcclCommunicator> comm(new NcclCommunicator());
  comm->api_ = api;
  comm->device_ = device;
  comm->rank_ = env.rank;
  comm->size_ = env.world_size;
  comm->compute_stream_ = compute_stream;
  // Non-blocking: the communication stream does not synchronize with the
  // legacy default stream (CUDA Runtime API, "Stream synchronization
  // behavior"), only with the events below.
  cudaStream_t stream = nullptr;
  if (cudaError_t e = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking); e != cudaSuccess)
    return failed(cudaFailure("cudaStreamCreateWithFlags", e));
  comm->comm_stream_ = stream;
  // Timing off: the events only order streams, and timing-disabled events
  // are the cheap ones (CUDA Runtime API, cudaEventCreateWithFlags).
  for (void** slot : {&comm->ready_, &comm->done_}) {
    cudaEvent_t event = nullptr;
    if (cudaError_t e = cudaEventCreateWithFlags(&event, cudaEventDisableTiming); e != cudaSuccess)
      return failed(cudaFailure("cudaEventCreateWithFlags", e));
    *slot = event;
  }

  NcclApi::UniqueId id{};
  std::vector<uint8_t> blob;
  if (env.rank == 0) {
    if (int r = api->getUniqueId(&id); r != NcclApi::kSuccess)
      return failed("ncclGetUniqueId: " + api->describe(r, nullptr));
    blob.assign(reinterpret_cast<const uint8_t*>(&id),
                reinterpret_cast<const uint8_t*>(&id) + sizeof id);
  }
  DAMSCOPE_ASSIGN_OR_RETURN(blob, shareFromRankZero(env, blob, rendezvous));
  if (blob.size() != sizeof id)
    return failed("rank 0 sent a " + std::to_string(blob.size()) + "-byte unique id, not " +
                  std::to_string(sizeof id));
  std::memcpy(&id, blob.data(), sizeof id);
  if (int r = api->commInitRank(&comm->comm_, env.world_size, id, env.rank); r != NcclApi::kSuccess)
    return failed("ncclCommInitRank (" + std::to_string(env.world_size) +
                  " ranks): " + api->describe(r, comm->comm_));
  return comm;
}

NcclCommunicator::~NcclCommunicator() {
  cudaSetDevice(device_);
  if (comm_ != nullptr) {
    // A healthy communicator finishes what was enqueued (ncclCommFinalize,
    // then ncclCommDestroy, as NCCL's docs order them); a failed one is
    // aborted, since finalizing would wait on peers that may be gone.
    if (status().ok() && api_->commFinalize(comm_) == NcclApi::kSuccess)
      api_->commDestroy(comm_);
    else
      api_->commAbort(comm_);
  }
  if (comm_stream_ != nullptr) cudaStreamSynchronize(static_cast<cudaStream_t>(comm_stream_));
  for (void* event : {ready_, done_})
    if (event != nullptr) cudaEventDestroy(static_cast<cudaEvent_t>(event));
  if (comm_stream_ != nullptr) cudaStreamDestroy(static_cast<cudaStream_t>(comm_stream_));
}

void NcclCommunicator::fail(const std::string& message) {
  if (first_error_.empty())
    first_error_ = "nccl: rank " + std::to_string(rank_) + " on GPU " + std::to_string(device_) +
                   ": " + message;
}

void NcclCommunicator::startAllReduce(float* data, size_t n, int bucket) {
  if (!first_error_.empty()) return;
  auto compute = static_cast<cudaStream_t>(compute_stream_);
  auto stream = static_cast<cudaStream_t>(comm_stream_);
  auto ready = static_cast<cudaEvent_t>(ready_);
  // The device is per host thread (CUDA Runtime API, cudaSetDevice), and
  // the caller's thread need not be the one that created the communicator.
  if (cudaError_t e = cudaSetDevice(device_); e != cudaSuccess)
    return fail(cudaFailure("cudaSetDevice", e));
  // The reduction reads what the compute stream wrote: the comm stream
  // waits for everything enqueued on it so far.
  if (cudaError_t e = cudaEventRecord(ready, compute); e != cudaSuccess)
    return fail(cudaFailure("cudaEventRecord", e));
  if (cudaError_t e = cudaStreamWaitEvent(stream, ready, 0); e != cudaSuccess)
    return fail(cudaFailure("cudaStreamWaitEvent", e));
  if (tracer_ != nullptr) tracer_->beginCollective("all_reduce", n * sizeof(float), bucket);
  const int r = api_->allReduce(data, data, n, NcclApi::kFloat32, NcclApi::kAvg, comm_, stream);
  if (tracer_ != nullptr) tracer_->endCollective();
  if (r != NcclApi::kSuccess)
    fail("ncclAllReduce of bucket " + std::to_string(bucket) + " (" + std::to_string(n) +
         " floats): " + api_->describe(r, comm_));
}

void NcclCommunicator::wait() {
  if (!first_error_.empty()) return;
  auto done = static_cast<cudaEvent_t>(done_);
  if (cudaError_t e = cudaSetDevice(device_); e != cudaSuccess)
    return fail(cudaFailure("cudaSetDevice", e));
  // The compute stream, not the host, waits: ops enqueued after this see
  // every reduced bucket.
  if (cudaError_t e = cudaEventRecord(done, static_cast<cudaStream_t>(comm_stream_));
      e != cudaSuccess)
    return fail(cudaFailure("cudaEventRecord", e));
  if (cudaError_t e = cudaStreamWaitEvent(static_cast<cudaStream_t>(compute_stream_), done, 0);
      e != cudaSuccess)
    return fail(cudaFailure("cudaStreamWaitEvent", e));
}

Status NcclCommunicator::status() const {
  if (!first_error_.empty()) return Error(first_error_, ErrorCode::kFailure);
  int async = NcclApi::kSuccess;
  const int r = api_->commGetAsyncError(comm_, &async);
  if (r != NcclApi::kSuccess) async = r;
  // ncclInProgress is a non-blocking communicator's "not yet"; this one is
  // blocking, but the state is no failure either way.
  if (async != NcclApi::kSuccess && async != NcclApi::kInProgress)
    return Error("nccl: rank " + std::to_string(rank_) + " on GPU " + std::to_string(device_) +
                     ": " + api_->describe(async, comm_),
                 ErrorCode::kFailure);
  return okStatus();
}

}  // namespace damscope::gpt2
