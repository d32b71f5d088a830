// What the trainer's NVTX op annotations cost per op call when nothing
// records them (NVTX_INJECTION64_PATH unset): times pairs of beginOp/endOp
// through the same Annotations object gpt2-train uses, and prints ns per
// pair and per step of the `small` config (docs/gpt2-trainer.md). Run it
// under `damscope record` to see the cost while recording.
//
// Usage: gpt2_nvtx_cost [PAIRS]   (default 10,000,000)
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "reference_workloads/gpt2/model/op_sites.h"
#include "reference_workloads/gpt2/model/parameters.h"
#include "reference_workloads/gpt2/train/annotations.h"

int main(int argc, char** argv) {
  using namespace damscope::gpt2;
  const long pairs = argc > 1 ? std::atol(argv[1]) : 10000000;
  const ModelConfig config = *findConfig("small", false);
  const StepShape shape{4, 128};
  Annotations notes;
  notes.prepareOps(config, shape, ParameterLayout(config).total(), AttentionForm::kMaterialised);
  OpTracer* tracer = notes.opTracer();
  if (!tracer) {
    std::printf("NVTX annotations are compiled out of this build: no cost to measure\n");
    return 0;
  }
  const auto order = stepOrder(config);
  const auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < pairs; ++i) {
    const auto& [site, layer] = order[i % order.size()];
    tracer->beginOp(site, layer);
    tracer->endOp();
  }
  const double ns =
      std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() /
      pairs;
  std::printf("%.2f ns per op range (push + pop); %zu op ranges per `small` step: %.2f us/step\n",
              ns, order.size(), ns * order.size() / 1e3);
  return 0;
}
