// Which rank of a data-parallel job this process is, read from the variables
// its launcher sets. One process per rank; the trainer never spawns ranks.
//
// torchrun (and any script that imitates it) sets RANK, WORLD_SIZE,
// LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR and MASTER_PORT
// (https://pytorch.org/docs/stable/elastic/run.html, "Environment
// variables"); Open MPI's mpirun sets OMPI_COMM_WORLD_RANK, _SIZE,
// _LOCAL_RANK and _LOCAL_SIZE (https://docs.open-mpi.org/, mpirun(1),
// "Exported environment variables"). When both are present, torchrun's win:
// a torchrun job started under mpirun is a torchrun job.
//
// MASTER_ADDR:MASTER_PORT is where rank 0 hands the other ranks NCCL's
// unique id (rendezvous.h), under either launcher; mpirun does not set them,
// so a multi-node mpirun job of the CUDA backend must export MASTER_ADDR.
#pragma once

#include <functional>
#include <string>

#include "base/result.h"

namespace damscope::gpt2 {

enum class Launcher { kNone, kTorchrun, kMpirun };

struct RankEnvironment {
  int rank = 0;        // in [0, world_size)
  int world_size = 1;  // processes in the job, >= 1
  int local_rank = 0;  // on this node, in [0, local_world_size); picks the GPU
  int local_world_size = 1;
  Launcher launcher = Launcher::kNone;
  std::string master_addr = "127.0.0.1";  // MASTER_ADDR (torchrun), the rendezvous host
  int master_port = 29500;                // MASTER_PORT, torchrun's default
};

// "none", "torchrun", "mpirun".
const char* launcherName(Launcher launcher);

// Reads the environment through `getenv` (std::getenv, or a fabricated one in
// tests; it returns null for an unset variable). Launcher::kNone, one rank,
// when neither RANK/WORLD_SIZE nor OMPI_COMM_WORLD_RANK/_SIZE is set.
// Under torchrun, LOCAL_RANK and LOCAL_WORLD_SIZE default to RANK and
// WORLD_SIZE (one node: what a script that sets only RANK/WORLD_SIZE means).
// Errors name the variable and quote its value: "RANK='x' is not a whole
// number", "RANK=2 is not below WORLD_SIZE=2", "WORLD_SIZE=2 is set but RANK
// is not".
Result<RankEnvironment> rankEnvironment(const std::function<const char*(const char*)>& getenv);

}  // namespace damscope::gpt2
