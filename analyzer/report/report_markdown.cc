// The Markdown report: see report_html.h. GitHub-flavoured: tables, and the
// scorecard as a table rather than a picture, so it pastes into an issue.
#include <fmt/format.h>

#include <algorithm>

#include "analyzer/report/markup.h"
#include "analyzer/report/report_html.h"
#include "analyzer/report/result_words.h"
#include "analyzer/report/text_format.h"
#include "analyzer/report/what_if_report.h"

namespace damscope {
namespace {

// Evidence listed under a finding: fewer than the HTML's table holds
// (ReportOptions::evidence_per_finding), as a Markdown list reads as text.
constexpr size_t kEvidencePerFinding = 3;

// A kernel name in a table cell: cut so the table stays readable, escaped.
std::string cellName(std::string_view name) {
  return markdownEscape(clipText(name, 90));
}

std::string verdictPart(const RankResult& a) {
  if (!a.scorecard) return "**No verdict**: the trace has no device work to judge.\n\n";
  const Scorecard& run = a.scorecard->run;
  std::string out =
      fmt::format("**Verdict: {}** (D·A·M: {}) — {}.\n\n", upperCase(toText(run.verdict)),
                  damTerm(run.verdict), verdictLabel(run.verdict, a.device_kind));
  out += sentenceCase(stallWords(a)) + ".\n\n";
  out += "Compute/memory split: " + boundSourceWords(a.roofline) + ".\n\n";
  if (a.verdict_may_be_off) {
    out += fmt::format("> Caution: {} of the trace's events were lost; the verdict may be off.\n\n",
                       percent(a.data_loss.lostPct()));
  }
  out += "| where the step time goes | share | time |\n|---|--:|--:|\n";
  for (size_t x = 0; x < kAxisCount; ++x) {
    const Axis axis = static_cast<Axis>(x);
    out += fmt::format("| {}{}{} | {} | {} |\n", axis == run.deciding_axis ? "**" : "",
                       axisLabel(axis), axis == run.deciding_axis ? "**" : "",
                       percent(run.pct(axis)), formatDuration(static_cast<double>(run.ns[x])));
  }
  return out + "\n";
}

// Each analysed step's critical path and what bounds it.
std::string criticalPathPart(const RankResult& a) {
  const std::vector<const StepResult*> steps = stepsWithPaths(a);
  if (steps.empty()) return "";
  std::string out =
      "\n## Critical path\n\nEach analysed step's longest chain of dependent work (HTA's "
      "graph), split by what bounds it.\n\n| step | step time | critical path | bounded by "
      "|\n|--:|--:|--:|---|\n";
  for (const StepResult* s : steps) {
    out += fmt::format("| {} | {} | {} | {} |\n", s->number,
                       formatDuration(static_cast<double>(s->dur)),
                       formatDuration(static_cast<double>(s->critical_path->length_ns)),
                       pathCompositionWords(*s->critical_path));
  }
  return out;
}

// The HTML's "What if" section as a table (what_if.h).
std::string whatIfPart(const RankResult& a) {
  const Result<WhatIfReport> report = estimateWhatIfs(a, applicableWhatIfs(a));
  if (!report.ok() || report->each.empty()) return "";
  std::string out = fmt::format(
      "\n## What if\n\nEstimates from the run's own breakdown (mean step {} over {} analysed "
      "steps), not measurements.\n\n| what if | step | MFU after | assumes |\n|---|---|--:|---|\n",
      formatDuration(report->step_ns), report->steps);
  auto row = [&](const WhatIfEstimate& e) {
    out += fmt::format("| {} (`{}`) | {} | {} | {} |\n", markdownEscape(sentenceCase(e.label)),
                       e.request, stepChangeWords(e),
                       e.estimated && e.mfu_after_pct ? percent(*e.mfu_after_pct) : "",
                       markdownEscape(e.basis));
  };
  for (const WhatIfEstimate& e : report->each) row(e);
  if (report->combined) row(*report->combined);
  return out;
}

}  // namespace

std::string renderMarkdownReport(const RunResult& run, const ReportOptions& o) {
  if (run.ranks.empty()) return "# damscope report\n\nThe run has no ranks.\n";
  const RankResult& a = run.ranks.front();
  std::string out = fmt::format("# damscope report: `{}`\n\n", markdownEscape(a.source));
  std::string sub;
  if (a.rank) sub += fmt::format("rank {} · ", *a.rank);
  if (a.device) {
    sub += deviceLabel(a) + " · ";
  }
  sub += std::string(frameworkLabel(a.framework)) + " · ";
  out += markdownEscape(sub + stepsLine(a)) + "\n\n";
  out += verdictPart(a);

  for (const KeyFigure& f : keyFigures(a, o.remedies)) {
    out += fmt::format("- **{}**: {} — {}\n", f.label, markdownEscape(f.value),
                       markdownEscape(f.detail));
  }
  out += "\n## What to change first\n\n";
  const Shown<Finding> findings = shownFindings(a, o.max_findings);
  if (findings.items.empty()) out += "Nothing crosses a rule's threshold.\n";
  for (size_t i = 0; i < findings.items.size(); ++i) {
    const Finding& f = findings.items[i];
    const std::string path = projectionWords(f);
    out += fmt::format("{}. **[{}] {}** — {}{} (`{}`)  \n   {}\n", i + 1, toText(f.severity),
                       markdownEscape(f.title), gainWords(f), path.empty() ? "" : "; " + path,
                       markdownEscape(f.rule), markdownEscape(f.recommendation));
    const Shown<EvidenceItem> evidence = shownEvidence(f, kEvidencePerFinding);
    for (const EvidenceItem& item : evidence.items) {
      out += fmt::format(
          "   - evidence: {} #{}{}{}{}\n", toText(item.source), item.id,
          isNull(item.dur) ? "" : " (" + formatDuration(static_cast<double>(item.dur)) + ")",
          item.label.empty() ? "" : " " + cellName(item.label),
          item.detail.empty() ? "" : " — " + markdownEscape(clipText(item.detail, 160)));
    }
    if (evidence.more > 0) out += fmt::format("   - … {} more evidence items\n", evidence.more);
    const std::string behind = originWords(f, 5, cellName);
    if (!behind.empty()) out += "   - behind it: " + behind + "\n";
  }

  if (!a.kernels.top.empty()) {
    out +=
        "\n## Top kernels\n\n| kernel | class | calls | total | share |\n|---|---|--:|--:|--:|\n";
    for (size_t i = 0; i < std::min(o.top_kernels, a.kernels.top.size()); ++i) {
      const TopKernelResult& t = a.kernels.top[i];
      out += fmt::format("| {} | {} | {} | {} | {} |\n", cellName(t.name), toText(t.category),
                         withThousands(t.kernels), formatDuration(static_cast<double>(t.total_ns)),
                         percent(t.pct));
    }
  }
  if (!a.top_ops.empty()) {
    out +=
        "\n## Ops\n\nGPU time by the framework op that launched it (`damscope ops` has the whole "
        "table, by op, module or range).\n\n| op | calls | GPU time | share | FLOP/s | "
        "roofline |\n|---|--:|--:|--:|--:|---|\n";
    for (size_t i = 0; i < std::min(o.top_kernels, a.top_ops.size()); ++i) {
      const OpRow& op = a.top_ops[i];
      out += fmt::format(
          "| {} | {} | {} | {} | {} | {} |\n", cellName(op.name), withThousands(op.calls),
          formatDuration(static_cast<double>(op.gpu_total_ns)), percent(op.gpu_total_pct),
          op.achieved_flops_per_s ? flopRate(*op.achieved_flops_per_s) : "", opRooflineWords(op));
    }
  }
  if (a.roofline.kernels_with_work > 0) {
    out += fmt::format(
        "\n## Roofline\n\n{} kernels placed ({} of computation kernel time).\n\n| kernel | class | "
        "FLOP/byte | "
        "achieved | of roof | time |\n|---|---|--:|--:|--:|--:|\n",
        withThousands(a.roofline.kernels_with_work), percent(a.roofline.time_with_work_pct));
    size_t shown = 0;
    for (const RooflinePoint& p : a.roofline.kernels) {
      if (!p.intensity || shown == o.roofline_rows) continue;
      ++shown;
      out += fmt::format("| {} | {} | {:.1f} | {} | {} | {} |\n", cellName(p.name),
                         toText(p.category), *p.intensity, flopRate(p.achieved_flops_per_s),
                         percent(p.pct_of_ceiling), formatDuration(static_cast<double>(p.time_ns)));
    }
  }
  out += criticalPathPart(a);
  out += whatIfPart(a);
  if (run.ranks.size() > 1) {
    out +=
        "\n## Ranks\n\n| rank | verdict | median step | vs median | straggler |\n"
        "|--:|---|--:|--:|---|\n";
    for (size_t i = 0; i < run.cross_rank.size(); ++i) {
      const RankComparison& c = run.cross_rank[i];
      out += fmt::format("| {} | {} | {} | {:+.1f} % | {} |\n", c.rank,
                         i < run.ranks.size() ? toText(run.ranks[i].verdict()) : "",
                         formatDuration(static_cast<double>(c.median_step_ns)),
                         c.slower_than_median_pct, c.straggler ? "**yes**" : "no");
    }
  }
  if (!a.notes.empty()) {
    out += "\n## Notes\n\n";
    for (const AnalysisNote& n : a.notes) {
      out += fmt::format("- {}: {}\n", markdownEscape(n.analysis),
                         markdownEscape(noteText(n, o.remedies)));
    }
  }
  return out;
}

}  // namespace damscope
