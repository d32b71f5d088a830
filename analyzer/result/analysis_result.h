// The result model: everything damscope concludes about a run, as plain
// values. It is what the analyses' reports become once the event tables are
// no longer needed, what run.db stores (result_rows.h, analysis_tables.h) and
// reads back whole, and the one thing every output renders: the text summary,
// the JSON document, the reports and the GUI. A figure is computed once, by
// an analysis or by buildRankResult, and lives here.
//
// Plain value types (Hotspot's habit): no pointers, no string ids into a
// trace's pool, no references to event tables, so a result moves to another
// thread (the GUI's), compares with == (a stored result reads back equal to
// the one computed) and outlives the trace it came from. Event tables are
// named by row id (kernels.id, ranges.id, ...) where a result points at its
// evidence. Unknown values are empty optionals, never a sentinel. Units: times
// in ns on the trace's clock, shares in percent (0..100).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/analyses/rank_analysis.h"

namespace damscope {

// Which GPU work and steps the run-level figures are about (analysis_window.h).
struct WindowResult {
  WindowMode mode = WindowMode::kHta;
  bool cut = false;                     // HTA's cut of the last step was applied
  std::optional<int64_t> cutoff_ns;     // CPU events start before this
  int64_t gpu_ops = 0;                  // GPU operations in the window
  std::optional<int64_t> gpu_start_ns;  // first start and last end of those
  std::optional<int64_t> gpu_end_ns;
  std::optional<int64_t> start_ns;  // the analysed time range
  std::optional<int64_t> end_ns;
  int64_t first_step = 0;  // steps [first_step, first_step + step_count) are analysed
  int64_t step_count = 0;
  std::optional<double> avg_step_ns;  // mean duration of the analysed steps
  bool operator==(const WindowResult&) const = default;
};

struct StepResult {
  int64_t number = 0;  // N of ProfilerStep#N or of "step N", else the ordinal
  std::string name;
  std::optional<int64_t> range_id;  // ranges.id of the step range
  int64_t host_ts = 0;              // the host range
  int64_t host_dur = 0;
  int64_t ts = 0;  // aligned to the GPU work the step launched
  int64_t dur = 0;
  bool in_window = false;
  bool complete = true;
  int64_t gpu_launches = 0;
  std::optional<double> tokens_per_s;
  std::optional<double> samples_per_s;
  std::optional<CriticalPath> critical_path;  // analysed steps (critical_path.h)
  bool operator==(const StepResult&) const = default;
};

struct BreakdownResult {
  BreakdownFigures window;              // HTA's temporal breakdown of the window
  std::vector<BreakdownFigures> steps;  // one per step
  bool operator==(const BreakdownResult&) const = default;
};

// A bubble (idle_gaps.h). Device gaps come first, then stream gaps; a gap's
// index is its gaps.id, which findings' evidence names.
struct GapResult {
  int64_t ts = 0;
  int64_t dur = 0;
  int32_t device = 0;
  std::optional<int64_t> stream;  // empty: the whole device was idle
  std::optional<int64_t> step_id;
  bool in_window = false;
  GapCause cause = GapCause::kOther;
  std::array<int64_t, kGapCauseCount> by_cause{};
  HtaIdleCategory hta = HtaIdleCategory::kNone;
  std::optional<GpuOpKind> next_kind;  // the GPU operation that ended the gap
  std::optional<int64_t> next_id;      // its row in kernels, memcpys, memsets or syncs
  std::optional<int64_t> launch_call_id;
  EvidenceTable evidence_table = EvidenceTable::kNone;  // the event that shows the cause
  std::optional<int64_t> evidence_id;
  bool operator==(const GapResult&) const = default;
};

struct TopKernelResult {
  std::string name;
  KernelCategory category = KernelCategory::kOther;
  int64_t kernels = 0;
  int64_t total_ns = 0;
  int64_t mean_ns = 0;
  int64_t min_ns = 0;
  int64_t max_ns = 0;
  double pct = 0;                            // of all kernel time
  std::optional<int64_t> example_kernel_id;  // kernels.id of its longest run
  bool operator==(const TopKernelResult&) const = default;
};

struct KernelsResult {
  int64_t kernels = 0;
  int64_t total_ns = 0;
  std::vector<CategoryTime> categories;  // largest first
  std::vector<TopKernelResult> top;      // largest first
  int64_t fp32_matrix_ns = 0;
  int64_t tensor_core_ns = 0;
  int64_t matrix_ns = 0;
  bool operator==(const KernelsResult&) const = default;
};

struct UtilizationResult {
  std::vector<DeviceUtilization> devices;  // ascending by device
  std::optional<size_t> primary;           // index of the busiest device
  int64_t steps_used = 0;                  // 0: the whole span was used
  const DeviceUtilization* primaryDevice() const { return primary ? &devices[*primary] : nullptr; }
  bool operator==(const UtilizationResult&) const = default;
};

// The TensorBoard plugin's step-time overview (profiler_overview.h).
struct OverviewResult {
  int64_t steps = 0;  // the steps the averages are over
  bool whole_span = false;
  std::optional<double> avg_step_ns;  // empty: no steps
  std::array<double, kOverviewRoleCount> avg_ns{};
  double avgPct(OverviewRole role) const;
  bool operator==(const OverviewResult&) const = default;
};

struct ScorecardResult {
  int32_t device = 0;            // the primary device
  Scorecard run;                 // the analysed steps together
  std::vector<Scorecard> steps;  // one per step
  bool operator==(const ScorecardResult&) const = default;
};

// One rank (one trace file) of a run.
struct RankResult {
  std::string source;  // the input the trace came from
  std::string store;   // the run.db the result is stored in; empty: not stored
  std::optional<int32_t> rank;
  std::optional<int32_t> world_size;  // ranks in the job, as the trace says
  std::optional<int32_t> device;      // the primary device (most kernel time)
  std::string device_name;
  // kCpu: a CPU run (cpu_device_work.h); launch statistics, streams, SM
  // efficiency and occupancy do not apply.
  DeviceKind device_kind = DeviceKind::kGpu;
  // Whose words the recommendations use (framework.h).
  Framework framework = Framework::kPyTorch;

