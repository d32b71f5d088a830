// Runs every analysis, in dependency order, over one or several ranks:
//
//   tables -> AnalysisInput -> steps -> window -> temporal breakdown, gaps,
//   kernel breakdown, launch statistics, GPU utilization, profiler overview
//   -> scorecard -> (cross-rank, with several ranks) -> findings
//
// Each analysis is a pure function of its inputs (one per file); this file
// only wires them and gathers what each says it could not compute into one
// list of notes. No I/O: the CLI imports and stores.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "analyzer/analyses/analysis_input.h"
#include "analyzer/analyses/analysis_window.h"
#include "analyzer/analyses/cross_rank.h"
#include "analyzer/analyses/findings.h"
#include "analyzer/analyses/gpu_utilization.h"
#include "analyzer/analyses/idle_gaps.h"
#include "analyzer/analyses/kernel_breakdown.h"
#include "analyzer/analyses/launch_statistics.h"
#include "analyzer/analyses/profiler_overview.h"
#include "analyzer/analyses/scorecard.h"
#include "analyzer/analyses/steps.h"
#include "analyzer/analyses/temporal_breakdown.h"

namespace damscope {

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
};

struct AnalysisNote {
  std::string analysis;  // "steps", "window", ...
  std::string message;
};

// Everything damscope computes for one rank. Holds a pointer to the tables,
// which must outlive it.
struct RankAnalysis {
  const TraceTables* tables = nullptr;
  std::string source;  // the file it came from
  int32_t rank = -1;   // from the trace; -1 unknown
  std::unique_ptr<AnalysisInput> input;
  StepReport steps;
  WindowReport window;
  TemporalBreakdownReport breakdown;
  GapReport gaps;
  KernelBreakdownReport kernels;
  LaunchStatisticsReport launches;
  GpuUtilizationReport utilization;
  ProfilerOverviewReport overview;
  ScorecardReport scorecard;
  FindingsReport findings;
  const RankComparison* comparison = nullptr;  // set by analyzeRanks with several ranks
  std::vector<AnalysisNote> notes;
};

struct RunAnalysis {
  std::vector<RankAnalysis> ranks;
  CrossRankReport cross_rank;  // empty with one rank
};

// Every per-rank analysis, findings included (without cross-rank metrics).
Result<RankAnalysis> analyzeRank(const TraceTables& tables, const std::string& source,
                                 const AnalysisOptions& options);

// Several ranks of one job: each rank, then the cross-rank comparison, then
// the findings again with the cross-rank figures (stragglers).
Result<RunAnalysis> analyzeRanks(const std::vector<const TraceTables*>& tables,
                                 const std::vector<std::string>& sources,
                                 const AnalysisOptions& options);

}  // namespace damscope
