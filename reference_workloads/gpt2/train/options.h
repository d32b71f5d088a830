// Everything a training run is asked to do: the parsed command line
// (flags.h), after the scenario's defaults (scenarios.h) and the explicit
// flags have been applied.
#pragma once

#include <cstdint>
#include <set>
#include <string>

namespace damscope::gpt2 {

struct Options {
  std::string device = "cpu";
  std::string config = "small";
  int steps = 20;
  int batch = 4;
  int seq = 0;  // 0: the config's max_seq
  double lr = 3e-4;
  int warmup = 0;
  std::string lr_schedule = "constant";
  uint64_t seed = 1337;
  std::string data;  // empty: the synthetic stream
  int loader_workers = 1;
  int prefetch = 2;
  double batch_cost_ms = 0;
  std::string scenario = "balanced";
  std::string log_json;
  std::string save;
  std::string load;
  int threads = 0;  // 0: every CPU this process may use
  bool pad_vocab = false;
  // The CUDA backend (cuda/cuda_backend.h).
  std::string precision = "fp32";
  std::string attention;  // empty: the backend's default (cpu naive, cuda fused)
  bool cuda_graph = false;
  // Skip the warm-up pass the CUDA backend runs before the first step.
  bool cold_start = false;
  bool pageable_copies = false;
  bool sync_every_op = false;
  // Data parallel (dist/): gradient buckets and their overlap with backward.
  double bucket_mb = 25;  // PyTorch DDP's default bucket_cap_mb
  bool overlap = false;
  // The straggler scenario: this rank (-1: none) spends straggler_ms of CPU
  // work in every step.
  int straggler_rank = -1;
  double straggler_ms = 0;
  // The periodic-stall scenario: every checkpoint_every-th step (0: never)
  // writes the model to a scratch file and holds the training thread for at
  // least checkpoint_ms, as a checkpoint to slow storage does.
  int checkpoint_every = 0;
  double checkpoint_ms = 0;
  bool print_ops = false;
  bool help = false;

  // Flags given on the command line (their names without "--"), as opposed
  // to defaults and scenario settings; a checkpoint's settings yield to them.
  std::set<std::string> explicit_flags;
  bool isExplicit(const std::string& flag) const { return explicit_flags.count(flag) > 0; }
};

}  // namespace damscope::gpt2
