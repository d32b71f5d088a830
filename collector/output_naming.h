// Which file each recorded process writes.
//
// `damscope record -o run.db -- CMD` may start one process or many (torchrun,
// mpirun, a shell script). Each process writes its own file, named from the
// base `run.db` (stem "run"):
//   rank from RANK, else LOCAL_RANK, else OMPI_COMM_WORLD_RANK -> run.rank<N>.db
//   no rank: the first process                                  -> run.db
//            any later process                                  -> run.pid<PID>.db
// and the capture windows of `damscope attach` (one file each):
//   run[.rank<N>].capture<K>.db, K = 1, 2, ... per process.
// Names are claimed with O_EXCL, so a taken name moves on to the next
// candidate (a rank's second process gets run.rank<N>.pid<PID>.db) and no two
// processes ever share a file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "collector/collector_config.h"

namespace damscope::collector {

// What the launcher's environment says about this process's place in a job.
struct RankInfo {
  int32_t rank = -1;  // RANK, LOCAL_RANK, OMPI_COMM_WORLD_RANK or SLURM_PROCID (first set); -1: none
  int32_t global_rank = -1;  // RANK, OMPI_COMM_WORLD_RANK or SLURM_PROCID
  int32_t local_rank = -1;   // LOCAL_RANK, OMPI_COMM_WORLD_LOCAL_RANK or SLURM_LOCALID
  int32_t world_size = -1;   // WORLD_SIZE, OMPI_COMM_WORLD_SIZE or SLURM_NTASKS
};
RankInfo rankFromEnvironment(const GetEnv& getenv);

// "dir/run.db" -> "dir/run"; a base without ".db" is its own stem.
std::string outputStem(const std::string& base);

// The names to try, in order, for the whole-run file of this process.
std::vector<std::string> runOutputCandidates(const std::string& base, const RankInfo& rank,
                                             int64_t pid);
// The names to try for capture window `number` (1-based) of this process.
std::vector<std::string> captureOutputCandidates(const std::string& base, const RankInfo& rank,
                                                 int64_t pid, int number);

// True when `name` (a file name, no directory) is one this scheme produces
// for the stem `stem_name` (also without directory): record uses it to list
// and, with --force, remove the files of an earlier run.
bool isOutputOf(const std::string& stem_name, const std::string& name);

// True when `name` is an output of rank `rank`'s processes: run.rank<N>.db
// and its .pid/.capture variants. A `damscope record` that runs as one rank
// of a job (`mpirun damscope record -o run.db -- CMD`: every rank has its own
// record) owns only these; the other ranks' files are their records'.
bool isOutputOfRank(const std::string& stem_name, const std::string& name, int32_t rank);

}  // namespace damscope::collector
