// What-if for people: see what_if_report.h.
#include <fmt/format.h>

#include "analyzer/report/text_format.h"
#include "analyzer/report/what_if_report.h"

namespace damscope {
namespace {

std::string percentOrUnknown(const std::optional<double>& v) {
  return v ? fmt::format("{:.1f} %", *v) : "unknown";
}

std::string estimateText(const WhatIfEstimate& e) {
  std::string out = fmt::format("  {}  ({})\n", sentenceCase(e.label), e.request);
  out += fmt::format("    {:<8}{}\n", "step", stepChangeWords(e));
  if (e.estimated && (e.mfu_before_pct || e.mfu_after_pct)) {
    out += fmt::format("    {:<8}{} -> {} (est.)\n", "MFU", percentOrUnknown(e.mfu_before_pct),
                       percentOrUnknown(e.mfu_after_pct));
  }
  if (e.estimated && e.memory_before_bytes && e.memory_after_bytes &&
      *e.memory_after_bytes != *e.memory_before_bytes) {
    out += fmt::format("    {:<8}{} -> {} per device (est.)\n", "memory",
                       formatBytes(*e.memory_before_bytes), formatBytes(*e.memory_after_bytes));
  }
  out += wrapText(fmt::format("{} {}", e.estimated ? "assumes:" : "no estimate:", e.basis), 4);
  return out + "\n";
}

}  // namespace

std::string stepChangeWords(const WhatIfEstimate& e) {
  if (!e.estimated) return formatDuration(e.step_before_ns) + " (no estimate)";
  return fmt::format("{} -> {} (est., {:+.1f} %)", formatDuration(e.step_before_ns),
                     formatDuration(e.step_after_ns), e.changePct());
}

std::string whatIfText(const WhatIfReport& report) {
  std::string out = fmt::format("WHAT IF  {}: mean step {} over {} analysed step{}{}\n\n",
                                terminalName(report.source), formatDuration(report.step_ns),
                                report.steps, report.steps == 1 ? "" : "s",
                                report.device.empty() ? "" : ", on " + terminalName(report.device));
  if (report.each.empty()) {
    out += wrapText(
        "  Nothing a what-if removes was measured: no data stall, no exposed communication, no "
        "FP32 matrix time on a device with tensor cores. Ask with --what-if KEY=VALUE.",
        0);
    out += "\n";
  }
  for (const WhatIfEstimate& e : report.each) out += estimateText(e);
  if (report.combined) {
    out += "All together, in the order given\n";
    out += estimateText(*report.combined);
  }
  out += wrapText(
      "Estimates from the run's own breakdown: the mean analysed step, split as the scorecard "
      "splits it, with each change applied to its part (docs/plan.md \"What-if\"). Re-record "
      "with the change to measure it.",
      0);
  return out + "\n";
}

}  // namespace damscope
