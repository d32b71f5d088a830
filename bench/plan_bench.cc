// `damscope plan` answers in well under 100 ms (issue 28): the plan's
// arithmetic and both renderings, for a 7B model on 8 H100s; and what-if on a
// recorded run's result (opening the run is the pipeline's cost, not this).
#include <benchmark/benchmark.h>

#include "analyzer/planner/training_plan.h"
#include "analyzer/planner/what_if.h"
#include "analyzer/report/plan_report.h"
#include "analyzer/report/what_if_report.h"

namespace damscope {
namespace {

void BM_PlanSevenBillionOnEightH100s(benchmark::State& state) {
  PlanRequest r;
  r.model = *findModelPreset("llama2-7b");
  r.device = findDeviceSpecByName("h100-sxm")->spec;
  r.gpus = 8;
  for (auto _ : state) {
    Result<TrainingPlan> plan = planTraining(r);
    std::string text = planText(*plan);
    std::string json = planJson(*plan).dump();
    benchmark::DoNotOptimize(text);
    benchmark::DoNotOptimize(json);
  }
}
BENCHMARK(BM_PlanSevenBillionOnEightH100s)->Unit(benchmark::kMicrosecond);

// Every what-if, each alone and together, on an A100 run with a data stall,
// exposed communication and FP32 GEMMs; both renderings.
void BM_WhatIfEveryKeyOnARecordedRun(benchmark::State& state) {
  RankResult run;
  run.window.avg_step_ns = 400e6;
  run.window.step_count = 4;
  run.scorecard.emplace();
  run.scorecard->run.ns = {960'000'000, 0, 0, 160'000'000, 160'000'000, 320'000'000, 0};
  run.kernels.fp32_matrix_ns = 240'000'000;
  run.mfu.peak_source = PeakSource::kTraceDevice;
  run.mfu.peak_device = "A100 SXM4 40GB (matched by name NVIDIA A100-SXM4-40GB)";
  run.mfu.peak_flops_per_s = 19.5e12;
  run.mfu.mfu_pct = 10;
  run.mfu.model = *findModelPreset("gpt2-124m");
  run.memory.emplace();
  run.memory->micro_batch = 8;
  run.memory->activation_bytes = 1e9;
  std::vector<WhatIf> requests;
  for (std::string_view text :
       {"data=hidden", "overlap=on", "precision=bf16", "checkpointing=selective"}) {
    requests.push_back(*parseWhatIf(text));
  }
  for (auto _ : state) {
    Result<WhatIfReport> report = estimateWhatIfs(run, requests);
    std::string text = whatIfText(*report);
    std::string json = whatIfJson(*report).dump();
    benchmark::DoNotOptimize(text);
    benchmark::DoNotOptimize(json);
  }
}
BENCHMARK(BM_WhatIfEveryKeyOnARecordedRun)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace damscope

BENCHMARK_MAIN();
