// Runs every analysis of one rank, in dependency order:
//
//   tables -> AnalysisInput (model annotation included) -> data loss, steps
//   -> window -> GPU utilization (which device is primary) -> kernel work,
//   the run's precision, the device's peaks -> roofline (which re-reads the
//   compute/memory side of kernels with a point) -> MFU, memory estimate ->
//   temporal breakdown, gaps, kernel breakdown, launch statistics, profiler
//   overview -> scorecard -> kernel lints -> findings
//
// Each analysis is a pure function of its inputs (one per file); this file
// only wires them, checks for cancellation between them, and gathers what
// each says it could not compute into one list of notes. No I/O. The reports
// it returns refer to the event tables (rows, string ids): the pipeline
// (analyzer/pipeline/pipeline.h) turns them into the result model
// (analyzer/result/analysis_result.h) while the tables are still loaded.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "analyzer/analyses/analysis_input.h"
#include "analyzer/analyses/analysis_note.h"
#include "analyzer/analyses/analysis_window.h"
#include "analyzer/analyses/cross_rank.h"
#include "analyzer/analyses/data_loss.h"
#include "analyzer/analyses/device_peaks.h"
#include "analyzer/analyses/findings.h"
#include "analyzer/analyses/gpu_utilization.h"
#include "analyzer/analyses/idle_gaps.h"
#include "analyzer/analyses/kernel_breakdown.h"
#include "analyzer/analyses/kernel_lints.h"
#include "analyzer/analyses/launch_statistics.h"
#include "analyzer/analyses/memory_estimate.h"
#include "analyzer/analyses/mfu.h"
#include "analyzer/analyses/op_breakdown.h"
#include "analyzer/analyses/profiler_overview.h"
#include "analyzer/analyses/roofline.h"
#include "analyzer/analyses/scorecard.h"
#include "analyzer/analyses/slow_steps.h"
#include "analyzer/analyses/steps.h"
#include "analyzer/analyses/temporal_breakdown.h"
#include "base/progress.h"

namespace damscope {

struct DataLossOptions {
  // From this share of lost events on, the verdict carries a warning that it
  // may be off (finding rule lost_events gives the reasoning).
  double verdict_warning_pct = 1.0;
};

struct AnalysisOptions {
  StepOptions steps;
  WindowOptions window;
  TemporalBreakdownOptions breakdown;
  GapOptions gaps;
  KernelBreakdownOptions kernels;
  LaunchStatisticsOptions launches;
  GpuUtilizationOptions utilization;
  ProfilerOverviewOptions overview;
  ScorecardOptions scorecard;
  FindingsOptions findings;
  CrossRankOptions cross_rank;
  DataLossOptions loss;
  DevicePeakOptions device;
  std::optional<Precision> precision;  // the user's; empty: runPrecision decides
  MfuOptions mfu;
  RooflineOptions roofline;
  KernelLintOptions lints;
  // The top ops the result keeps: the leaf-op grouping, by GPU time.
  OpBreakdownOptions ops{OpGrouping::kLeafOp, false, OpSort::kGpu, 25};
};

// Everything damscope computes for one rank, as the analyses report it.
// Refers to `tables` (and holds an AnalysisInput over them): the tables must
// outlive it.
struct RankAnalysis {
  const TraceTables* tables = nullptr;
  std::unique_ptr<AnalysisInput> input;
  DataLossReport loss;
  StepReport steps;
  WindowReport window;
  TemporalBreakdownReport breakdown;
  GapReport gaps;
  KernelBreakdownReport kernels;
  LaunchStatisticsReport launches;
  GpuUtilizationReport utilization;
  KernelWorkReport work;
  RunPrecision precision;
  DevicePeaks peaks;
  RooflineReport roofline;
  OpBreakdownReport ops;  // the framework ops behind the GPU work (options.ops)
  MfuReport mfu;
  std::optional<MemoryEstimate> memory;
  ProfilerOverviewReport overview;
  ScorecardReport scorecard;
  KernelLintReport lints;
  SlowStepReport slow_steps;
  std::vector<StepCriticalPath> critical_paths;  // per analysed step
  FrameworkReport framework;  // whose words the recommendations use
  FindingsReport findings;
  std::vector<AnalysisNote> notes;
};

// Every per-rank analysis, findings included (without the cross-rank ones).
// Fails only when `progress` is cancelled; reports which analysis runs.
Result<RankAnalysis> analyzeRank(const TraceTables& tables, const AnalysisOptions& options,
                                 const Progress& progress = {});

// The rank's collectives (communication kernels in the window) in time order,
// their kernel names given ids that `names` keeps equal for equal names:
// with the analysed steps, what the cross-rank analysis needs of a rank.
using CollectiveNames = std::unordered_map<std::string, int32_t>;
std::vector<RankCollective> collectiveStarts(const RankAnalysis& analysis, CollectiveNames& names);

}  // namespace damscope
