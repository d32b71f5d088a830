// The store writer's half of the analyzer: turns one rank's analysis results
// into the rows of the analysis tables (trace/analysis_tables.h), which
// trace/analysis_store.h then writes into the rank's run.db.
//
// Ids line up with the reports: gaps row k is GapReport::gaps[k] (so
// findings' evidence can name gaps by row), steps row k is StepReport::steps[k].
#pragma once

#include "analyzer/analyses/rank_analysis.h"
#include "trace/analysis_tables.h"

namespace damscope {

// `run` supplies the cross-rank rows (empty with one rank).
AnalysisTables toAnalysisTables(const RankAnalysis& analysis, const RunAnalysis* run,
                                const AnalysisOptions& options);

}  // namespace damscope
