// The human diff: see diff_text.h.
#include "analyzer/report/diff_text.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>

#include "analyzer/report/text_format.h"

namespace damscope {
namespace {

constexpr size_t kWidth = 100;

std::string pct(const std::optional<double>& v) {
  return v && std::isfinite(*v) ? fmt::format("{:.1f} %", *v) : "n/a";
}
std::string duration(const std::optional<double>& ns) {
  return ns ? formatDuration(*ns) : "n/a";
}
// "+5.2 pts", "-31.9 pts": a change of a share, in percentage points; "0.0
// pts" when it rounds to nothing (no "-0.0").
std::string points(const std::optional<double>& v) {
  if (!v) return "";
  if (std::abs(*v) < 0.05) return "0.0 pts";
  return fmt::format("{:+.1f} pts", *v);
}
// "+1.2 ms", "-58.5 ms", "0 ns".
std::string signedDuration(const std::optional<double>& ns) {
  if (!ns) return "";
  if (std::abs(*ns) < 0.5) return "0 ns";
  return (*ns < 0 ? "-" : "+") + formatDuration(std::abs(*ns));
}
std::string relative(const Change& c) {
  const std::optional<double> r = c.relativePct();
  return r ? fmt::format(" ({:+.1f} %)", *r) : "";
}

// One row of a side-by-side table: a share and a time before and after, and
// the change of each.
std::string shareRow(std::string_view label, const Change& share, const Change& time) {
  return fmt::format("  {:<24}{:>8} {:>10}   {:>8} {:>10}   {:>10} {:>10}\n", label,
                     pct(share.before), time.before ? duration(time.before) : "", pct(share.after),
                     time.after ? duration(time.after) : "", points(share.delta()),
                     signedDuration(time.delta()));
}
// The column heads over shareRow's columns.
std::string heads() {
  return fmt::format("  {:<24}{:>19}   {:>19}   {:>21}\n", "", "before", "after", "change");
}
std::string shareRow(std::string_view label, const Change& share) {
  return fmt::format("  {:<24}{:>8} {:>10}   {:>8} {:>10}   {:>10}\n", label, pct(share.before), "",
                     pct(share.after), "", points(share.delta()));
}

std::string verdictLines(const RankDiff& d) {
  std::string out;
  const std::string before = upperCase(toText(d.before_verdict));
  const std::string after = upperCase(toText(d.after_verdict));
  if (d.verdictChanged()) {
    out += fmt::format("VERDICT  {} -> {}  (D\u00b7A\u00b7M: {} -> {})\n", before, after,
                       damTerm(d.before_verdict), damTerm(d.after_verdict));
  } else {
    out +=
        fmt::format("VERDICT  still {}  (D\u00b7A\u00b7M: {})\n", after, damTerm(d.after_verdict));
  }
  auto axisShare = [&](Axis axis) -> const AxisChange* {
    for (const AxisChange& a : d.axes) {
      if (a.axis == axis) return &a;
    }
    return nullptr;
  };
  const AxisChange* was = d.before_lead ? axisShare(*d.before_lead) : nullptr;
  const AxisChange* now = d.after_lead ? axisShare(*d.after_lead) : nullptr;
  if (was && now && was->axis == now->axis) {
    out += fmt::format("         the lead is still {}: {} -> {} of the step\n",
                       axisLabel(now->axis), pct(now->pct.before), pct(now->pct.after));
  } else {
    if (was) {
      out += fmt::format("         {} was the lead: {} -> {} of the step\n", axisLabel(was->axis),
                         pct(was->pct.before), pct(was->pct.after));
    }
    if (now) {
      out += fmt::format("         {} leads now: {} -> {} of the step\n", axisLabel(now->axis),
                         pct(now->pct.before), pct(now->pct.after));
    }
  }
  return out;
}

std::string stepLine(const RankDiff& d) {
  std::string line;
  if (d.step_ns.before || d.step_ns.after) {
    line = fmt::format("step time {} -> {}{}", duration(d.step_ns.before),
                       duration(d.step_ns.after), relative(d.step_ns));
  } else {
    line = "no steps to compare";
  }
  line += fmt::format(", {} -> {} steps analysed\n", d.before_steps, d.after_steps);
  if (d.critical_path_ns.before || d.critical_path_ns.after) {
    line += fmt::format("critical path {} -> {}{} (median analysed step)\n",
                        duration(d.critical_path_ns.before), duration(d.critical_path_ns.after),
                        relative(d.critical_path_ns));
  }
  return line;
}

std::string scorecardLines(const RankDiff& d) {
  if (d.axes.empty()) return "";
  std::string out =
      fmt::format("\nWhere the step time goes (D\u00b7A\u00b7M scorecard, share and {})\n",
                  d.per_step ? "time per step" : "total time");
  out += heads();
  for (const AxisChange& a : d.axes) out += shareRow(axisLabel(a.axis), a.pct, a.ns_per_step);
  return out;
}

bool anyKnown(std::initializer_list<const Change*> changes) {
  for (const Change* c : changes) {
    if (c->before || c->after) return true;
  }
  return false;
}

std::string figureLines(const RankDiff& d) {
  std::string out;
  if (anyKnown({&d.idle_pct, &d.compute_pct, &d.non_compute_pct})) {
    out += "\nGPU time (HTA temporal breakdown, over each run's window)\n" + heads();
    out += shareRow("idle", d.idle_pct);
    out += shareRow("compute", d.compute_pct);
    out += shareRow("non-compute", d.non_compute_pct);
    if (anyKnown({&d.overlap_pct})) out += shareRow("comm/compute overlap", d.overlap_pct);
  }
  if (anyKnown({&d.gpu_util_pct, &d.sm_efficiency_pct, &d.occupancy_pct})) {
    out += "\nGPU utilization (PyTorch profiler definitions)\n" + heads();
    out += shareRow("GPU util", d.gpu_util_pct);
    out += shareRow("est. SM efficiency", d.sm_efficiency_pct);
    out += shareRow("est. occupancy", d.occupancy_pct);
  }
  if (anyKnown({&d.mfu_pct, &d.hfu_pct})) {
    out += "\nModel FLOPs utilization (of the device's peak)\n" + heads();
    if (anyKnown({&d.mfu_pct})) out += shareRow("MFU", d.mfu_pct);
    if (anyKnown({&d.hfu_pct})) out += shareRow("HFU", d.hfu_pct);
  }
  return out;
}

std::string kernelLines(const RankDiff& d) {
  const char* per = d.per_step ? "time per step" : "total time";
  std::string out;
  if (!d.categories.empty()) {
    out += fmt::format("\nKernel time by category (share of kernel time and {})\n", per);
    out += heads();
    for (const CategoryChange& c : d.categories) {
      out += shareRow(toText(c.category), c.pct, c.ns_per_step);
    }
    out +=
        fmt::format("  {:<24}{:>8} {:>10}   {:>8} {:>10}   {:>10} {:>10}\n", "all kernels", "",
                    duration(d.kernel_ns_per_step.before), "", duration(d.kernel_ns_per_step.after),
                    "", signedDuration(d.kernel_ns_per_step.delta()));
  }
  if (d.kernels.empty()) return out;
  out += fmt::format("\nKernels that moved most ({}; <: below the run's top kernels)\n", per);
  out += fmt::format("  {:>11} {:>11} {:>11}  {}\n", "before", "after", "change", "kernel");
  auto figure = [](const std::optional<double>& ns, const std::optional<double>& below) {
    if (ns) return duration(ns);
    return below ? "<" + duration(below) : std::string("n/a");
  };
  for (const KernelChange& k : d.kernels) {
    const Change& t = k.ns_per_step;
    std::string change = signedDuration(t.delta());
    if (change.empty() && k.moved_ns > 0) {
      change = (t.after ? ">+" : ">-") + duration(k.moved_ns);
    }
    const std::string line =
        fmt::format("  {:>11} {:>11} {:>11}  {}", figure(t.before, k.before_below_ns),
                    figure(t.after, k.after_below_ns), change, terminalName(k.name));
    out += clipText(line, kWidth) + "\n";
  }
  if (d.ops.empty()) return out;
  out += fmt::format(
      "\nOps that moved most (GPU time of what each launched, {}; <: below the "
      "run's top ops)\n",
      per);
  out += fmt::format("  {:>11} {:>11} {:>11}  {}\n", "before", "after", "change", "op");
  for (const OpChange& o : d.ops) {
    const Change& t = o.ns_per_step;
    std::string change = signedDuration(t.delta());
    if (change.empty() && o.moved_ns > 0) change = (t.after ? ">+" : ">-") + duration(o.moved_ns);
    const std::string line =
        fmt::format("  {:>11} {:>11} {:>11}  {}", figure(t.before, o.before_below_ns),
                    figure(t.after, o.after_below_ns), change, terminalName(o.name));
    out += clipText(line, kWidth) + "\n";
  }
  return out;
}

std::string findingLines(const RankDiff& d) {
  std::string out = "\nFindings\n";
  if (d.findings.empty()) return out + "  none before or after\n";
  for (const FindingChange& f : d.findings) {
    const char* state = f.state == FindingState::kAppeared      ? "new  "
                        : f.state == FindingState::kDisappeared ? "gone "
                                                                : "still";
    out += fmt::format("  {}  {} [{}]: {} {} -> {}\n", state, f.rule, toText(f.severity),
                       toText(f.metric), pct(f.value.before), pct(f.value.after));
    if (f.projected_step_ns.before || f.projected_step_ns.after) {
      out += fmt::format("         step without it (critical path): {} -> {}\n",
                         duration(f.projected_step_ns.before), duration(f.projected_step_ns.after));
    }
    out += wrapText(terminalName(f.title), 9, kWidth);
  }
  return out;
}

std::string sourceLine(std::string_view side, const std::string& source,
                       const std::optional<int32_t>& rank, const std::string& device) {
  std::string line = fmt::format("{:<8}{}", side, terminalName(source));
  if (rank) line += fmt::format("  rank {}", *rank);
  if (!device.empty()) line += "  " + terminalName(device);
  return clipText(line, kWidth) + "\n";
}

}  // namespace

std::string formatRankDiff(const RankDiff& d) {
  std::string out = sourceLine("before", d.before_source, d.before_rank, d.before_device_name);
  out += sourceLine("after", d.after_source, d.after_rank, d.after_device_name);
  out += "\n" + verdictLines(d) + stepLine(d);
  out += scorecardLines(d);
  out += figureLines(d);
  out += kernelLines(d);
  out += findingLines(d);
  for (const std::string& n : d.notes) out += wrapText("note: " + terminalName(n), 0, kWidth);
  return out;
}

std::string formatRunDiff(const RunDiff& diff) {
  std::string out;
  for (size_t i = 0; i < diff.ranks.size(); ++i) {
    if (i > 0) out += "\n" + std::string(kWidth, '-') + "\n\n";
    out += formatRankDiff(diff.ranks[i]);
  }
  for (const std::string& n : diff.notes) out += wrapText("note: " + terminalName(n), 0, kWidth);
  return out;
}

}  // namespace damscope
