// The JSON document `damscope analyze --format json` prints: one object per
// rank with the headline figures, the verdict, the scorecard, the findings
// and the steps. A function of the result model only (analysis_result.h), so
// a stored analysis renders exactly as a fresh one. docs/analysis-json.md
// documents every field; unknown figures are null, never NaN.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "analyzer/result/analysis_result.h"

namespace damscope {

constexpr int kAnalysisJsonVersion = 1;

nlohmann::json runJson(const RunResult& run);
nlohmann::json rankJson(const RankResult& rank);

// runJson as text, indented by 2; bytes that are not UTF-8 (a trace can name
// anything) are written as U+FFFD instead of failing.
std::string runJsonText(const RunResult& run);

}  // namespace damscope
