// The step and kernel charts' data: see chart_series.h.
#include "gui/charts/chart_series.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "analyzer/report/result_words.h"

namespace damscope {
namespace {

constexpr double kNsPerMs = 1e6;

// Step numbers as axis labels, made unique ("3", "3 (2)") because a category
// axis merges equal labels.
std::vector<std::string> stepLabels(const RankResult& rank, size_t count) {
  std::vector<std::string> out;
  std::set<std::string> used;
  for (size_t i = 0; i < count; ++i) {
    std::string label =
        i < rank.steps.size() ? fmt::format("{}", rank.steps[i].number) : fmt::format("{}", i);
    std::string unique = label;
    for (int n = 2; used.count(unique) > 0; ++n) unique = fmt::format("{} ({})", label, n);
    used.insert(unique);
    out.push_back(std::move(unique));
  }
  return out;
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
  std::vector<KernelBar> out;
  std::set<std::string> used;
  for (const TopKernelResult& k : rank.kernels.top) {
    if (out.size() >= limit) break;
    const std::string label = kernelLabel(k.name, label_max);
    std::string unique = label;
    for (int n = 2; used.count(unique) > 0; ++n) unique = fmt::format("{} ({})", label, n);
    used.insert(unique);
    out.push_back({k.name, unique, k.category, static_cast<double>(k.total_ns) / kNsPerMs, k.pct,
                   k.kernels, static_cast<double>(k.mean_ns) / kNsPerMs});
  }
  return out;
}

std::string kernelLabel(std::string_view name, size_t max) {
  std::string s(name);
  if (s.rfind("void ", 0) == 0) s.erase(0, 5);
  for (size_t at; (at = s.find("(anonymous namespace)::")) != std::string::npos;) s.erase(at, 23);
  // Fold template arguments and drop the argument list (from the first '('
  // outside template brackets).
  std::string folded;
  int depth = 0;
  for (char c : s) {
    if (c == '<') {
      if (depth++ == 0) folded += "<…>";
    } else if (c == '>' && depth > 0) {
      --depth;
    } else if (depth == 0) {
      if (c == '(' && !folded.empty()) break;
      folded += c;
    }
  }
  while (!folded.empty() && folded.back() == ' ') folded.pop_back();
  if (folded.empty()) folded = s;
  // Too long: drop leading namespaces first, the part a reader needs least.
  auto visible = [](const std::string& t) {
    size_t n = 0;
    for (unsigned char c : t) n += (c & 0xC0) != 0x80;  // code points, so "…" counts once
    return n;
  };
  while (visible(folded) > max) {
    const std::string_view kElided = "…::";
    const size_t from = folded.rfind(kElided, 0) == 0 ? kElided.size() : 0;
    const size_t sep = folded.find("::", from);
    if (sep == std::string::npos) break;
    folded = "…" + folded.substr(sep);  // "…::vectorized_elementwise_kernel<…>"
  }
  if (visible(folded) > max && max > 4) {
    // Still too long: keep the head and tail, which tell kernels apart; cut
    // between UTF-8 sequences, never inside one.
    auto continuation = [&](size_t i) {
      return i < folded.size() && (static_cast<unsigned char>(folded[i]) & 0xC0) == 0x80;
    };
    size_t head = (max - 1) / 2;
    while (head > 0 && continuation(head)) --head;
    size_t tail_from = folded.size() - (max - 1 - (max - 1) / 2);
    while (continuation(tail_from)) ++tail_from;
    folded = folded.substr(0, head) + "…" + folded.substr(tail_from);
  }
  return folded;
}

}  // namespace damscope
