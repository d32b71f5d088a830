// `damscope report`'s documents: a self-contained HTML page (inline CSS and
// SVG; no script, no font or image from the network) that a person reads in
// a minute, and Markdown for pasting into an issue or a pull request. Both
// are functions of the result model (analysis_result.h) — a stored analysis
// renders exactly as a fresh one — plus, for the HTML's timeline strip, the
// representative step's events (step_strip.h). The JSON report is the
// analysis document (result_json.h).
//
// The first rank is the one shown in full; with several ranks, a table
// compares them. Every string from a trace is escaped (markup.h).
#pragma once

#include <array>
#include <optional>
#include <string>

#include "analyzer/report/step_strip.h"
#include "analyzer/result/analysis_result.h"

namespace damscope {

struct ReportOptions {
  size_t max_findings = 10;
  size_t evidence_per_finding = 6;
  size_t top_kernels = 15;
  size_t roofline_rows = 10;
  // How the front end supplies what a note lacks (Remedy order; "" for none).
  std::array<std::string, kRemedyCount> remedies{};
};

std::string renderHtmlReport(const RunResult& run, const std::optional<StepStrip>& strip,
                             const ReportOptions& options = {});

std::string renderMarkdownReport(const RunResult& run, const ReportOptions& options = {});

}  // namespace damscope
