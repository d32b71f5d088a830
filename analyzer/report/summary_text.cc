// The human summary: see summary_text.h.
#include "analyzer/report/summary_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace damscope {
namespace {

std::string percent(double v) {
  return std::isfinite(v) ? fmt::format("{:.1f} %", v) : "n/a";
}

std::string bar(double pct) {
  const int blocks =
      std::isfinite(pct) ? static_cast<int>(std::lround(std::clamp(pct, 0.0, 100.0) / 2.5)) : 0;
  std::string out;
  for (int i = 0; i < blocks; ++i) out += "\u2588";
  return out;
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string stepsLine(const RankAnalysis& a) {
  const StepReport& s = a.steps;
  if (s.steps.empty()) return "no steps found: the whole trace is one span";
  const TraceTables& t = *a.tables;
  std::string line =
      s.steps.size() == 1
          ? fmt::format("1 step ({})", t.strings.get(s.steps.front().name))
          : fmt::format("{} steps ({} .. {})", s.steps.size(), t.strings.get(s.steps.front().name),
                        t.strings.get(s.steps.back().name));
  if (a.window.cut) {
    line +=
        fmt::format(", {} analysed (the last one is cut off, as HTA does)", a.window.step_count);
  }
  double total = 0;
  for (size_t i = a.window.first_step; i < a.window.first_step + a.window.step_count; ++i) {
    total += static_cast<double>(s.steps[i].duration());
  }
  if (a.window.step_count > 0) {
    const double avg = total / static_cast<double>(a.window.step_count);
    line += fmt::format("; avg step {}", formatDuration(avg));
    if (std::isfinite(s.tokens_per_step) && avg > 0) {
      line += fmt::format(", {:.0f} tokens/s", s.tokens_per_step / (avg * 1e-9));
    }
    if (std::isfinite(s.samples_per_step) && avg > 0) {
      line += fmt::format(", {:.1f} samples/s", s.samples_per_step / (avg * 1e-9));
    }
  }
  return line;
}

std::string evidenceLine(const RankAnalysis& a, const Evidence& e) {
  std::vector<std::string> parts;
  const TraceTables& t = *a.tables;
  if (!e.gaps.empty()) {
    std::string s = "gaps";
    for (size_t i = 0; i < std::min<size_t>(3, e.gaps.size()); ++i) {
      const Gap& g = a.gaps.gaps[static_cast<size_t>(e.gaps[i])];
      s += fmt::format(" #{} ({})", e.gaps[i], formatDuration(static_cast<double>(g.duration())));
    }
    if (e.gaps.size() > 3) s += fmt::format(" +{}", e.gaps.size() - 3);
    parts.push_back(s);
  }
  if (!e.ranges.empty()) {
    const int64_t r = e.ranges.front();
    parts.push_back(
        fmt::format("range #{} \"{}\"{}", r, t.strings.get(t.ranges.name[static_cast<size_t>(r)]),
                    e.ranges.size() > 1 ? fmt::format(" +{}", e.ranges.size() - 1) : ""));
  }
  if (!e.api_calls.empty()) {
    const int64_t c = e.api_calls.front();
    parts.push_back(
        fmt::format("call #{} {}{}", c, t.strings.get(t.api_calls.name[static_cast<size_t>(c)]),
                    e.api_calls.size() > 1 ? fmt::format(" +{}", e.api_calls.size() - 1) : ""));
  }
  if (!e.kernels.empty()) {
    const int64_t k = e.kernels.front();
    std::string name(t.strings.get(t.kernels.name[static_cast<size_t>(k)]));
    if (name.size() > 60) name = name.substr(0, 57) + "...";
    parts.push_back(
        fmt::format("kernel #{} {}{}", k, name,
                    e.kernels.size() > 1 ? fmt::format(" +{}", e.kernels.size() - 1) : ""));
  }
  if (!e.memcpys.empty()) {
    parts.push_back(
        fmt::format("memcpys #{}{}", e.memcpys.front(),
                    e.memcpys.size() > 1 ? fmt::format(" +{}", e.memcpys.size() - 1) : ""));
  }
  if (!e.counters.empty()) parts.push_back(fmt::format("counter #{}", e.counters.front()));
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? "; " : "") + parts[i];
  return out;
}

// Wraps `text` at `width` columns with `indent` spaces on every line.
std::string wrap(const std::string& text, size_t indent, size_t width = 100) {
  std::string out, line(indent, ' ');
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (line.size() > indent && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line = std::string(indent, ' ');
    }
    if (line.size() > indent) line += ' ';
    line += word;
    start = end + 1;
  }
  if (line.size() > indent) out += line + "\n";
  return out;
}

}  // namespace