  WindowResult window;
  StepSource step_source = StepSource::kNone;
  std::optional<double> tokens_per_step;
  std::optional<double> samples_per_step;
  std::string throughput_source;  // "options", "model annotation", or ""
  std::vector<StepResult> steps;

  std::optional<BreakdownResult> breakdown;  // empty: no GPU work in the window
  std::vector<GapResult> gaps;
  KernelsResult kernels;
  LaunchStatisticsReport launches;
  UtilizationResult utilization;
  OverviewResult overview;
  double starved_threshold_pct = ScorecardOptions{}.starved_pct;  // the verdict's threshold
  std::optional<ScorecardResult> scorecard;                       // empty: no GPU work to judge
  MfuReport mfu;                         // MFU and HFU, with what they rest on (mfu.h)
  RooflineReport roofline;               // roofline placement (roofline.h)
  // The framework ops whose GPU work took the most time, largest first
  // (op_breakdown.h, leaf-op grouping).
  std::vector<OpRow> top_ops;
  std::optional<MemoryEstimate> memory;  // empty without a model
  FindingsReport findings;
  DataLossReport data_loss;
  bool verdict_may_be_off = false;           // so much was lost that the verdict may be wrong
  std::optional<RankComparison> comparison;  // with several ranks
  std::vector<AnalysisNote> notes;

  // The cross-rank analysis's input besides the steps: the communication
  // kernels in the window, in time order, each naming its kernel by index
  // into collective_names. Kept (and stored) so that ranks analysed apart
  // are compared later without their events.
  std::vector<std::string> collective_names;
  std::vector<RankCollective> collective_starts;

  Verdict verdict() const { return scorecard ? scorecard->run.verdict : Verdict::kNone; }
  bool operator==(const RankResult&) const = default;
};

// A run: its ranks in input order, and the cross-rank comparison (empty with
// one rank).
struct RunResult {
  std::vector<RankResult> ranks;
  std::vector<RankComparison> cross_rank;  // one per rank, in input order
  std::vector<std::string> cross_rank_notes;
  bool operator==(const RunResult&) const = default;
};

// The result of one rank's analysis; `analysis` must still refer to its tables.
RankResult buildRankResult(const RankAnalysis& analysis, const std::string& source,
                           const AnalysisOptions& options);

}  // namespace damscope
