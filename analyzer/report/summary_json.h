// The machine-readable summary `damscope analyze --format json` prints:
// one object per rank with the headline figures, the verdict, the scorecard,
// the findings and the steps. docs/analysis-json.md documents every field.
// Unknown figures are null, never NaN.
#pragma once

#include <nlohmann/json.hpp>

#include "analyzer/analyses/rank_analysis.h"

namespace damscope {

constexpr int kAnalysisJsonVersion = 1;

nlohmann::json analysisJson(const RunAnalysis& run, const AnalysisOptions& options);
nlohmann::json rankJson(const RankAnalysis& rank, const AnalysisOptions& options);

}  // namespace damscope
