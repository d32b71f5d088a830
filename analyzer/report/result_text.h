// The human summary of a run: the verdict first, then the D·A·M scorecard,
// then the findings that matter most with their evidence and the most each
// can gain, then the headline figures users compare with other tools
// (TensorBoard plugin, HTA). Plain text, 100 columns. A function of the
// result model only (analysis_result.h): a stored analysis prints exactly as
// a fresh one.
#pragma once

#include <array>
#include <string>

#include "analyzer/result/analysis_result.h"

namespace damscope {

struct SummaryTextOptions {
  size_t max_findings = 5;
  // Where the findings left out are, after "(N more ": the front end names
  // its own way to show them.
  std::string more_findings = "in the JSON document and the findings table";
  // How the front end asks for what a note lacks (Remedy order; "" for none):
  // appended to the note as "(give it with ...)".
  std::array<std::string, kRemedyCount> remedies{};
};

std::string formatRankSummary(const RankResult& rank, const SummaryTextOptions& text = {});
std::string formatRunSummary(const RunResult& run, const SummaryTextOptions& text = {});

}  // namespace damscope
