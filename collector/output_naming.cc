// Per-process output names: see output_naming.h.
#include "collector/output_naming.h"

#include <cerrno>
#include <cstdlib>
#include <regex>

namespace damscope::collector {
namespace {

int32_t envInt(const GetEnv& getenv, const char* name) {
  const char* value = getenv(name);
  if (!value || !*value) return -1;
  char* end = nullptr;
  errno = 0;
  const long parsed = std::strtol(value, &end, 10);
  if (errno != 0 || *end != '\0' || parsed < 0 || parsed > INT32_MAX) return -1;
  return static_cast<int32_t>(parsed);
}

int32_t firstSet(std::initializer_list<int32_t> values) {
  for (int32_t v : values) {
    if (v >= 0) return v;
  }
  return -1;
}

}  // namespace

RankInfo rankFromEnvironment(const GetEnv& getenv) {
  const int32_t rank = envInt(getenv, "RANK");
  const int32_t local_rank = envInt(getenv, "LOCAL_RANK");
  const int32_t ompi_rank = envInt(getenv, "OMPI_COMM_WORLD_RANK");
  // srun sets these for every task it starts (Slurm's srun(1), "OUTPUT
  // ENVIRONMENT VARIABLES"); last, so that torchrun's or mpirun's own
  // variables win inside an allocation.
  const int32_t slurm_rank = envInt(getenv, "SLURM_PROCID");
  RankInfo info;
  info.rank = firstSet({rank, local_rank, ompi_rank, slurm_rank});
  info.global_rank = firstSet({rank, ompi_rank, slurm_rank});
  info.local_rank = firstSet({local_rank, envInt(getenv, "OMPI_COMM_WORLD_LOCAL_RANK"),
                              envInt(getenv, "SLURM_LOCALID")});
  info.world_size = firstSet({envInt(getenv, "WORLD_SIZE"), envInt(getenv, "OMPI_COMM_WORLD_SIZE"),
                              envInt(getenv, "SLURM_NTASKS")});
  return info;
}

std::string outputStem(const std::string& base) {
  const std::string suffix = ".db";
  if (base.size() > suffix.size() &&
      base.compare(base.size() - suffix.size(), suffix.size(), suffix) == 0) {
    return base.substr(0, base.size() - suffix.size());
  }
  return base;
}

std::vector<std::string> runOutputCandidates(const std::string& base, const RankInfo& rank,
                                             int64_t pid) {
  const std::string stem = outputStem(base);
  const std::string with_pid = ".pid" + std::to_string(pid);
  if (rank.rank >= 0) {
    const std::string ranked = stem + ".rank" + std::to_string(rank.rank);
    return {ranked + ".db", ranked + with_pid + ".db"};
  }
  return {stem + ".db", stem + with_pid + ".db"};
}

std::vector<std::string> captureOutputCandidates(const std::string& base, const RankInfo& rank,
                                                 int64_t pid, int number) {
  std::string stem = outputStem(base);
  if (rank.rank >= 0) stem += ".rank" + std::to_string(rank.rank);
  const std::string capture = ".capture" + std::to_string(number) + ".db";
  return {stem + capture, stem + ".pid" + std::to_string(pid) + capture};
}

bool isOutputOf(const std::string& stem_name, const std::string& name) {
  if (name == stem_name + ".db") return true;
  if (name.compare(0, stem_name.size() + 1, stem_name + ".") != 0) return false;
  static const std::regex kSuffix(R"(^(rank[0-9]+\.)?(pid[0-9]+\.)?(capture[0-9]+\.)?db$)");
  const std::string rest = name.substr(stem_name.size() + 1);
  return rest != "db" && std::regex_match(rest, kSuffix);
}

bool isOutputOfRank(const std::string& stem_name, const std::string& name, int32_t rank) {
  const std::string prefix = stem_name + ".rank" + std::to_string(rank) + ".";
  return isOutputOf(stem_name, name) && name.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace damscope::collector
