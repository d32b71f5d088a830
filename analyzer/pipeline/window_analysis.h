// One rank's diagnosis re-scoped to a time range (the GUI's "analyse this
// window", after Perfetto's area selection and Nsight Systems' "analyze
// range"): every per-rank analysis runs again on the rank's loaded event
// tables with WindowMode::kRange (analysis_window.h says which GPU work and
// which steps a range holds), and the result is a RankResult like any other,
// so every view renders it as it renders the whole run's.
//
// What it is not: it is never stored (RankResult::store stays empty, nothing
// is written), and it carries no comparison with the other ranks (that
// compares whole runs; RankResult::comparison stays empty). The options are
// the caller's: the GUI passes those it opened the run with, so a range
// differs from the whole run only by its window.
#pragma once

#include <cstdint>
#include <string>

#include "analyzer/result/analysis_result.h"
#include "base/progress.h"
#include "base/result.h"
#include "trace/tables.h"

namespace damscope {

// `tables` analysed over [start_ns, end_ns) (ns on the trace's clock), the
// result named after `source` (the input the tables came from). Fails only
// when `progress` is cancelled.
Result<RankResult> analyseRange(const TraceTables& tables, const std::string& source,
                                int64_t start_ns, int64_t end_ns, AnalysisOptions options,
                                const Progress& progress = {});

}  // namespace damscope
