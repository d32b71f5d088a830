// The HTML report: see report_html.h.
#include "analyzer/report/report_html.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "analyzer/report/markup.h"
#include "analyzer/report/report_charts.h"
#include "analyzer/report/result_words.h"
#include "analyzer/report/text_format.h"
#include "analyzer/report/vocabulary.h"
#include "analyzer/report/what_if_report.h"

namespace damscope {
namespace {

// Readable at a glance, printable, and nothing loaded from elsewhere: the
// system's own fonts, colours that survive a grey printer by their labels.
constexpr std::string_view kStyle = R"css(
:root { --ink: #1f2328; --muted: #5b636e; --line: #d8dce1; --panel: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 1080px; margin: 0 auto; padding: 28px 32px 48px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 36px 0 10px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h3 { font-size: 15px; margin: 0 0 4px; }
p { margin: 6px 0; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; }
.sub { color: var(--muted); margin: 0; overflow-wrap: anywhere; }
.verdict { margin: 20px 0 12px; padding: 16px 20px; border-radius: 8px; background: var(--panel);
  border-left: 8px solid var(--verdict); }
.verdict .name { font-size: 26px; font-weight: 700; letter-spacing: .02em; color: var(--verdict); }
.verdict .term { font-size: 15px; color: var(--muted); margin-left: 8px; }
.caution { color: #9a3412; font-weight: 600; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; margin: 6px 0 0; padding: 0;
  list-style: none; font-size: 13px; color: var(--muted); }
.legend i { display: inline-block; width: 11px; height: 11px; border-radius: 2px;
  margin-right: 5px; vertical-align: -1px; }
.figures { display: grid; grid-template-columns: repeat(auto-fit, minmax(190px, 1fr)); gap: 10px;
  margin: 16px 0; }
.figure { border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; }
.figure .label { font-size: 12px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); }
.figure .value { font-size: 22px; font-weight: 650; }
.figure .detail { font-size: 12.5px; color: var(--muted); overflow-wrap: anywhere; }
.finding { border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; margin: 10px 0; }
.finding .head { display: flex; gap: 10px; align-items: baseline; }
.badge { font-size: 11px; font-weight: 700; text-transform: uppercase; padding: 1px 7px;
  border-radius: 10px; color: #fff; white-space: nowrap; }
.badge.high { background: #c0392b; } .badge.medium { background: #d68910; } .badge.low { background: #7f8c8d; }
.gain { color: var(--muted); font-size: 13.5px; }
.projection { margin: -6px 0 8px; font-size: 13.5px; }
.rule { color: var(--muted); font-size: 12px; }
table { border-collapse: collapse; width: 100%; margin: 8px 0; font-size: 13.5px; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; color: var(--muted); font-size: 12.5px; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.name { word-break: break-all; }
td.origin { overflow-wrap: anywhere; min-width: 16em; }
td.nowrap { white-space: nowrap; }
.evidence { margin-top: 6px; }
.behind { margin: 4px 0 0; font-size: 13px; overflow-wrap: anywhere; }
.evidence td { font-size: 12.5px; padding: 2px 8px; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 6px; }
svg { display: block; margin: 8px 0; overflow: visible; }
svg text { font-size: 12px; fill: var(--ink); }
svg text.tick { fill: var(--muted); }
svg text.faint { opacity: .45; }
svg text.on-bar { fill: #fff; font-weight: 600; }
svg text.roof-label { fill: #444; font-size: 11.5px; }
svg text.point-label { font-size: 11px; font-weight: 700; }
svg line.grid { stroke: #eceef1; }
svg line.axis { stroke: #999; }
svg line.roof { stroke: #333; stroke-width: 2; }
svg line.ridge { stroke: #999; stroke-dasharray: 4 4; }
svg circle.point { fill-opacity: .7; stroke: #fff; stroke-width: 1; }
.notes li { color: var(--muted); }
footer { margin-top: 40px; color: var(--muted); font-size: 12px; }
@media print { main { padding: 0; } .finding, .figure { break-inside: avoid; } }
)css";

std::string legendItem(std::string_view colour, const std::string& label) {
  return fmt::format("<li><i style=\"background:{}\"></i>{}</li>", colour, htmlEscape(label));
}

std::string header(const RankResult& a, size_t ranks) {
  std::string where = a.source;
  std::string sub;
  if (a.rank)
    sub +=
        fmt::format("rank {}{} · ", *a.rank, ranks > 1 ? fmt::format(" of {} shown", ranks) : "");
  if (a.device) {
    sub += deviceLabel(a) + " · ";
  }
  sub += std::string(frameworkLabel(a.framework)) + " · ";
  sub += stepsLine(a);
  return fmt::format(
      "<header><h1>Why is this run slow?</h1><p class=\"sub mono\">{}</p>"
      "<p class=\"sub\">{}</p></header>",
      htmlEscape(where), htmlEscape(sub));
}

std::string verdictSection(const RankResult& a) {
  if (!a.scorecard) {
    return "<section class=\"verdict\" style=\"--verdict:#6b7280\"><div class=\"name\">NO "
           "VERDICT</div><p>The trace has no device work in the analysed window to judge.</p>"
           "</section>";
  }
  const Scorecard& run = a.scorecard->run;
  std::string out = fmt::format(
      "<section class=\"verdict\" style=\"--verdict:{}\"><div><span class=\"name\">{}</span>"
      "<span class=\"term\">D·A·M: {}</span></div><p>{}.</p>",
      verdictColour(run.verdict), htmlEscape(upperCase(toText(run.verdict))),
      htmlEscape(damTerm(run.verdict)), htmlEscape(verdictLabel(run.verdict, a.device_kind)));
  out += "<p>" + htmlEscape(sentenceCase(stallWords(a))) + ".</p>";
  out += fmt::format("<p class=\"sub\">Compute/memory split: {}.</p>",
                     htmlEscape(boundSourceWords(a.roofline)));
  if (a.verdict_may_be_off) {
    out += fmt::format(
        "<p class=\"caution\">Caution: {} of the trace's events were lost on the way in; this "
        "verdict may be off.</p>",
        percent(a.data_loss.lostPct()));
  }
  out += "<h3>Where the step time goes</h3>" + scorecardBarSvg(run) + "<ul class=\"legend\">";
  for (size_t x = 0; x < kAxisCount; ++x) {
    const Axis axis = static_cast<Axis>(x);
    std::string label = fmt::format("{} {}", axisLabel(axis), percent(run.pct(axis)));
    // Exposed communication: waiting for other ranks versus transfer.
    if (axis == Axis::kExposedCommunication && run.pct(axis) > 0) {
      label += " " + communicationSplitWords(a);
    }
    out += legendItem(axisColour(axis), label);
  }
  return out + "</ul></section>";
}

std::string figuresSection(const RankResult& a, const ReportOptions& o) {
  std::string out = "<section class=\"figures\">";
  for (const KeyFigure& f : keyFigures(a, o.remedies)) {
    out += fmt::format(
        "<div class=\"figure\"><div class=\"label\">{}</div><div class=\"value\">{}</div>"
        "<div class=\"detail\">{}</div></div>",
        htmlEscape(f.label), htmlEscape(f.value), htmlEscape(f.detail));
  }
  return out + "</section>";
}

// What an evidence item is: its label (and what the rule read in it), or
// for a gap, its cause and where.
std::string evidenceWhat(const RankResult& a, const EvidenceItem& e) {
  if (!e.detail.empty()) return clipText(e.label, 50) + " — " + e.detail;
  if (e.source != EvidenceSource::kGaps || !e.label.empty() || e.id < 0 ||
      static_cast<size_t>(e.id) >= a.gaps.size()) {
    return e.label;
  }
  const GapResult& g = a.gaps[static_cast<size_t>(e.id)];
  return fmt::format("{} {} idle: {}", deviceWord(a), g.device,
                     g.stream ? fmt::format("stream {}, {}", *g.stream, causeLabel(g.cause))
                              : std::string(causeLabel(g.cause)));
}

std::string atTime(const RankResult& a, int64_t ts) {
  if (isNull(ts)) return "";
  const int64_t origin = a.window.start_ns.value_or(0);
  const int64_t rel = ts - origin;
  return (rel < 0 ? "-" : "+") + formatDuration(static_cast<double>(rel < 0 ? -rel : rel));
}

std::string evidenceTable(const RankResult& a, const Finding& f, size_t max) {
  if (f.evidence.empty()) return "";
  // The op column only where some evidence names an op or module.
  const bool origins = std::any_of(f.evidence.begin(), f.evidence.end(), [](const EvidenceItem& e) {
    return !e.op.empty() || !e.module.empty();
  });
  std::string out =
      "<table class=\"evidence\"><tr><th>evidence</th><th class=\"num\">id</th>"
      "<th class=\"num\">at</th><th class=\"num\">duration</th><th>what</th>";
  out += origins ? "<th>op · module</th></tr>" : "</tr>";
  const Shown<EvidenceItem> evidence = shownEvidence(f, max);
  for (const EvidenceItem& e : evidence.items) {
    out += fmt::format(
        "<tr><td>{}</td><td class=\"num\">#{}</td><td class=\"num\">{}</td><td "
        "class=\"num\">{}</td><td class=\"name\">{}</td>",
        htmlEscape(toText(e.source)), e.id, atTime(a, e.ts),
        isNull(e.dur) ? "" : formatDuration(static_cast<double>(e.dur)),
        htmlEscape(clipText(evidenceWhat(a, e), 200)));
    if (origins) {
      const std::string where =
          e.op.empty() || e.module.empty() ? e.op + e.module : e.op + " · " + e.module;
      out += fmt::format("<td class=\"origin\">{}</td>", htmlEscape(clipText(where, 120)));
    }
    out += "</tr>";
  }
  if (evidence.more > 0) {
    out += fmt::format("<tr><td colspan=\"{}\">… {} more (findings table of the run.db)</td></tr>",
                       origins ? 6 : 5, evidence.more);
  }
  return out + "</table>";
}

// "Behind it: aten::mm in Linear_0 ×6, ...": the ops its evidence names.
std::string behindLine(const Finding& f) {
  const std::string words =
      originWords(f, 5, [](std::string_view name) { return htmlEscape(clipText(name, 80)); });
  return words.empty() ? "" : "<p class=\"behind\">Behind it: " + words + "</p>";
}

std::string projectionLine(const Finding& f) {
  const std::string words = projectionWords(f);
  return words.empty() ? "" : "<p class=\"projection\">" + htmlEscape(sentenceCase(words)) + "</p>";
}

std::string findingsSection(const RankResult& a, const ReportOptions& o) {
  std::string out = "<h2>What to change first</h2>";
  const Shown<Finding> findings = shownFindings(a, o.max_findings);
  if (findings.items.empty()) out += "<p>Nothing crosses a rule's threshold.</p>";
  for (size_t i = 0; i < findings.items.size(); ++i) {
    const Finding& f = findings.items[i];
    out += fmt::format(
        "<div class=\"finding\"><div class=\"head\"><span class=\"badge {0}\">{0}</span>"
        "<h3>{1}. {2}</h3></div><p class=\"gain\">{3} <span class=\"rule\">· rule {4}</span></p>"
        "{5}<p>{6}</p>{7}{8}</div>",
        htmlEscape(toText(f.severity)), i + 1, htmlEscape(f.title), htmlEscape(gainWords(f)),
        htmlEscape(f.rule), projectionLine(f), htmlEscape(f.recommendation), behindLine(f),
        evidenceTable(a, f, o.evidence_per_finding));
  }
  if (findings.more > 0) {
    out += fmt::format("<p class=\"sub\">{} more in the JSON report and the findings table.</p>",
                       findings.more);
  }
  return out;
}

std::string stripSection(const RankResult& a, const std::optional<StepStrip>& strip) {
  if (!strip) return "";
  const bool cpu = a.device_kind == DeviceKind::kCpu;
  std::string out = fmt::format(
      "<h2>A representative step</h2><p class=\"sub\">{} ({}), the median of {} analysed "
      "step{}, on {}: {} coloured by class, and the bubbles where the whole {} was idle, "
      "coloured by cause. Hover for names.</p>",
      htmlEscape(strip->step_name), formatDuration(static_cast<double>(strip->dur)),
      strip->steps_considered, strip->steps_considered == 1 ? "" : "s",
      htmlEscape(cpu ? std::string("the CPU") : fmt::format("GPU {}", strip->device)),
      cpu ? "each compute thread's ops" : "each stream's kernels", deviceWord(a));
  out += stepStripSvg(*strip);
  std::set<KernelCategory> categories;
  for (const StripRow& r : strip->rows) {
    for (const StripSpan& s : r.spans) categories.insert(s.category);
  }
  std::array<int64_t, kGapCauseCount> idle{};
  for (const StripBubble& b : strip->bubbles) idle[static_cast<size_t>(b.cause)] += b.dur;
  out += "<ul class=\"legend\">";
  for (KernelCategory c : categories) out += legendItem(categoryColour(c), std::string(toText(c)));
  for (size_t c = 0; c < kGapCauseCount; ++c) {
    if (idle[c] == 0) continue;
    const GapCause cause = static_cast<GapCause>(c);
    out +=
        legendItem(causeColour(cause), fmt::format("idle: {} {}", causeLabel(cause),
                                                   formatDuration(static_cast<double>(idle[c]))));
  }
  return out + "</ul>";
}

std::string stepsSection(const RankResult& a) {
  const std::string svg = stepBarsSvg(a);
  if (svg.empty()) return "";
  return "<h2>Step by step</h2><p class=\"sub\">Each step's time split as the scorecard splits "
         "it; faded labels are steps outside the analysed window.</p>" +
         svg;
}

std::string criticalPathSection(const RankResult& a) {
  const std::vector<const StepResult*> steps = stepsWithPaths(a);
  if (steps.empty()) return "";
  std::string out =
      "<h2>Critical path</h2><p class=\"sub\">Each analysed step's longest chain of dependent "
      "work through the host threads and the GPU streams (HTA's graph), split by what bounds "
      "each piece of it. Findings on data, host and communication stalls say what freeing "
      "them would give.</p><table><tr><th>step</th><th class=\"num\">step time</th>"
      "<th class=\"num\">critical path</th><th>bounded by</th></tr>";
  for (const StepResult* s : steps) {
    out += fmt::format(
        "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
        s->number, formatDuration(static_cast<double>(s->dur)),
        formatDuration(static_cast<double>(s->critical_path->length_ns)),
        htmlEscape(pathCompositionWords(*s->critical_path)));
  }
  return out + "</table>";
}

std::string rooflineSection(const RankResult& a, const ReportOptions& o) {
  const RooflineReport& r = a.roofline;
  std::string out = "<h2>Roofline</h2>";
  const std::string svg = rooflineSvg(r, a.device_kind == DeviceKind::kCpu ? "DRAM" : "HBM");
  if (svg.empty()) {
    out +=
        "<p>No kernel has both a FLOP and a byte count, so none can be placed. Counts come "
        "from hardware counters, from <code>damscope</code> NVTX annotations "
        "(<code>{\"op\":..,\"flops\":..,\"bytes\":..}</code>), from PyTorch's "
        "<code>with_flops=True</code>, or are estimated from op shapes "
        "(<code>record_shapes=True</code>); docs/analysis.md says how.</p>";
  } else {
    std::string sources;
    for (size_t i = 0; i < r.kernels_by_source.size(); ++i) {
      if (r.kernels_by_source[i] == 0) continue;
      sources +=
          fmt::format("{}{} {}", sources.empty() ? "" : ", ", withThousands(r.kernels_by_source[i]),
                      metricSourceWords(static_cast<MetricSource>(i)));
    }
    out += fmt::format(
        "<p class=\"sub\">{} kernels placed, {} of computation kernel time ({}). Circles are "
        "kernel names, "
        "sized by their time; below the ridge a kernel is limited by memory bandwidth, above it "
        "by the arithmetic peak.</p>",
        withThousands(r.kernels_with_work), percent(r.time_with_work_pct), sources);
    out += svg +
           "<table><tr><th class=\"num\">#</th><th>kernel</th><th>class</th><th>source</th>"
           "<th class=\"num\">FLOP/byte</th><th class=\"num\">achieved</th>"
           "<th class=\"num\">of roof</th><th class=\"num\">time</th></tr>";
    size_t shown = 0;
    for (size_t i = 0; i < r.kernels.size() && shown < o.roofline_rows; ++i) {
      const RooflinePoint& p = r.kernels[i];
      if (!p.intensity || !(p.achieved_flops_per_s > 0)) continue;
      ++shown;
      out += fmt::format(
          "<tr><td class=\"num\">{}</td><td class=\"name mono\">{}</td><td class=\"nowrap\"><span "
          "class=\"swatch\" style=\"background:{}\"></span>{}</td><td>{}</td><td "
          "class=\"num\">{:.1f}</td>"
          "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
          i + 1, htmlEscape(p.name), categoryColour(p.category), htmlEscape(toText(p.category)),
          htmlEscape(metricSourceWords(p.source)), *p.intensity, flopRate(p.achieved_flops_per_s),
          percent(p.pct_of_ceiling), formatDuration(static_cast<double>(p.time_ns)));
    }
    out += "</table>";
  }
  if (!r.collectives.empty()) {
    out +=
        "<h3>Collectives against the link</h3><table><tr><th>collective</th>"
        "<th class=\"num\">kernels</th><th class=\"num\">time</th><th class=\"num\">bus "
        "bandwidth</th><th class=\"num\">of link</th></tr>";
    for (const CollectivePoint& c : r.collectives) {
      out += fmt::format(
          "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
          "<td class=\"num\">{:.1f} GB/s</td><td class=\"num\">{}</td></tr>",
          htmlEscape(c.name), withThousands(c.kernels),
          formatDuration(static_cast<double>(c.time_ns)), c.achieved_bytes_per_s / 1e9,
          percent(c.pct_of_link));
    }
    out += "</table>";
  }
  return out;
}

std::string kernelsSection(const RankResult& a, const ReportOptions& o) {
  const KernelsResult& k = a.kernels;
  if (k.top.empty()) return "";
  std::string out = fmt::format(
      "<h2>Top kernels</h2><p class=\"sub\">{} kernels, {} of kernel time in all.</p><ul "
      "class=\"legend\">",
      withThousands(k.kernels), formatDuration(static_cast<double>(k.total_ns)));
  for (const CategoryTime& c : k.categories) {
    out += legendItem(categoryColour(c.category),
                      fmt::format("{} {}", toText(c.category), percent(c.pct)));
  }
  out +=
      "</ul><table><tr><th>kernel</th><th>class</th><th class=\"num\">calls</th>"
      "<th class=\"num\">total</th><th class=\"num\">mean</th><th class=\"num\">share</th></tr>";
  for (size_t i = 0; i < std::min(o.top_kernels, k.top.size()); ++i) {
    const TopKernelResult& t = k.top[i];
    out += fmt::format(
        "<tr><td class=\"name mono\">{}</td><td class=\"nowrap\"><span class=\"swatch\" "
        "style=\"background:{}\"></span>{}</td><td class=\"num\">{}</td><td "
        "class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td></tr>",
        htmlEscape(t.name), categoryColour(t.category), htmlEscape(toText(t.category)),
        withThousands(t.kernels), formatDuration(static_cast<double>(t.total_ns)),
        formatDuration(static_cast<double>(t.mean_ns)), percent(t.pct));
  }
  return out + "</table>";
}

std::string opsSection(const RankResult& a, const ReportOptions& o) {
  if (a.top_ops.empty()) return "";
  std::string out =
      "<h2>Ops</h2><p class=\"sub\">GPU time by the framework op that launched it "
      "(<span class=\"mono\">damscope ops</span> has the whole table, by op, module or "
      "range).</p><table><tr><th>op</th><th class=\"num\">calls</th><th class=\"num\">GPU "
      "time</th><th class=\"num\">share</th><th class=\"num\">FLOP/s</th><th>roofline</th></tr>";
  for (size_t i = 0; i < std::min(o.top_kernels, a.top_ops.size()); ++i) {
    const OpRow& op = a.top_ops[i];
    out += fmt::format(
        "<tr><td class=\"name mono\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
        htmlEscape(op.name), withThousands(op.calls),
        formatDuration(static_cast<double>(op.gpu_total_ns)), percent(op.gpu_total_pct),
        op.achieved_flops_per_s ? flopRate(*op.achieved_flops_per_s) : "",
        htmlEscape(opRooflineWords(op)));
  }
  return out + "</table>";
}

std::string memorySection(const RankResult& a) {
  if (!a.memory) return "";
  const MemoryEstimate& m = *a.memory;
  std::string out = "<h2>Memory</h2><table>";
  auto row = [&](const std::string& what, const std::string& value) {
    out += fmt::format("<tr><td>{}</td><td class=\"num\">{}</td></tr>", htmlEscape(what),
                       htmlEscape(value));
  };
  row("weights, gradients and optimizer state", formatBytes(m.state_bytes));
  if (m.activation_bytes) {
    row(fmt::format("activations (micro-batch {}{})", m.micro_batch,
                    m.micro_batch_from_tokens ? ", from tokens per step" : ""),
        formatBytes(*m.activation_bytes));
  }
  row("estimated total", formatBytes(m.total_bytes));
  if (m.device_bytes) {
    row("device memory",
        fmt::format("{} ({} used)", formatBytes(*m.device_bytes), percent(m.pct_of_device)));
  }
  if (m.ranks > 1) {
    for (int s = 0; s < 3; ++s) {
      row(fmt::format("state per GPU with ZeRO stage {} over {} ranks", s + 1, m.ranks),
          formatBytes(m.zero_state_bytes[static_cast<size_t>(s)]));
    }
  }
  return out + "</table>";
}

// The planner's view of the run (issue 28): the what-ifs whose measured
// basis is not zero, estimated from the run's own breakdown (what_if.h).
std::string whatIfSection(const RankResult& a) {
  const Result<WhatIfReport> report = estimateWhatIfs(a, applicableWhatIfs(a));
  if (!report.ok() || report->each.empty()) return "";
  std::string out = fmt::format(
      "<h2>What if</h2><p class=\"sub\">Estimates, not measurements: each change applied to "
      "the part of the mean step ({} over {} analysed steps) it removes or moves, as the "
      "scorecard splits it (<code>damscope plan RUN --what-if KEY=VALUE</code> asks for others). "
      "Re-record with the change to measure it.</p><table><tr><th>what if</th><th "
      "class=\"num\">step</th><th class=\"num\">after (est.)</th><th "
      "class=\"num\">change</th><th class=\"num\">MFU after (est.)</th><th>assumes</th></tr>",
      formatDuration(report->step_ns), report->steps);
  auto row = [&](const WhatIfEstimate& e) {
    out += fmt::format(
        "<tr><td>{}<br><code>{}</code></td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
        htmlEscape(sentenceCase(e.label)), htmlEscape(e.request), formatDuration(e.step_before_ns),
        e.estimated ? formatDuration(e.step_after_ns) : "no estimate",
        e.estimated ? fmt::format("{:+.1f} %", e.changePct()) : "",
        e.estimated && e.mfu_after_pct ? percent(*e.mfu_after_pct) : "", htmlEscape(e.basis));
  };
  for (const WhatIfEstimate& e : report->each) row(e);
  if (report->combined) row(*report->combined);
  return out + "</table>";
}

std::string ranksSection(const RunResult& run) {
  if (run.ranks.size() < 2) return "";
  std::string out =
      "<h2>Ranks</h2><table><tr><th>rank</th><th>verdict</th><th class=\"num\">median "
      "step</th><th class=\"num\">vs median</th><th>straggler</th><th class=\"num\">start skew "
      "p50</th><th class=\"num\">last to start</th></tr>";
  for (size_t i = 0; i < run.cross_rank.size(); ++i) {
    const RankComparison& c = run.cross_rank[i];
    const std::string verdict =
        i < run.ranks.size() ? std::string(toText(run.ranks[i].verdict())) : "";
    out += fmt::format(
        "<tr><td>{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{:+.1f} %</td>"
        "<td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
        c.rank, htmlEscape(verdict), formatDuration(static_cast<double>(c.median_step_ns)),
        c.slower_than_median_pct, c.straggler ? "<b>yes</b>" : "no",
        c.collectives > 0 ? formatDuration(static_cast<double>(c.median_start_skew_ns)) : "n/a",
        c.collectives > 0 ? fmt::format("{:.0f} %", c.last_to_start_pct) : "n/a");
  }
  out += "</table>";
  for (const std::string& n : run.cross_rank_notes) {
    out += "<p class=\"sub\">" + htmlEscape(n) + "</p>";
  }
  return out;
}

std::string notesSection(const RankResult& a, const ReportOptions& o) {
  const DataLossReport& loss = a.data_loss;
  if (a.notes.empty() && !loss.any()) return "";
  std::string out = "<h2>About this analysis</h2><ul class=\"notes\">";
  if (loss.any()) {
    out += fmt::format(
        "<li>{} events lost ({}), {} repaired or clipped ({}) on the way in, of {}.</li>",
        withThousands(loss.lost), percent(loss.lostPct()),
        withThousands(loss.repaired + loss.clipped), percent(loss.repairedPct()),
        withThousands(loss.events + loss.lost));
  }
  for (const AnalysisNote& n : a.notes) {
    out += fmt::format("<li><b>{}</b>: {}</li>", htmlEscape(n.analysis),
                       htmlEscape(noteText(n, o.remedies)));
  }
  return out + "</ul>";
}

}  // namespace

std::string renderHtmlReport(const RunResult& run, const std::optional<StepStrip>& strip,
                             const ReportOptions& options) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">";
  if (run.ranks.empty()) {
    return out +
           "<title>damscope report</title></head><body><main><p>The run has no ranks.</p>"
           "</main></body></html>\n";
  }
  const RankResult& a = run.ranks.front();
  out += fmt::format("<title>damscope: {} — {}</title><style>{}</style></head><body><main>",
                     htmlEscape(toText(a.verdict())), htmlEscape(a.source), kStyle);
  out += header(a, run.ranks.size());
  out += verdictSection(a);
  out += figuresSection(a, options);
  out += findingsSection(a, options);
  out += stripSection(a, strip);
  out += stepsSection(a);
  out += criticalPathSection(a);
  out += rooflineSection(a, options);
  out += kernelsSection(a, options);
  out += opsSection(a, options);
  out += memorySection(a);
  out += whatIfSection(a);
  out += ranksSection(run);
  out += notesSection(a, options);
  out += fmt::format("<footer>damscope report of {}{}</footer></main></body></html>\n",
                     htmlEscape(a.store.empty() ? a.source : a.store),
                     a.store.empty() ? " (not stored)" : "");
  return out;
}

}  // namespace damscope
