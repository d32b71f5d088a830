// The op table of one rank (analyzer/analyses/op_breakdown.h) from its event
// tables: `damscope ops` and the reports call this. The table needs what the
// rank's analysis finds first (the window, the kernels' FLOPs and bytes, the
// device's roofs), so the rank is analysed from its events here, with the
// caller's options, and the table computed from that analysis. Nothing is
// stored: the table is a view of the events, not a stored result.
#pragma once

#include "analyzer/analyses/op_breakdown.h"
#include "analyzer/analyses/rank_analysis.h"
#include "base/progress.h"
#include "base/result.h"
#include "trace/tables.h"

namespace damscope {

// Fails only when `progress` is cancelled.
Result<OpBreakdownReport> analyseOps(const TraceTables& tables, const AnalysisOptions& options,
                                     const OpBreakdownOptions& ops, const Progress& progress = {});

// The op table of an analysis already made of the tables it refers to.
OpBreakdownReport opBreakdownOf(const RankAnalysis& analysis, const OpBreakdownOptions& ops);

}  // namespace damscope
