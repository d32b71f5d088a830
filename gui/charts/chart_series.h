// What the step and kernel charts plot, prepared from the result model
// without a window: per-step scorecard axes and step times with MFU, and the
// top kernels as bars. Every figure is the analyzer's (RankResult); these
// functions only pick, convert ns to ms and word labels, so the charts are
// tested without drawing.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/result/analysis_result.h"
#include "gui/models/short_names.h"

namespace damscope {

// The scorecard per step (RankResult::scorecard->steps), one bar per step
// with one stacked value per Axis, in ms.
struct StepBreakdownBars {
  std::vector<std::string> labels;                 // the step's number, unique
  std::vector<std::string> names;                  // "ProfilerStep#3"
  std::array<std::vector<double>, kAxisCount> ms;  // [axis][step]
  std::vector<std::optional<int64_t>> range_ids;   // ranges.id of each step
  std::vector<bool> analysed;                      // inside the analysis window
  bool empty() const { return labels.empty(); }
};
// Empty without a scorecard (no GPU work to judge).
StepBreakdownBars stepBreakdownBars(const RankResult& rank);

// Step time per step (RankResult::steps, ms) and MFU per step
// (RankResult::mfu.steps). When MFU is not computed, `mfu_words` says why in
// the report's words (keyFigures, result_words.h) and no step has a value.
struct StepTimes {
  std::vector<std::string> labels;
  std::vector<std::string> names;
  std::vector<double> ms;
  std::vector<bool> analysed;
  std::vector<std::optional<int64_t>> range_ids;
  std::vector<std::optional<double>> mfu_pct;  // index-aligned with ms
  bool mfu_computed = false;
  std::string mfu_words;  // "MFU not computed: ..." or "MFU impossible: ..."; empty when computed
  bool empty() const { return labels.empty(); }
};
StepTimes stepTimes(const RankResult& rank);

// How the GUI tells a person to supply what an analysis lacked (the remedies
// noteText appends): the analyze command's options, then open the run again.
const std::array<std::string, kRemedyCount>& guiRemedies();

// RankResult::kernels.top as bars, largest first, at most `limit`.
struct KernelBar {
  std::string name;   // the full kernel name
  std::string label;  // short and unique among the bars (kernelLabel)
  KernelCategory category = KernelCategory::kOther;
  double ms = 0;
  double pct = 0;  // of all kernel time
  int64_t kernels = 0;
  double mean_ms = 0;
};
// Labels are at most `label_max` characters (kernelLabel).
std::vector<KernelBar> topKernelBars(const RankResult& rank, size_t limit = 15,
                                     size_t label_max = 44);

}  // namespace damscope
