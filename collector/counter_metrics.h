// Hardware counters of `damscope record --counters`: which groups a user may
// ask for, the CUPTI metrics each group needs, and how one kernel's metric
// values become its FLOPs and DRAM bytes (kernel_metrics, source measured).
//
// Pure functions over numbers: the CUPTI range profiler that reads the
// values is counter_session.h; here nothing touches CUPTI, so that tests
// check the arithmetic with fabricated values.
//
// Groups:
//   flops  smsp__sass_thread_inst_executed_op_{d,f,h}{add,mul,fma}_pred_on.sum:
//          thread-level SASS instructions with all predicates true, per
//          precision. FLOPs = 2 * FMA + ADD + MUL summed over fp64, fp32 and
//          fp16: an FMA is a multiply and an add (Nsight Compute's roofline
//          counts it twice: "derived__sm__sass_thread_inst_executed_op_ffma_
//          pred_on_x2"), the formula of HTA's CUDA_SASS_INSTRUCTION_COUNTER_FLOPS
//          (hta/analyzers/cupti_counter_analysis.py) and of the Kineto importer
//          (docs/trace-format.md, kernel_metrics).
//          Tensor-core work is not in these instructions. CUPTI 13 lists
//          sm__ops_path_tensor_src_* ("# of math ops executed in Tensor path
//          with source FP16", cuptiProfilerHostGetMetricProperties on GH100),
//          but not whether a "math op" is one FLOP or one multiply-add, so it
//          is not counted. sm__inst_executed_pipe_tensor.sum ("# of warp
//          instructions executed by tensor pipe", known for TU102 to GB202) is
//          read instead: a kernel that issued tensor instructions gets no
//          FLOPs (unknown, not an undercount), only its DRAM bytes.
//   dram   dram__bytes_read.sum + dram__bytes_write.sum: bytes between the
//          memory controllers and device memory ("# of bytes read from
//          DRAM", "# of bytes written to DRAM"). Chips whose memory CUPTI
//          names otherwise (GB202, GDDR7, lists neither) measure no bytes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace damscope::collector {

struct CounterSelection {
  bool flops = false;
  bool dram = false;
  bool any() const { return flops || dram; }
  bool operator==(const CounterSelection&) const = default;
};

// "flops", "dram", "flops,dram" (any order, each once). An error says what
// is wrong with which item; the caller names the option or variable.
Result<CounterSelection> parseCounterList(std::string_view text);
// The canonical list ("flops,dram"; "" for none): parseCounterList's inverse.
std::string counterListText(const CounterSelection& selection);

// Every metric damscope may read, in a fixed order (MetricValues' index).
enum class Metric : uint8_t {
  kDadd,
  kDmul,
  kDfma,
  kFadd,
  kFmul,
  kFfma,
  kHadd,
  kHmul,
  kHfma,
  kTensorInstructions,
  kDramRead,
  kDramWrite,
};
constexpr size_t kMetricCount = 12;
// The CUPTI metric name (with its .sum rollup).
const char* metricName(Metric metric);
// Whether `selection` needs `metric`.
bool metricWanted(const CounterSelection& selection, Metric metric);

// One kernel's values by Metric; NaN for a metric not collected (not asked
// for, or unknown to the chip).
using MetricValues = std::array<double, kMetricCount>;
MetricValues noMetricValues();

struct KernelCounts {
  std::optional<double> flops;       // empty: not measured (not asked, unknown, tensor cores)
  std::optional<double> dram_bytes;  // empty: not measured
  bool used_tensor_cores = false;    // flops left empty for that reason
};

KernelCounts kernelCounts(const CounterSelection& selection, const MetricValues& values);

}  // namespace damscope::collector
