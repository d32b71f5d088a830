// Data parallel on the CUDA backend: the gradient average as one NCCL
// all-reduce (ncclAvg) per bucket, on a stream of its own that is ordered
// after the backend's compute stream by events, so that communication
// overlaps the backward ops issued after it and the host never blocks.
//
// NCCL is loaded at run time (dlopen of libnccl.so.2, or of the path in
// $DAMSCOPE_NCCL_LIBRARY, as tests/programs/cuda_workload.cu does): the
// trainer builds without NCCL's headers and starts on machines without NCCL,
// and only a multi-rank --device cuda run asks for it. Only the CUDA runtime
// is used, never the driver library.
#pragma once

#include <memory>

#include "reference_workloads/gpt2/dist/communicator.h"
#include "reference_workloads/gpt2/dist/rank_environment.h"
#include "reference_workloads/gpt2/dist/rendezvous.h"
#include "base/result.h"

namespace damscope::gpt2 {

struct NcclApi;  // the NCCL entry points, resolved with dlsym

class NcclCommunicator final : public Communicator {
 public:
  ~NcclCommunicator() override;
  NcclCommunicator(const NcclCommunicator&) = delete;
  NcclCommunicator& operator=(const NcclCommunicator&) = delete;

  const char* name() const override { return "nccl"; }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  // Enqueues; returns at once. Call from any thread, never concurrently.
  // After an error (status()) it enqueues nothing more.
  void startAllReduce(float* data, size_t n, int bucket) override;
  // Orders the compute stream after every all-reduce started so far; the
  // host does not block.
  void wait() override;
  void setTracer(CollectiveTracer* tracer) override { tracer_ = tracer; }

  // The first error of startAllReduce or wait (a CUDA or NCCL call that
  // failed), else an error NCCL reports for the communicator itself (a peer
  // that failed: ncclCommGetAsyncError), else OK. The trainer checks it once
  // a step: errors of enqueued work surface there, not where it was enqueued.
  Status status() const override;

 private:
  friend Result<std::unique_ptr<NcclCommunicator>> createNcclCommunicator(const RankEnvironment&,
                                                                          int, void*,
                                                                          const RendezvousOptions&);
  NcclCommunicator() = default;
  void fail(const std::string& message);

  std::shared_ptr<const NcclApi> api_;
  void* comm_ = nullptr;            // ncclComm_t
  void* compute_stream_ = nullptr;  // cudaStream_t, the backend's; not owned
  void* comm_stream_ = nullptr;     // cudaStream_t, owned
  void* ready_ = nullptr;           // cudaEvent_t: the compute stream's work so far
  void* done_ = nullptr;            // cudaEvent_t: the comm stream's work so far
  int device_ = 0;
  int rank_ = 0;
  int size_ = 1;
  CollectiveTracer* tracer_ = nullptr;
  std::string first_error_;
};

// Joins the job `env` describes on GPU `device` (the caller picks it, usually
// LOCAL_RANK): loads NCCL, makes the device current on the calling thread,
// rank 0 creates NCCL's unique id and hands it over the rendezvous
// (rendezvous.h), and every rank calls ncclCommInitRank, which blocks until
// all ranks have joined. `compute_stream` is the backend's cudaStream_t (null
// for the legacy default stream); it must outlive the communicator.
// Errors say what failed: "NCCL could not be loaded (...)", "nccl: GPU 3:
// cudaSetDevice: invalid device ordinal", "nccl: ncclCommInitRank: ...".
Result<std::unique_ptr<NcclCommunicator>> createNcclCommunicator(
    const RankEnvironment& env, int device, void* compute_stream,
    const RendezvousOptions& rendezvous = {});

}  // namespace damscope::gpt2
