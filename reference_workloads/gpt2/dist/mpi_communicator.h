// Data parallel on the CPU backend: MPI (Open MPI from Debian) under
// `mpirun -np N`, one process per rank.
//
// Every MPI call runs on one communication thread that this class owns (it
// calls MPI_Init_thread with MPI_THREAD_FUNNELED, so it is the MPI "main"
// thread). startAllReduce queues the bucket and returns; the thread runs
// MPI_Allreduce (sum, in place) on each queued bucket in order, divides by
// the number of ranks, and wait() blocks until the queue is empty. So an
// all-reduce started during the backward pass (--overlap) runs beside the
// compute threads, as NCCL's run beside the compute stream on a GPU, and the
// trace shows it on its own thread, named "comm", inside an NVTX range of
// domain "damscope" (CollectiveTracer) that the analyzer counts as
// communication.
//
// Open MPI is asked to yield the core while a collective waits
// (OMPI_MCA_mpi_yield_when_idle=1, unless the environment says otherwise):
// the communication thread shares the cores with the compute threads.
//
// The gradients are CPU memory (the CPU backend's), so MPI reads and writes
// them directly.
#pragma once

#include <memory>

#include "reference_workloads/gpt2/dist/communicator.h"
#include "base/result.h"

namespace damscope::gpt2 {

// Whether this build has MPI.
bool mpiBuiltIn();

// Starts the communication thread and initialises MPI on it; an error when
// MPI is not built in or its initialisation fails.
Result<std::unique_ptr<Communicator>> createMpiCommunicator();

}  // namespace damscope::gpt2
