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
  bool print_ops = false;
  bool help = false;

  // Flags given on the command line (their names without "--"), as opposed
  // to defaults and scenario settings; a checkpoint's settings yield to them.
  std::set<std::string> explicit_flags;
  bool isExplicit(const std::string& flag) const { return explicit_flags.count(flag) > 0; }
};

}  // namespace damscope::gpt2
