// The JSON document `damscope diff --format json` prints: one object per pair
// of ranks with every figure of the diff model (analyzer/result/run_diff.h)
// as {before, after, delta} and the verdicts and findings that changed.
// docs/export-and-diff.md documents every field; unknown figures are null.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "analyzer/result/run_diff.h"

namespace damscope {

constexpr int kDiffJsonVersion = 1;

nlohmann::json runDiffJson(const RunDiff& diff);
nlohmann::json rankDiffJson(const RankDiff& diff);

// runDiffJson as text, indented by 2; bytes that are not UTF-8 become U+FFFD.
std::string runDiffJsonText(const RunDiff& diff);

}  // namespace damscope
