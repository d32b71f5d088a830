// Findings and recommendations: a small rule engine that turns the figures of
// the other analyses into a ranked list of "what to change first", each with
// its severity, the evidence (events the GUI can jump to), the recommended
// optimization and an upper bound on what it can gain.
//
// Rules are data (FindingRule; the defaults are in finding_rules.cc with the
// source of every threshold): a rule names a metric, fires when the metric
// reaches its threshold (or falls to it, for "at most" rules), is high
// severity beyond a second threshold, and bounds its gain by another metric:
// removing all of a stall can shorten the step by at most that stall's share
// (Amdahl's law). Metrics and evidence are closed vocabularies (Metric,
// EvidenceKind), so a rule cannot name something nothing computes.
//
// Metrics (percent of the analysed step time unless noted; unknown when the
// trace cannot say, and a rule on an unknown metric never fires):
//   data_stall_pct, host_stall_pct, sync_stall_pct, exposed_communication_pct,
//   memory_bound_pct, compute_bound_pct, other_idle_pct, stall_pct   (scorecard)
//   gpu_util_pct, sm_efficiency_pct, occupancy_pct   (TensorBoard definitions)
//   idle_sm_pct          gpu_util_pct - sm_efficiency_pct: busy time with SMs left empty
//   fp32_matrix_pct      GEMM/convolution time in FP32 on CUDA cores
//   pageable_copy_pct    time of copies from/to pageable host memory
//   short_kernel_pct     % of kernels shorter than their launch call (HTA)
//   peak_memory_pct      % of device memory reserved at the peak
//   lost_events_pct      % of the trace's events lost on the way in (data_loss.h)
//   repaired_events_pct  % of its events repaired or clipped on the way in
//   mfu_pct              model FLOPs utilization of the analysed steps (mfu.h)
//   mfu_impossible_pct   the MFU the inputs imply, when above 100 % (they are wrong)
//   memory_estimate_pct  training memory estimated from the model, % of the
//                        device's (memory_estimate.h)
//   straggler_slowdown_pct  how much slower this rank's steps are than the
//                        median rank's (cross-rank analysis only)
//   straggler_wait_pct   the median collective start skew, % of the median
//                        step, for a rank the others wait for at collectives
//                        while step times agree (cross_rank.h; 0 otherwise)
//   below_roof_pct       time of kernels whose roofline point reaches under
//                        kBelowRoofPct of its ceiling (roofline.h)
//   below_roof_gain_pct  what those kernels would save at their ceilings
//   wave_tail_pct        time of kernels whose last wave of blocks is under
//                        half full (kernel_lints.h)
//   wave_tail_gain_pct   the time their empty tail slots cost
//   misaligned_gemm_pct  % of the GEMM and convolution time whose shapes are
//                        known that runs shapes not aligned for tensor cores
//   misaligned_gemm_gain_pct  at most 7/8 of that time, % of the step
//   materialized_attention_pct  time of softmax kernels between batched
//                        GEMMs and of those GEMMs, without fused attention
//   materialized_attention_gain_pct  what FlashAttention can save of it
//   elementwise_chain_pct  time of runs of 3 or more short elementwise
//                        kernels on a stream
//   elementwise_chain_gain_pct  (n - 1)/n of each run of n: what fusing saves
//   slow_step_pct        the slow steps' time beyond the median step, % of
//                        the analysed steps' time (slow_steps.h); 0 when no
//                        step is slow, unknown with too few steps to judge
//
// Rules of kind kTraceQuality judge the trace, not the run: they say how far
// the other findings can be trusted and promise no speed-up.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/analyses/analysis_input.h"
#include "analyzer/analyses/analysis_window.h"
#include "analyzer/analyses/critical_path.h"
#include "analyzer/analyses/data_loss.h"
#include "analyzer/analyses/framework.h"
#include "analyzer/analyses/gpu_utilization.h"
#include "analyzer/analyses/idle_gaps.h"
#include "analyzer/analyses/kernel_breakdown.h"
#include "analyzer/analyses/kernel_lints.h"
#include "analyzer/analyses/launch_statistics.h"
#include "analyzer/analyses/memory_estimate.h"
#include "analyzer/analyses/mfu.h"
#include "analyzer/analyses/roofline.h"
#include "analyzer/analyses/scorecard.h"
#include "analyzer/analyses/slow_steps.h"
#include "analyzer/analyses/steps.h"
#include "base/result.h"

