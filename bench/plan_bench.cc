// `damscope plan` answers in well under 100 ms (issue 28): the plan's
// arithmetic and both renderings, for a 7B model on 8 H100s.
#include <benchmark/benchmark.h>

#include "analyzer/planner/training_plan.h"
#include "analyzer/report/plan_report.h"

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

}  // namespace
}  // namespace damscope

BENCHMARK_MAIN();
