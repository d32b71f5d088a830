// The launcher's variables parsed and checked against each other: see
// rank_environment.h.
#include "reference_workloads/gpt2/dist/rank_environment.h"

#include <charconv>
#include <optional>

namespace damscope::gpt2 {
namespace {

// The names one launcher uses for the four figures.
struct LauncherVariables {
  Launcher launcher;
  const char* rank;
  const char* world_size;
  const char* local_rank;
  const char* local_world_size;
};

constexpr LauncherVariables kTorchrun{Launcher::kTorchrun, "RANK", "WORLD_SIZE", "LOCAL_RANK",
                                      "LOCAL_WORLD_SIZE"};
constexpr LauncherVariables kMpirun{Launcher::kMpirun, "OMPI_COMM_WORLD_RANK",
                                    "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK",
                                    "OMPI_COMM_WORLD_LOCAL_SIZE"};

using Getenv = std::function<const char*(const char*)>;

// The variable as a non-negative int; nullopt when it is unset.
Result<std::optional<int>> readCount(const Getenv& getenv, const char* name) {
  const char* value = getenv(name);
  if (value == nullptr) return std::optional<int>();
  const std::string text(value);
  int x = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    return Error(std::string(name) + "='" + text + "' is not a whole number");
  if (x < 0) return Error(std::string(name) + "=" + text + " is negative");
  return std::optional<int>(x);
}

std::string assignment(const char* name, int value) {
  return std::string(name) + "=" + std::to_string(value);
}

Result<RankEnvironment> fromLauncher(const Getenv& getenv, const LauncherVariables& v) {
  DAMSCOPE_ASSIGN_OR_RETURN(const std::optional<int> rank, readCount(getenv, v.rank));
  DAMSCOPE_ASSIGN_OR_RETURN(const std::optional<int> world_size, readCount(getenv, v.world_size));
  DAMSCOPE_ASSIGN_OR_RETURN(const std::optional<int> local_rank, readCount(getenv, v.local_rank));
  DAMSCOPE_ASSIGN_OR_RETURN(const std::optional<int> local_world_size,
                            readCount(getenv, v.local_world_size));
  if (!rank)
    return Error(assignment(v.world_size, *world_size) + " is set but " + v.rank + " is not");
  if (!world_size)
    return Error(assignment(v.rank, *rank) + " is set but " + v.world_size + " is not");
  if (*world_size == 0) return Error(assignment(v.world_size, 0) + ": a job has at least one rank");
  if (*rank >= *world_size)
    return Error(assignment(v.rank, *rank) + " is not below " +
                 assignment(v.world_size, *world_size));

  RankEnvironment env;
  env.launcher = v.launcher;
  env.rank = *rank;
  env.world_size = *world_size;
  env.local_rank = local_rank.value_or(*rank);
  env.local_world_size = local_world_size.value_or(*world_size);
  if (env.local_world_size == 0 || env.local_world_size > env.world_size)
    return Error(assignment(v.local_world_size, env.local_world_size) + " is not in [1, " +
                 assignment(v.world_size, env.world_size) + "]");
  if (env.local_rank >= env.local_world_size)
    return Error(assignment(v.local_rank, env.local_rank) + " is not below " +
                 assignment(v.local_world_size, env.local_world_size));
  return env;
}

}  // namespace

const char* launcherName(Launcher launcher) {
  switch (launcher) {
    case Launcher::kNone:
      return "none";
    case Launcher::kTorchrun:
      return "torchrun";
    case Launcher::kMpirun:
      return "mpirun";
  }
  return "unknown";
}

Result<RankEnvironment> rankEnvironment(const Getenv& getenv) {
  RankEnvironment env;
  for (const LauncherVariables& v : {kTorchrun, kMpirun}) {
    if (getenv(v.rank) != nullptr || getenv(v.world_size) != nullptr) {
      DAMSCOPE_ASSIGN_OR_RETURN(env, fromLauncher(getenv, v));
      break;
    }
  }
  if (const char* addr = getenv("MASTER_ADDR")) {
    if (*addr == '\0') return Error("MASTER_ADDR is set but empty");
    env.master_addr = addr;
  }
  DAMSCOPE_ASSIGN_OR_RETURN(const std::optional<int> port, readCount(getenv, "MASTER_PORT"));
  if (port) {
    // A TCP port: 1..65535 (port 0 would ask the kernel for any free one,
    // which the other ranks could not know).
    if (*port == 0 || *port > 65535)
      return Error(assignment("MASTER_PORT", *port) + " is not a TCP port (1..65535)");
    env.master_port = *port;
  }
  return env;
}

}  // namespace damscope::gpt2
