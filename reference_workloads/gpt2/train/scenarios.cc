// The scenarios: see scenarios.h. Figures behind the CPU choices are in
// docs/gpt2-trainer.md; the CUDA ones are checked by scripts/gpu_selftest.sh.
#include "reference_workloads/gpt2/train/scenarios.h"

namespace damscope::gpt2 {

const std::vector<Scenario>& scenarios() {
  static const std::vector<Scenario> all = {
      {"balanced",
       "the defaults: a small model, one loader thread prefetching 2 batches ahead, so data "
       "loading hides behind compute",
       Settings{}, Settings{}},
      {"data-bound",
       "a slow input pipeline: one loader thread, no prefetch, each batch costing about 3x the "
       "step's compute, so the training thread mostly waits in `data`",
       Settings{{"config", "small"},
                {"loader-workers", "1"},
                {"prefetch", "0"},
                {"batch-cost-ms", "300"}},
       Settings{{"config", "small"},
                {"loader-workers", "1"},
                {"prefetch", "0"},
                {"batch-cost-ms", "100"}}},
      {"compute-bound",
       "arithmetic-limited steps: on the CPU 768 wide, batch 4 x 128 tokens, the SGEMMs take "
       "most of the step; on a GPU GPT-2 124M in fp32, batch 16 x 1024, its GEMMs and fused "
       "attention on the CUDA cores' fp32 units, not tensor cores (in bf16 the same model is "
       "memory-bound: its activations are fp32)",
       Settings{{"config", "wide"}, {"batch", "4"}, {"seq", "128"}},
       Settings{{"config", "124m"},
                {"batch", "16"},
                {"seq", "1024"},
                {"precision", "fp32"},
                {"attention", "fused"},
                {"pad-vocab", ""}}},
      {"memory-bound",
       "64 wide (16 heads of 4) and 1024 long: the naive attention's materialised T x T "
       "matrices dominate the step at 1.4-1.5 FLOP/byte, far below the ridge point (on a GPU "
       "in fp32, batch 8)",
       Settings{{"config", "long"}, {"batch", "2"}, {"seq", "1024"}},
       Settings{{"config", "long"},
                {"batch", "8"},
                {"seq", "1024"},
                {"precision", "fp32"},
                {"attention", "naive"}}},
      {"launch-bound",
       "a tiny model (2 layers of 128, batch 1 x 64): each of a step's ~100 kernels runs for "
       "a few microseconds, less than its launch, and no CUDA graph batches the launches",
       std::nullopt, Settings{{"config", "tiny"}, {"batch", "1"}, {"seq", "64"}}},
      {"pageable-copies",
       "the batch is copied from pageable host memory with cudaMemcpy, which waits for the GPU "
       "to drain before each copy, so the host cannot queue the next step ahead",
       std::nullopt, Settings{{"config", "small"}, {"batch", "8"}, {"pageable-copies", ""}}},
      {"sync-every-step",
       "the host waits for the GPU after every op (a debugging habit left in), so the GPU "
       "idles while the host launches each next kernel",
       std::nullopt, Settings{{"config", "small"}, {"batch", "8"}, {"sync-every-op", ""}}},
      {"capacity",
       "GPT-2 1.5B with batch 64 x 1024: the memory estimate exceeds the device's memory, and "
       "the run is refused with the estimate before anything is allocated",
       std::nullopt, Settings{{"config", "1.5b"}, {"batch", "64"}, {"seq", "1024"}}},
      {"communication-bound",
       "data parallel with little compute per rank (768 wide, batch 1 x 32) and tiny gradient "
       "buckets (1 MB) all-reduced after the backward pass: the ranks spend most of each step "
       "in all-reduce",
       Settings{{"config", "wide"}, {"batch", "1"}, {"seq", "32"}, {"bucket-mb", "1"}},
       Settings{{"config", "124m"},
                {"batch", "1"},
                {"seq", "128"},
                {"bucket-mb", "1"},
                {"pad-vocab", ""}},
       2},
      {"periodic-stall",
       "the balanced run with a checkpoint every 4 steps that holds the training thread for "
       "200 ms (written to a scratch file, then waiting as slow storage would): every 4th step "
       "is about 4x the others on the CPU, 2x on a GPU",
       Settings{{"checkpoint-every", "4"}, {"checkpoint-ms", "200"}},
       Settings{{"config", "small"}, {"batch", "8"}, {"checkpoint-every", "4"},
                {"checkpoint-ms", "200"}}},
      {"straggler",
       "data parallel where rank 1 spends extra CPU work in every step (150 ms on the CPU "
       "backend, 50 ms on a GPU): every other rank waits for it in the first all-reduce",
       Settings{{"config", "small"}, {"straggler-rank", "1"}, {"straggler-ms", "150"}},
       Settings{
           {"config", "small"}, {"batch", "8"}, {"straggler-rank", "1"}, {"straggler-ms", "50"}},
       2},
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
