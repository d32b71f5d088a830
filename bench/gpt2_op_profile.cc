// Where a GPT-2 training step spends its time, op by op: runs the trainer's
// model on the CPU backend with a tracer that times every op call, and
// prints per op (stem and instance) the time per step, its share, and the
// achieved GFLOP/s and GB/s by the op's own counts (ops/*.h). Used to pick
// the scenarios' shapes and to check that each scenario is bound where it
// says (docs/gpt2-trainer.md).
//
// Usage: gpt2_op_profile [CONFIG [BATCH [SEQ [STEPS [THREADS]]]]]
//        defaults: small 4 <context> 5 <all cores>; the first step is a warm-up.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "reference_workloads/gpt2/cpu/cpu_backend.h"
#include "reference_workloads/gpt2/data/batch.h"
#include "reference_workloads/gpt2/model/gpt2_model.h"
#include "reference_workloads/gpt2/model/model_flops.h"

namespace {

using namespace damscope::gpt2;
using Clock = std::chrono::steady_clock;

struct OpTotals {
  int calls = 0;
  double seconds = 0;
  double flops = 0;
  double bytes = 0;
};

class TimingTracer final : public OpTracer {
 public:
  TimingTracer(const ModelConfig& c, StepShape s, size_t param_floats)
      : config_(c), shape_(s), param_floats_(param_floats) {}
  void beginOp(OpSite site, int) override {
    site_ = site;
    start_ = Clock::now();
  }
  void endOp() override {
    const double seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    if (!counting) return;
    const OpSiteInfo info = opSiteInfo(site_);
    const OpCost cost = opSiteCost(site_, config_, shape_, param_floats_);
    OpTotals& t =
        totals[std::string(info.op) + (info.name.empty() ? "" : ":") + std::string(info.name)];
    ++t.calls;
    t.seconds += seconds;
    t.flops += cost.flops;
    t.bytes += cost.bytes;
  }
  bool counting = false;
  std::map<std::string, OpTotals> totals;

 private:
  ModelConfig config_;
  StepShape shape_;
  size_t param_floats_;
  OpSite site_ = OpSite::kEmbeddingFwd;
  Clock::time_point start_;
};

}  // namespace

int main(int argc, char** argv) {
  const std::string config_name = argc > 1 ? argv[1] : "small";
  auto config = findConfig(config_name, false);
  if (!config) {
    std::fprintf(stderr, "gpt2_op_profile: %s\n", config.error().message().c_str());
    return 2;
  }
  StepShape shape{argc > 2 ? std::atoi(argv[2]) : 4,
                  argc > 3 ? std::atoi(argv[3]) : config->max_seq};
  const int steps = argc > 4 ? std::atoi(argv[4]) : 5;
  const int threads = argc > 5 ? std::atoi(argv[5]) : omp_get_num_procs();
  CpuBackend backend(threads);
  auto model = Gpt2Model::create(*config, shape, backend, 1);
  if (!model) {
    std::fprintf(stderr, "gpt2_op_profile: %s\n", model.error().message().c_str());
    return 2;
  }
  TimingTracer tracer(*config, shape, (*model)->layout().total());
  (*model)->setTracer(&tracer);
  const TokenSource source = TokenSource::synthetic(1);
  BatchSpec spec;
  spec.batch = shape.batch;
  spec.seq = shape.seq;
  spec.seed = 1;
  Batch batch;
  double step_seconds = 0;
  for (int step = 0; step <= steps; ++step) {
    makeBatch(source, spec, step, batch);
    tracer.counting = step > 0;
    const auto start = Clock::now();
    (*model)->forward(batch.inputs.data(), batch.targets.data());
    (*model)->backward();
    (*model)->optimizerStep(1e-4f, (*model)->gradNorm(), OptimizerSettings{});
    if (step > 0) step_seconds += std::chrono::duration<double>(Clock::now() - start).count();
  }
  const double per_step = step_seconds / steps;
  std::printf("config %s, batch %d x seq %d, %d threads: %.1f ms/step, %.1f model GFLOP/s\n",
              config_name.c_str(), shape.batch, shape.seq, threads, per_step * 1e3,
              modelFlopsPerStep(*config, shape) / per_step / 1e9);
  std::printf("%-22s %6s %10s %6s %9s %8s %7s\n", "op", "calls", "ms/step", "share", "GFLOP/s",
              "GB/s", "FLOP/B");
  std::vector<std::pair<std::string, OpTotals>> rows(tracer.totals.begin(), tracer.totals.end());
  std::sort(rows.begin(), rows.end(),
            [](const auto& a, const auto& b) { return a.second.seconds > b.second.seconds; });
  double covered = 0;
  for (const auto& [name, t] : rows) {
    covered += t.seconds;
    std::printf("%-22s %6d %10.2f %5.1f%% %9.1f %8.1f %7.2f\n", name.c_str(), t.calls / steps,
                t.seconds / steps * 1e3, 100 * t.seconds / step_seconds, t.flops / t.seconds / 1e9,
                t.bytes / t.seconds / 1e9, t.flops / t.bytes);
  }
  std::printf("%-22s %6s %10.2f %5.1f%%\n", "(outside op ranges)", "",
              (step_seconds - covered) / steps * 1e3,
              100 * (step_seconds - covered) / step_seconds);
  return 0;
}
