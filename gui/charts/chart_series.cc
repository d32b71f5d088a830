// The step and kernel charts' data: see chart_series.h.
#include "gui/charts/chart_series.h"

#include <algorithm>

#include <fmt/format.h>

#include "analyzer/report/result_words.h"

namespace damscope {
namespace {

constexpr double kNsPerMs = 1e6;

// Step numbers as axis labels, made unique ("3", "3 (2)") because a category
// axis merges equal labels.
std::vector<std::string> stepLabels(const RankResult& rank, size_t count) {
  std::vector<std::string> labels;
  labels.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    labels.push_back(i < rank.steps.size() ? fmt::format("{}", rank.steps[i].number)
                                           : fmt::format("{}", i));
  }
  return uniqueLabels(std::move(labels));
}

}  // namespace

StepBreakdownBars stepBreakdownBars(const RankResult& rank) {
  StepBreakdownBars out;
  if (!rank.scorecard) return out;
  const std::vector<Scorecard>& steps = rank.scorecard->steps;
  out.labels = stepLabels(rank, steps.size());
  for (size_t i = 0; i < steps.size(); ++i) {
    const StepResult* step = i < rank.steps.size() ? &rank.steps[i] : nullptr;
    out.names.push_back(step ? step->name : out.labels[i]);
    out.range_ids.push_back(step ? step->range_id : std::nullopt);
    out.analysed.push_back(step && step->in_window);
    for (size_t a = 0; a < kAxisCount; ++a) {
      out.ms[a].push_back(static_cast<double>(steps[i].ns[a]) / kNsPerMs);
    }
  }
  return out;
}

const std::array<std::string, kRemedyCount>& guiRemedies() {
  static const std::array<std::string, kRemedyCount> kRemedies = [] {
    std::array<std::string, kRemedyCount> r;
    r[static_cast<size_t>(Remedy::kDevice)] =
        "damscope analyze RUN --gpu NAME (or --peak-tflops X), then open the run again";
    r[static_cast<size_t>(Remedy::kModel)] =
        "damscope analyze RUN --model NAME (or --params N), then open the run again";
    r[static_cast<size_t>(Remedy::kTokens)] =
        "damscope analyze RUN --tokens-per-step N, then open the run again";
    return r;
  }();
  return kRemedies;
}

StepTimes stepTimes(const RankResult& rank) {
  StepTimes out;
  out.labels = stepLabels(rank, rank.steps.size());
  for (size_t i = 0; i < rank.steps.size(); ++i) {
    const StepResult& s = rank.steps[i];
    out.names.push_back(s.name);
    out.ms.push_back(static_cast<double>(s.dur) / kNsPerMs);
    out.analysed.push_back(s.in_window);
    out.range_ids.push_back(s.range_id);
    out.mfu_pct.push_back(i < rank.mfu.steps.size() ? rank.mfu.steps[i].mfu_pct : std::nullopt);
  }
  out.mfu_computed = rank.mfu.mfu_pct.has_value() &&
                     std::any_of(out.mfu_pct.begin(), out.mfu_pct.end(),
                                 [](const std::optional<double>& v) { return v.has_value(); });
  if (!out.mfu_computed) {
    std::fill(out.mfu_pct.begin(), out.mfu_pct.end(), std::nullopt);
    // The report's words for why (keyFigures: "not computed" or "impossible").
    for (const KeyFigure& f : keyFigures(rank, guiRemedies())) {
      if (f.label == "MFU") out.mfu_words = fmt::format("MFU {}: {}", f.value, f.detail);
    }
    if (out.mfu_words.empty()) out.mfu_words = "MFU not computed for the steps";
  }
  return out;
}

std::vector<KernelBar> topKernelBars(const RankResult& rank, size_t limit, size_t label_max) {
  const size_t n = std::min(limit, rank.kernels.top.size());
  std::vector<std::string_view> names;
  names.reserve(n);
  for (size_t i = 0; i < n; ++i) names.push_back(rank.kernels.top[i].name);
  std::vector<std::string> labels = kernelLabels(names, label_max);
  std::vector<KernelBar> out;
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const TopKernelResult& k = rank.kernels.top[i];
    out.push_back({k.name, std::move(labels[i]), k.category,
                   static_cast<double>(k.total_ns) / kNsPerMs, k.pct, k.kernels,
                   static_cast<double>(k.mean_ns) / kNsPerMs});
  }
  return out;
}

}  // namespace damscope