namespace damscope {

enum class Severity : uint8_t { kHigh, kMedium, kLow };
constexpr size_t kSeverityCount = 3;
std::string_view toText(Severity severity);

// The metrics rules read, with their names in output (JSON "metrics", the
// stored summary's "metric.<name>" rows). The first seven follow Axis.
#define DAMSCOPE_FINDING_METRICS(X)                                   \
  X(kDataStallPct, "data_stall_pct")                                  \
  X(kHostStallPct, "host_stall_pct")                                  \
  X(kSyncStallPct, "sync_stall_pct")                                  \
  X(kExposedCommunicationPct, "exposed_communication_pct")            \
  X(kMemoryBoundPct, "memory_bound_pct")                              \
  X(kComputeBoundPct, "compute_bound_pct")                            \
  X(kOtherIdlePct, "other_idle_pct")                                  \
  X(kStallPct, "stall_pct")                                           \
  X(kGpuUtilPct, "gpu_util_pct")                                      \
  X(kSmEfficiencyPct, "sm_efficiency_pct")                            \
  X(kOccupancyPct, "occupancy_pct")                                   \
  X(kIdleSmPct, "idle_sm_pct")                                        \
  X(kFp32MatrixPct, "fp32_matrix_pct")                                \
  X(kPageableCopyPct, "pageable_copy_pct")                            \
  X(kShortKernelPct, "short_kernel_pct")                              \
  X(kPeakMemoryPct, "peak_memory_pct")                                \
  X(kLostEventsPct, "lost_events_pct")                                \
  X(kRepairedEventsPct, "repaired_events_pct")                        \
  X(kMfuPct, "mfu_pct")                                               \
  X(kMfuImpossiblePct, "mfu_impossible_pct")                          \
  X(kMemoryEstimatePct, "memory_estimate_pct")                        \
  X(kStragglerSlowdownPct, "straggler_slowdown_pct")                  \
  X(kStragglerWaitPct, "straggler_wait_pct")                          \
  X(kBelowRoofPct, "below_roof_pct")                                  \
  X(kBelowRoofGainPct, "below_roof_gain_pct")                         \
  X(kWaveTailPct, "wave_tail_pct")                                    \
  X(kWaveTailGainPct, "wave_tail_gain_pct")                           \
  X(kMisalignedGemmPct, "misaligned_gemm_pct")                        \
  X(kMisalignedGemmGainPct, "misaligned_gemm_gain_pct")               \
  X(kMaterializedAttentionPct, "materialized_attention_pct")          \
  X(kMaterializedAttentionGainPct, "materialized_attention_gain_pct") \
  X(kElementwiseChainPct, "elementwise_chain_pct")                    \
  X(kElementwiseChainGainPct, "elementwise_chain_gain_pct")          \
  X(kSlowStepPct, "slow_step_pct")

#define DAMSCOPE_METRIC_VALUE(value, text) value,
enum class Metric : uint8_t { DAMSCOPE_FINDING_METRICS(DAMSCOPE_METRIC_VALUE) };
#undef DAMSCOPE_METRIC_VALUE
constexpr size_t kMetricCount = 34;
std::string_view toText(Metric metric);
std::optional<Metric> metricFromText(std::string_view text);
// The scorecard metric of an axis (data_stall_pct for Axis::kDataStall, ...).
Metric metricOf(Axis axis);

// The value of every metric a trace gives; unknown ones are empty.
struct Metrics {
  std::array<std::optional<double>, kMetricCount> values{};

