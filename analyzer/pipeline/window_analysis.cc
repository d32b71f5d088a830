// One rank's diagnosis re-scoped to a time range: see window_analysis.h.
#include "analyzer/pipeline/window_analysis.h"

#include "analyzer/analyses/rank_analysis.h"

namespace damscope {

Result<RankResult> analyseRange(const TraceTables& tables, const std::string& source,
                                int64_t start_ns, int64_t end_ns, AnalysisOptions options,
                                const Progress& progress) {
  options.window = {WindowMode::kRange, start_ns, end_ns};
  DAMSCOPE_ASSIGN_OR_RETURN(RankAnalysis analysis, analyzeRank(tables, options, progress));
  return buildRankResult(analysis, source, options);
}

}  // namespace damscope