std::string formatDuration(double ns) {
  if (!std::isfinite(ns)) return "n/a";
  const double a = std::fabs(ns);
  if (a >= 1e9) return fmt::format("{:.3f} s", ns / 1e9);
  if (a >= 1e6) return fmt::format("{:.1f} ms", ns / 1e6);
  if (a >= 1e3) return fmt::format("{:.1f} \u00b5s", ns / 1e3);
  return fmt::format("{:.0f} ns", ns);
}

std::string formatRankSummary(const RankAnalysis& a, const AnalysisOptions& options,
                              const SummaryTextOptions& text) {
  std::string out;
  const TraceTables& t = *a.tables;
  const DeviceUtilization* u = a.utilization.primaryDevice();
  std::string header = a.source;
  if (a.rank >= 0) header += fmt::format("  rank {}", a.rank);
  if (u) {
    for (size_t i = 0; i < t.devices.size(); ++i) {
      if (t.devices.device[i] == u->device && t.devices.name[i].valid()) {
        header += fmt::format("  GPU {} {}", u->device, t.strings.get(t.devices.name[i]));
        break;
      }
    }
  }
  out += header + "\n";
  out += stepsLine(a) + "\n\n";

  if (!a.scorecard.valid) {
    out += "VERDICT  none: the trace has no GPU work to judge\n";
  } else {
    const Scorecard& run = a.scorecard.run;
    out += fmt::format("VERDICT  {}  (D\u00b7A\u00b7M: {}) {}\n", upper(toText(run.verdict)),
                       damTerm(run.verdict), verdictLabel(run.verdict));
    const bool starved = run.stallPct() >= options.scorecard.starved_pct;
    if (starved) {
      out += fmt::format(
          "         the GPU is starved: stalls take {} of the step (threshold {:.0f} %); the "
          "largest is {} at {}\n",
          percent(run.stallPct()), options.scorecard.starved_pct, axisLabel(run.deciding_axis),
          percent(run.pct(run.deciding_axis)));
    } else {
      out += fmt::format(
          "         the GPU is fed: stalls take {} of the step (under {:.0f} %); {} take {}\n",
          percent(run.stallPct()), options.scorecard.starved_pct, axisLabel(run.deciding_axis),
          percent(run.pct(run.deciding_axis)));
    }
    out += fmt::format(
        "\nWhere the step time goes (D\u00b7A\u00b7M scorecard, {}, device {})\n",
        a.window.step_count > 0
            ? fmt::format("{} step{}, {}", a.window.step_count, a.window.step_count == 1 ? "" : "s",
                          formatDuration(static_cast<double>(run.total())))
            : formatDuration(static_cast<double>(run.total())),
        a.scorecard.device);
    for (size_t x = 0; x < kAxisCount; ++x) {
      const Axis axis = static_cast<Axis>(x);
      const std::string blocks = bar(run.pct(axis));
      out += fmt::format("  {:<24}{:>7}{}{}\n", axisLabel(axis), percent(run.pct(axis)),
                         blocks.empty() ? "" : "  ", blocks);
    }
  }

  out += "\nWhat to change first\n";
  if (a.findings.findings.empty()) {
    out += "  nothing above the rule thresholds\n";
  }
  for (size_t i = 0; i < std::min(text.max_findings, a.findings.findings.size()); ++i) {
    const Finding& f = a.findings.findings[i];
    std::string gain = std::isfinite(f.max_gain_pct)
                           ? fmt::format("saves at most {} of step time", percent(f.max_gain_pct))
                           : "gain cannot be bounded from the trace";
    out += fmt::format("  {}. [{}] {}\n", i + 1, toText(f.severity), f.title);
    out += fmt::format("     {} ({})\n", gain, f.rule);
    out += wrap(f.recommendation, 5);
    const std::string evidence = evidenceLine(a, f.evidence);
    if (!evidence.empty()) out += fmt::format("     evidence: {}\n", evidence);
  }
  if (a.findings.findings.size() > text.max_findings) {
    out += fmt::format("  ({} more in --format json and the findings table)\n",
                       a.findings.findings.size() - text.max_findings);
  }

  out += "\n";
  if (u) {
    out += fmt::format(
        "GPU      util {}, est. SM efficiency {}, est. occupancy {}  (PyTorch profiler "
        "definitions)\n",
        percent(u->gpu_util_pct), percent(u->sm_efficiency_pct), percent(u->occupancy_pct));
  }
  if (a.breakdown.valid) {
    const BreakdownFigures& w = a.breakdown.window;
    out += fmt::format(
        "HTA      window {}: idle {}, compute {}, non-compute {}, comm/compute overlap {}\n",
        formatDuration(static_cast<double>(w.span())), percent(w.idlePct()),
        percent(w.computePct()), percent(w.nonComputePct()),
        w.hasCommunication() ? percent(w.overlapPct()) : "n/a (no communication)");
  }
  if (!a.kernels.categories.empty()) {
    std::string line = "Kernels ";
    for (size_t i = 0; i < std::min<size_t>(6, a.kernels.categories.size()); ++i) {
      const CategoryTime& c = a.kernels.categories[i];
      line += fmt::format("{} {} {}", i ? "," : "", toText(c.category), percent(c.pct));
    }
    out += line + "\n";
  }
  if (a.comparison && a.comparison->steps > 0) {
    const RankComparison& c = *a.comparison;
    out += fmt::format("Ranks    median step {}, {:+.1f} % vs the median rank{}\n",
                       formatDuration(static_cast<double>(c.median_step_ns)),
                       c.slower_than_median_pct, c.straggler ? "  STRAGGLER" : "");
  }
  for (const AnalysisNote& n : a.notes)
    out += wrap(fmt::format("note ({}): {}", n.analysis, n.message), 0);
  return out;
}

