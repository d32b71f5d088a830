// Counter groups, their CUPTI metrics and the FLOP/byte arithmetic: see
// counter_metrics.h.
#include "collector/counter_metrics.h"

#include <cmath>
#include <limits>

namespace damscope::collector {
namespace {

constexpr const char* kMetricNames[kMetricCount] = {
    "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_hadd_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_hmul_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum",
    "sm__inst_executed_pipe_tensor.sum",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
};

double at(const MetricValues& v, Metric m) {
  return v[static_cast<size_t>(m)];
}

}  // namespace

Result<CounterSelection> parseCounterList(std::string_view text) {
  CounterSelection s;
  if (text.empty()) return Error("empty: expected flops, dram or flops,dram");
  size_t start = 0;
  for (;;) {
    const size_t comma = text.find(',', start);
    const std::string_view item = text.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    bool* group = item == "flops" ? &s.flops : item == "dram" ? &s.dram : nullptr;
    if (!group) {
      return Error("unknown counter group \"" + std::string(item) +
                   "\": expected a comma-separated list of flops, dram");
    }
    if (*group) return Error("\"" + std::string(item) + "\" is listed twice");
    *group = true;
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return s;
}

std::string counterListText(const CounterSelection& selection) {
  if (selection.flops && selection.dram) return "flops,dram";
  return selection.flops ? "flops" : selection.dram ? "dram" : "";
}

const char* metricName(Metric metric) {
  return kMetricNames[static_cast<size_t>(metric)];
}

bool metricWanted(const CounterSelection& selection, Metric metric) {
  switch (metric) {
    case Metric::kDramRead:
    case Metric::kDramWrite:
      return selection.dram;
    default:
      return selection.flops;
  }
}

MetricValues noMetricValues() {
  MetricValues v;
  v.fill(std::numeric_limits<double>::quiet_NaN());
  return v;
}

KernelCounts kernelCounts(const CounterSelection& selection, const MetricValues& v) {
  KernelCounts c;
  if (selection.flops) {
    // Per precision: an FMA is two operations, an add or a multiply one.
    double flops = 0;
    bool complete = true;
    for (const auto [add, mul, fma] : {std::array{Metric::kDadd, Metric::kDmul, Metric::kDfma},
                                       std::array{Metric::kFadd, Metric::kFmul, Metric::kFfma},
                                       std::array{Metric::kHadd, Metric::kHmul, Metric::kHfma}}) {
      complete = complete && std::isfinite(at(v, add)) && std::isfinite(at(v, mul)) &&
                 std::isfinite(at(v, fma));
      flops += 2 * at(v, fma) + at(v, add) + at(v, mul);
    }
    const double tensor = at(v, Metric::kTensorInstructions);
    // Without the tensor count, tensor-core work cannot be ruled out.
    c.used_tensor_cores = std::isfinite(tensor) && tensor > 0;
    if (complete && std::isfinite(tensor) && !c.used_tensor_cores) c.flops = flops;
  }
  if (selection.dram) {
    const double read = at(v, Metric::kDramRead), write = at(v, Metric::kDramWrite);
    if (std::isfinite(read) && std::isfinite(write)) c.dram_bytes = read + write;
  }
  return c;
}

}  // namespace damscope::collector