  std::optional<double> get(Metric m) const { return values[static_cast<size_t>(m)]; }
  // Keeps finite values only: a metric is known or it is not.
  void set(Metric m, double value);
  bool operator==(const Metrics&) const = default;
};

// What a rule attaches as evidence.
#define DAMSCOPE_EVIDENCE_KINDS(X)                       \
  X(kNone, "none")                                       \
  X(kDataLoadingGaps, "gaps:data_loading")               \
  X(kLaunchGaps, "gaps:host_launch")                     \
  X(kSyncGaps, "gaps:synchronization")                   \
  X(kUnexplainedGaps, "gaps:other")                      \
  X(kCommunicationKernels, "kernels:communication")      \
  X(kMemoryBoundKernels, "kernels:memory_bound")         \
  X(kFp32MatrixKernels, "kernels:fp32")                  \
  X(kShortKernels, "kernels:short")                      \
  X(kSmallGridKernels, "kernels:small_grid")             \
  X(kPageableCopies, "memcpys:pageable")                 \
  X(kMemoryCounters, "counters:memory")                  \
  X(kLossStats, "stats:loss")                            \
  X(kBelowRoofKernels, "kernels:below_roof")             \
  X(kWaveTailKernels, "kernels:wave_tail")               \
  X(kMisalignedGemmKernels, "kernels:misaligned_gemm")   \
  X(kAttentionKernels, "kernels:materialized_attention") \
  X(kElementwiseChainKernels, "kernels:elementwise_chain") \
  X(kSlowSteps, "ranges:slow_steps")

#define DAMSCOPE_EVIDENCE_KIND_VALUE(value, text) value,
enum class EvidenceKind : uint8_t { DAMSCOPE_EVIDENCE_KINDS(DAMSCOPE_EVIDENCE_KIND_VALUE) };
#undef DAMSCOPE_EVIDENCE_KIND_VALUE
std::string_view toText(EvidenceKind kind);

enum class FindingKind : uint8_t {
  kPerformance,   // a change to the run that can make it faster
  kTraceQuality,  // a warning about the trace the diagnosis rests on
};
constexpr size_t kFindingKindCount = 2;
std::string_view toText(FindingKind kind);

struct FindingRule {
  std::string id;
  FindingKind kind = FindingKind::kPerformance;
  Metric metric = Metric::kStallPct;
  bool at_most = false;  // fires when metric <= threshold (else >=)
  double threshold = 0;
  double high_threshold = std::numeric_limits<double>::quiet_NaN();  // NaN: never high
  Severity severity = Severity::kMedium;                             // when fired and not high
  std::string title;  // "{value}" is replaced by the metric, one decimal
  // What to change, in the words of the trace's framework (framework.h):
  // `recommendation` speaks PyTorch; a CUDA program gets cuda_recommendation,
  // a JAX one jax_recommendation (else the CUDA words), the bundled trainer
  // trainer_recommendation (its own flags; else the CUDA words). Empty:
  // `recommendation` serves, as it names nothing framework-specific.
  std::string recommendation;
  std::string cuda_recommendation;
  std::string jax_recommendation;
  std::string trainer_recommendation;
  // On a CPU run (cpu_device_work.h): what the finding says instead, where
  // the GPU wording would be wrong (empty: the same); or the rule does not
  // apply at all (launch, stream, SM, tensor-core and GPU-memory rules).
  bool gpu_only = false;
  std::string cpu_title;
  std::string cpu_recommendation;
  std::optional<Metric> gain_metric;  // none: no bound can be stated
  double gain_factor = 1.0;           // at most this share of gain_metric can be saved
  EvidenceKind evidence = EvidenceKind::kNone;
  std::string basis;  // where the threshold and the advice come from
};

// The default rules, in the order they are listed in the docs.
std::vector<FindingRule> defaultFindingRules();

// Applies "rule=value" (the rule's threshold); the error quotes the
// assignment and lists the rules.
Status overrideThreshold(std::vector<FindingRule>& rules, const std::string& assignment);

// Where an evidence item lives: a row of the gaps analysis table, or of an
// event table. The order is the order evidence is listed in.
enum class EvidenceSource : uint8_t {
  kGaps,
  kKernels,
  kRanges,
  kMemcpys,
  kApiCalls,
  kCounters,
  kStats
};
constexpr size_t kEvidenceSourceCount = 7;
std::string_view toText(EvidenceSource source);  // the table's name: "gaps", "kernels", ...

// One piece of evidence, with what a reader needs without opening the table:
// its time (kNullInt for stats rows), a label (the event's name, a stat's
// name; empty for gaps and copies) and what the rule read in it where the
// event alone does not say (a kernel lint's waves or shapes; else empty).
// For a kernel, copy or call, the framework op and the nn.Module behind it,
// as `damscope ops --by leaf-op` and `--by module` charge it
// (op_breakdown.h: a backward kernel's module is its forward op's); empty
// where the trace records none.
struct EvidenceItem {
  EvidenceSource source = EvidenceSource::kGaps;
  int64_t id = 0;
  int64_t ts = kNullInt;
  int64_t dur = kNullInt;
  std::string label;
  std::string detail;
  std::string op;
  std::string module;
  bool operator==(const EvidenceItem&) const = default;
};

struct Finding {
  std::string rule;
  FindingKind kind = FindingKind::kPerformance;
  Severity severity = Severity::kMedium;
  std::string title;
  Metric metric = Metric::kStallPct;
  double value = 0;
  double threshold = 0;
  std::string recommendation;
  std::optional<double> max_gain_pct;  // empty: no bound can be stated
  // For a stall the critical path can free (data, host, communication): its
  // share of the analysed steps' critical paths, and the mean step with it
  // free (critical_path.h). Empty for other findings and without paths.
  std::optional<PathProjection> projection;
  std::vector<EvidenceItem> evidence;  // grouped by source, in EvidenceSource order
  bool operator==(const Finding&) const = default;
};

struct FindingsOptions {
  std::vector<FindingRule> rules = defaultFindingRules();
  size_t evidence_per_kind = 10;
};

// Everything the rules read.
struct FindingInputs {
  const AnalysisInput& input;
  Framework framework;
  const StepReport& steps;
  const WindowReport& window;
  const GapReport& gaps;
  const KernelBreakdownReport& kernels;
  const LaunchStatisticsReport& launches;
  const GpuUtilizationReport& utilization;
  const ScorecardReport& scorecard;
  const DataLossReport& loss;
  const MfuReport& mfu;
  const std::optional<MemoryEstimate>& memory;
  const RooflineReport& roofline;
  const KernelLintReport& lints;
  const SlowStepReport& slow_steps;
  const std::vector<StepCriticalPath>& critical_paths;
};

// A kernel reaching under this share of its roofline ceiling is limited by
// neither roof: Nsight Compute's SpeedOfLight rule says achieved compute
// throughput or memory bandwidth "below 60.0% of peak typically indicate
// latency issues".
constexpr double kBelowRoofPct = 60;

struct FindingsReport {
  Metrics metrics;
  std::vector<Finding> findings;  // high first, then by max gain, then in rule order
  bool operator==(const FindingsReport&) const = default;
};

// The metrics of one rank, and the findings of every rule whose metric is
// known (cross-rank metrics are not: see addCrossRankFindings).
FindingsReport computeFindings(const FindingInputs& inputs, const FindingsOptions& options);

// After the cross-rank analysis: sets the rank's straggler metrics and adds
// the findings of the rules on them. Such rules attach no event evidence, so
// this needs no event tables.
void addCrossRankFindings(FindingsReport& report, double straggler_slowdown_pct,
                          double straggler_wait_pct, Framework framework,
                          const FindingsOptions& options);

// The rule's recommendation for a run of `framework` (FindingRule); on a CPU
// run, cpu_recommendation where the rule has one.
const std::string& recommendationFor(const FindingRule& rule, Framework framework, bool cpu_run);
// Takes back what addCrossRankFindings added (its metrics unknown again, its
// findings gone): a rank's stored results compared again with other ranks.
void removeCrossRankFindings(FindingsReport& report);

// Whether a rule's metric comes from the cross-rank analysis.
bool isCrossRankMetric(Metric metric);

}  // namespace damscope
