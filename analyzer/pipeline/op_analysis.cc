// The op table of one rank from its events: see op_analysis.h.
#include "analyzer/pipeline/op_analysis.h"

namespace damscope {

OpBreakdownReport opBreakdownOf(const RankAnalysis& analysis, const OpBreakdownOptions& ops) {
  // The roofs the roofline placed the kernels against: the run's precision's
  // peak and the bandwidth it used (roofline.h).
  const OpRoofs roofs{analysis.peaks.peakFlopsPerS(analysis.precision.precision),
                      analysis.roofline.bandwidth_bytes_per_s};
  return computeOpBreakdown(*analysis.input, analysis.window, analysis.work, roofs, ops);
}

Result<OpBreakdownReport> analyseOps(const TraceTables& tables, const AnalysisOptions& options,
                                     const OpBreakdownOptions& ops, const Progress& progress) {
  DAMSCOPE_ASSIGN_OR_RETURN(RankAnalysis analysis, analyzeRank(tables, options, progress));
  return opBreakdownOf(analysis, ops);
}

}  // namespace damscope
