// Runs every analysis over one or several ranks: see rank_analysis.h.
#include "analyzer/analyses/rank_analysis.h"

#include <unordered_map>

namespace damscope {
namespace {

void addNotes(RankAnalysis& a, const char* analysis, const std::vector<std::string>& notes) {
  for (const std::string& n : notes) a.notes.push_back({analysis, n});
}

FindingInputs findingInputs(const RankAnalysis& a) {
  return FindingInputs{*a.input,  a.steps,    a.window,      a.gaps,
                       a.kernels, a.launches, a.utilization, a.scorecard};
}

}  // namespace

Result<RankAnalysis> analyzeRank(const TraceTables& tables, const std::string& source,
                                 const AnalysisOptions& options) {
  RankAnalysis a;
  a.tables = &tables;
  a.source = source;
  for (int32_t r : tables.processes.rank) {
    if (!isNull(r) && r >= 0) {
      a.rank = r;
      break;
    }
  }
  a.input = std::make_unique<AnalysisInput>(AnalysisInput::build(tables));
  const AnalysisInput& in = *a.input;
  if (in.negativeDurations() > 0) {
    a.notes.push_back({"input", std::to_string(in.negativeDurations()) +
                                    " GPU operation(s) with a negative duration were read as "
                                    "zero-length"});
  }
  if (in.opsWithoutLaunch() > 0 && in.opsWithLaunch() == 0) {
    a.notes.push_back({"input",
                       "no GPU operation carries a correlation id that matches a launch call: "
                       "launch delays and launch-based gap causes cannot be computed"});
  }
  DAMSCOPE_ASSIGN_OR_RETURN(a.steps, computeSteps(in, options.steps));
  addNotes(a, "steps", a.steps.notes);
  DAMSCOPE_ASSIGN_OR_RETURN(a.window, computeWindow(in, a.steps, options.window));
  addNotes(a, "window", a.window.notes);
  DAMSCOPE_ASSIGN_OR_RETURN(a.breakdown,
                            computeTemporalBreakdown(in, a.steps, a.window, options.breakdown));
  if (!a.breakdown.valid) {
    a.notes.push_back({"breakdown", "no GPU work in the window: no temporal breakdown"});
  }
  DAMSCOPE_ASSIGN_OR_RETURN(a.gaps, computeGaps(in, a.steps, a.window, options.gaps));
  DAMSCOPE_ASSIGN_OR_RETURN(a.kernels, computeKernelBreakdown(in, a.window, options.kernels));
  DAMSCOPE_ASSIGN_OR_RETURN(a.launches, computeLaunchStatistics(in, a.window, options.launches));
  DAMSCOPE_ASSIGN_OR_RETURN(a.utilization, computeGpuUtilization(in, a.steps, options.utilization));
  addNotes(a, "utilization", a.utilization.notes);
  DAMSCOPE_ASSIGN_OR_RETURN(a.overview, computeProfilerOverview(in, a.steps, options.overview));
  DAMSCOPE_ASSIGN_OR_RETURN(a.scorecard,
                            computeScorecard(in, a.steps, a.window, a.gaps, options.scorecard));
  addNotes(a, "scorecard", a.scorecard.notes);
  DAMSCOPE_ASSIGN_OR_RETURN(a.findings, computeFindings(findingInputs(a), options.findings));
  return a;
}

Result<RunAnalysis> analyzeRanks(const std::vector<const TraceTables*>& tables,
                                 const std::vector<std::string>& sources,
                                 const AnalysisOptions& options) {
  RunAnalysis run;
  for (size_t i = 0; i < tables.size(); ++i) {
    auto rank = analyzeRank(*tables[i], i < sources.size() ? sources[i] : std::string(), options);
    if (!rank.ok()) return rank.error().withContext(i < sources.size() ? sources[i] : "rank");
    run.ranks.push_back(std::move(rank.value()));
  }
  if (run.ranks.size() < 2) return run;

  // Timelines for the comparison; kernel names get ids shared across ranks.
  std::unordered_map<std::string, int32_t> name_ids;
  std::vector<RankTimeline> timelines;
  for (size_t i = 0; i < run.ranks.size(); ++i) {
    const RankAnalysis& a = run.ranks[i];
    RankTimeline t;
    t.rank = a.rank >= 0 ? a.rank : static_cast<int32_t>(i);
    t.source = a.source;
    t.start_ns = isNull(a.window.start) ? 0 : a.window.start;
    t.end_ns = isNull(a.window.end) ? 0 : a.window.end;
    for (size_t s = a.window.first_step; s < a.window.first_step + a.window.step_count; ++s) {
      t.steps.push_back({a.steps.steps[s].number, a.steps.steps[s].duration()});
    }
    const std::vector<GpuOp>& gpu = a.input->gpu();
    for (size_t g = 0; g < gpu.size(); ++g) {
      if (gpu[g].kind != GpuOpKind::kKernel || gpu[g].work != GpuWork::kCommunication ||
          !a.window.in_window[g]) {
        continue;
      }
      const std::string name(
          a.tables->strings.get(a.tables->kernels.name[static_cast<size_t>(gpu[g].row)]));
      auto [it, inserted] = name_ids.try_emplace(name, static_cast<int32_t>(name_ids.size()));
      t.collectives.push_back({it->second, gpu[g].ts});
    }
    timelines.push_back(std::move(t));
  }
  DAMSCOPE_ASSIGN_OR_RETURN(run.cross_rank, computeCrossRank(timelines, options.cross_rank));
  for (size_t i = 0; i < run.ranks.size(); ++i) {
    RankAnalysis& a = run.ranks[i];
    a.comparison = &run.cross_rank.ranks[i];
    addNotes(a, "cross_rank", run.cross_rank.notes);
    FindingInputs inputs = findingInputs(a);
    if (a.comparison->steps > 0)
      inputs.straggler_slowdown_pct = a.comparison->slower_than_median_pct;
    DAMSCOPE_ASSIGN_OR_RETURN(a.findings, computeFindings(inputs, options.findings));
  }
  return run;
}

}  // namespace damscope
