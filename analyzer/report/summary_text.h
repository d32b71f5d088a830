// The human summary `damscope analyze` prints: the verdict first, then the
// D·A·M scorecard, then the findings that matter most with their evidence
// and the most each can gain, then the headline figures users compare with
// other tools (TensorBoard plugin, HTA). Plain text, 100 columns.
#pragma once

#include <string>

#include "analyzer/analyses/rank_analysis.h"

namespace damscope {

struct SummaryTextOptions {
  size_t max_findings = 5;
};

std::string formatRankSummary(const RankAnalysis& rank, const AnalysisOptions& options,
                              const SummaryTextOptions& text = {});
std::string formatRunSummary(const RunAnalysis& run, const AnalysisOptions& options,
                             const SummaryTextOptions& text = {});

// "1.234 s", "61.2 ms", "15.0 µs", "800 ns".
std::string formatDuration(double ns);

}  // namespace damscope
