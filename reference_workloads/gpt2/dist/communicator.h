// The ranks of a data-parallel job and the one collective its training step
// needs: the average of every rank's gradients, in place.
//
// One process per rank, started by an external launcher (mpirun, or
// torchrun-style RANK / WORLD_SIZE / LOCAL_RANK). Implementations: MPI on
// the CPU backend (mpi_communicator.h), NCCL on the CUDA backend
// (nccl_communicator.h); a run of one rank has none.
//
// Ordering contract (NCCL's and MPI's: every rank issues the same
// collectives in the same order): startAllReduce may return before the
// reduction is done, and the caller must not touch `data` until wait()
// returns. An all-reduce started after a backend op sees that op's result
// (the CUDA implementation orders its stream after the backend's compute
// stream); ops issued after wait() see every reduced result. The tracer, when
// set, brackets each collective where it runs (the CPU implementation's
// communication thread, the CUDA implementation's enqueue) so that the
// analyzer counts it as communication.
#pragma once

#include <cstddef>

#include "base/result.h"

namespace damscope::gpt2 {

// NVTX ranges around collectives (train/annotations.h implements it).
class CollectiveTracer {
 public:
  virtual ~CollectiveTracer() = default;
  // `collective` is a static name ("all_reduce"); bytes is the payload per rank.
  virtual void beginCollective(const char* collective, size_t bytes, int bucket) = 0;
  virtual void endCollective() = 0;
  // Names the calling thread in the trace ("comm").
  virtual void nameThread(const char* name) = 0;
};

class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual const char* name() const = 0;  // "mpi", "nccl", "single"
  virtual int rank() const = 0;
  virtual int size() const = 0;

  // Starts replacing n floats at `data` (backend memory) with their average
  // over the ranks; `bucket` numbers it for the trace.
  virtual void startAllReduce(float* data, size_t n, int bucket) = 0;
  // Returns when every all-reduce started so far is done (for the CUDA
  // implementation: when the backend's compute stream is ordered after them).
  virtual void wait() = 0;
  // Not owned; null for none. Set before the first collective.
  virtual void setTracer(CollectiveTracer* tracer) = 0;
  // The first error of a collective that failed after it was started (NCCL's
  // are asynchronous); checked by the trainer after every step.
  virtual Status status() const { return okStatus(); }
};

}  // namespace damscope::gpt2