std::string formatRunSummary(const RunAnalysis& run, const AnalysisOptions& options,
                             const SummaryTextOptions& text) {
  std::string out;
  for (size_t i = 0; i < run.ranks.size(); ++i) {
    if (i > 0) out += "\n" + std::string(100, '-') + "\n\n";
    out += formatRankSummary(run.ranks[i], options, text);
  }
  if (run.ranks.size() > 1) {
    out += "\n" + std::string(100, '=') + "\nCross-rank\n";
    out += fmt::format("  {:<6}{:>14}{:>12}{:>11}{:>16}{:>14}\n", "rank", "median step",
                       "vs median", "straggler", "start skew p50", "last to start");
    for (const RankComparison& c : run.cross_rank.ranks) {
      out += fmt::format(
          "  {:<6}{:>14}{:>11.1f}%{:>11}{:>16}{:>14}\n", c.rank,
          formatDuration(static_cast<double>(c.median_step_ns)), c.slower_than_median_pct,
          c.straggler ? "yes" : "no",
          c.collectives > 0 ? formatDuration(static_cast<double>(c.median_start_skew_ns)) : "n/a",
          c.collectives > 0 ? fmt::format("{:.0f} %", c.last_to_start_pct) : "n/a");
    }
    for (const std::string& n : run.cross_rank.notes) out += wrap("note: " + n, 2);
  }
  return out;
}

}  // namespace damscope
