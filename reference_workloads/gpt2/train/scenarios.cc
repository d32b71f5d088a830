// The scenarios: see scenarios.h.
#include "reference_workloads/gpt2/train/scenarios.h"

namespace damscope::gpt2 {

const std::vector<Scenario>& scenarios() {
  static const std::vector<Scenario> all = {
      {"balanced",
       "the defaults: a small model, one loader thread prefetching 2 batches ahead, so data "
       "loading hides behind compute",
       {}},
      {"data-bound",
       "a slow input pipeline: one loader thread, no prefetch, each batch costing about 3x the "
       "step's compute, so the training thread mostly waits in `data`",
       {{"config", "small"}, {"loader-workers", "1"}, {"prefetch", "0"}, {"batch-cost-ms", "300"}}},
      {"compute-bound",
       "GEMM-dominated steps: 768 wide, batch 4 x 128 tokens; SGEMMs take most of the step and "
       "the run reaches its highest MFU",
       {{"config", "wide"}, {"batch", "4"}, {"seq", "128"}}},
      {"memory-bound",
       "64 wide (16 heads of 4) and 1024 long: the unfused attention's materialised T x T "
       "matrices dominate the step, at 1.4-1.5 FLOP/byte, far below a CPU's ridge point",
       {{"config", "long"}, {"batch", "2"}, {"seq", "1024"}}},
  };
  return all;
}

const Scenario* findScenario(std::string_view name) {
  for (const Scenario& s : scenarios()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

}  // namespace damscope::gpt2
