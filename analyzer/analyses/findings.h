// Findings and recommendations: a small rule engine that turns the figures of
// the other analyses into a ranked list of "what to change first", each with
// its severity, the evidence (event ids the GUI can jump to), the
// recommended optimization and an upper bound on what it can gain.
//
// Rules are data (FindingRule; the defaults are in finding_rules.cc with the
// source of every threshold): a rule names a metric, fires when the metric
// reaches its threshold (or falls to it, for "at most" rules), is high
// severity beyond a second threshold, and bounds its gain by another metric:
// removing all of a stall can shorten the step by at most that stall's share
// (Amdahl's law). Thresholds can be overridden (`--threshold rule=value`).
//
// Metrics (percent of the analysed step time unless noted; NaN when the
// trace cannot say, and a rule on an unknown metric never fires):
//   data_stall_pct, host_stall_pct, sync_stall_pct, exposed_communication_pct,
//   memory_bound_pct, compute_bound_pct, other_idle_pct, stall_pct   (scorecard)
//   gpu_util_pct, sm_efficiency_pct, occupancy_pct   (TensorBoard definitions)
//   idle_sm_pct          gpu_util_pct - sm_efficiency_pct: busy time with SMs left empty
//   fp32_matrix_pct      GEMM/convolution time in FP32 on CUDA cores
//   pageable_copy_pct    time of copies from/to pageable host memory
//   short_kernel_pct     % of kernels shorter than their launch call (HTA)
//   peak_memory_pct      % of device memory reserved at the peak
//   straggler_slowdown_pct  how much slower this rank's steps are than the
//                        median rank's (cross-rank analysis only)
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "analyzer/analyses/analysis_input.h"
#include "analyzer/analyses/analysis_window.h"
#include "analyzer/analyses/gpu_utilization.h"
#include "analyzer/analyses/idle_gaps.h"
#include "analyzer/analyses/kernel_breakdown.h"
#include "analyzer/analyses/launch_statistics.h"
#include "analyzer/analyses/scorecard.h"
#include "analyzer/analyses/steps.h"
#include "trace/result.h"

namespace damscope {

enum class Severity : uint8_t { kHigh, kMedium, kLow };
std::string_view toText(Severity severity);

struct FindingRule {
  std::string id;
  std::string metric;
  bool at_most = false;  // fires when metric <= threshold (else >=)
  double threshold = 0;
  double high_threshold = std::numeric_limits<double>::quiet_NaN();  // NaN: never high
  Severity severity = Severity::kMedium;                             // when fired and not high
  std::string title;  // "{value}" is replaced by the metric, one decimal
  std::string recommendation;
  std::string gain_metric;   // "" : no bound can be stated
  double gain_factor = 1.0;  // at most this share of gain_metric can be saved
  std::string evidence;  // what to attach: "gaps:<cause>", "kernels:<kind>", "memcpys:pageable",
                         // "counters:memory"
  std::string basis;     // where the threshold and the advice come from
};

// The default rules, in the order they are listed in the docs.
std::vector<FindingRule> defaultFindingRules();

// Applies "rule=value" (the rule's threshold); the error names the rule.
Status overrideThreshold(std::vector<FindingRule>& rules, const std::string& assignment);

struct Evidence {
  std::vector<int64_t> gaps, kernels, ranges, memcpys, api_calls, counters;
  std::string json() const;  // {"gaps":[..],...}, only non-empty lists
  bool empty() const;
};

struct Finding {
  std::string rule;
  Severity severity = Severity::kMedium;
  std::string title;
  std::string metric;
  double value = 0;
  double threshold = 0;
  std::string recommendation;
  double max_gain_pct = std::numeric_limits<double>::quiet_NaN();  // NaN: unknown
  Evidence evidence;
};

struct FindingsOptions {
  std::vector<FindingRule> rules = defaultFindingRules();
  size_t evidence_per_kind = 10;
};

// Everything the rules read.
struct FindingInputs {
  const AnalysisInput& input;
  const StepReport& steps;
  const WindowReport& window;
  const GapReport& gaps;
  const KernelBreakdownReport& kernels;
  const LaunchStatisticsReport& launches;
  const GpuUtilizationReport& utilization;
  const ScorecardReport& scorecard;
  double straggler_slowdown_pct = std::numeric_limits<double>::quiet_NaN();
};

struct FindingsReport {
  std::map<std::string, double> metrics;
  std::vector<Finding> findings;  // high first, then by max gain
};

Result<FindingsReport> computeFindings(const FindingInputs& inputs, const FindingsOptions& options);

}  // namespace damscope
