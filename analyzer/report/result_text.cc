// The human summary: see result_text.h.
#include "analyzer/report/result_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "analyzer/report/result_words.h"
#include "analyzer/report/text_format.h"

namespace damscope {
namespace {

std::string bar(double pct) {
  const int blocks =
      std::isfinite(pct) ? static_cast<int>(std::lround(std::clamp(pct, 0.0, 100.0) / 2.5)) : 0;
  std::string out;
  for (int i = 0; i < blocks; ++i) out += "\u2588";
  return out;
}

// The items of one source, in the order the finding lists them.
std::vector<const EvidenceItem*> itemsOf(const Finding& f, EvidenceSource source) {
  std::vector<const EvidenceItem*> out;
  for (const EvidenceItem& e : f.evidence) {
    if (e.source == source) out.push_back(&e);
  }
  return out;
}

std::string more(size_t shown, size_t total) {
  return total > shown ? fmt::format(" +{}", total - shown) : "";
}

std::string evidenceLine(const Finding& f) {
  std::vector<std::string> parts;
  if (const auto gaps = itemsOf(f, EvidenceSource::kGaps); !gaps.empty()) {
    std::string s = "gaps";
    const size_t shown = std::min<size_t>(3, gaps.size());
    for (size_t i = 0; i < shown; ++i) {
      s += fmt::format(" #{} ({})", gaps[i]->id, formatDuration(static_cast<double>(gaps[i]->dur)));
    }
    parts.push_back(s + more(shown, gaps.size()));
  }
  if (const auto ranges = itemsOf(f, EvidenceSource::kRanges); !ranges.empty()) {
    parts.push_back(fmt::format("range #{} \"{}\"{}", ranges[0]->id, terminalName(ranges[0]->label),
                                more(1, ranges.size())));
  }
  if (const auto calls = itemsOf(f, EvidenceSource::kApiCalls); !calls.empty()) {
    parts.push_back(fmt::format("call #{} {}{}", calls[0]->id, terminalName(calls[0]->label),
                                more(1, calls.size())));
  }
  if (const auto kernels = itemsOf(f, EvidenceSource::kKernels); !kernels.empty()) {
    const std::string name = clipText(terminalName(kernels[0]->label), 60);
    const std::string detail = kernels[0]->detail.empty()
                                   ? ""
                                   : " (" + clipText(terminalName(kernels[0]->detail), 160) + ")";
    parts.push_back(
        fmt::format("kernel #{} {}{}{}", kernels[0]->id, name, detail, more(1, kernels.size())));
  }
  if (const auto copies = itemsOf(f, EvidenceSource::kMemcpys); !copies.empty()) {
    parts.push_back(fmt::format("memcpys #{}{}", copies[0]->id, more(1, copies.size())));
  }
  if (const auto counters = itemsOf(f, EvidenceSource::kCounters); !counters.empty()) {
    parts.push_back(fmt::format("counter #{}", counters[0]->id));
  }
  if (const auto stats = itemsOf(f, EvidenceSource::kStats); !stats.empty()) {
    std::string s = "stats";
    for (size_t i = 0; i < stats.size(); ++i)
      s += fmt::format("{} {}", i ? "," : "", terminalName(stats[i]->label));
    parts.push_back(s);
  }
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? "; " : "") + parts[i];
  return out;
}

std::string verdictLines(const RankResult& a) {
  if (!a.scorecard) return "VERDICT  none: the trace has no device work to judge\n";
  const Scorecard& run = a.scorecard->run;
  std::string out =
      fmt::format("VERDICT  {}  (D\u00b7A\u00b7M: {}) {}\n", upperCase(toText(run.verdict)),
                  damTerm(run.verdict), verdictLabel(run.verdict, a.device_kind));
  out += "         " + stallWords(a) + "\n";
  out += "         compute/memory split: " + boundSourceWords(a.roofline) + "\n";
  if (a.verdict_may_be_off) {
    out += fmt::format(
        "         caution: {} of the trace's events were lost on the way in; this verdict may "
        "be off\n",
        percent(a.data_loss.lostPct()));
  }
  out += fmt::format(
      "\nWhere the step time goes (D\u00b7A\u00b7M scorecard, {}, device {})\n",
      a.window.step_count > 0
          ? fmt::format("{} step{}, {}", a.window.step_count, a.window.step_count == 1 ? "" : "s",
                        formatDuration(static_cast<double>(run.total())))
          : formatDuration(static_cast<double>(run.total())),
      a.scorecard->device);
  for (size_t x = 0; x < kAxisCount; ++x) {
    const Axis axis = static_cast<Axis>(x);
    const std::string blocks = bar(run.pct(axis));
    std::string split;
    if (axis == Axis::kExposedCommunication && run.pct(axis) > 0)
      split = "  " + communicationSplitWords(a);
    out += fmt::format("  {:<24}{:>7}{}{}{}\n", axisLabel(axis), percent(run.pct(axis)),
                       blocks.empty() ? "" : "  ", blocks, split);
  }
  return out;
}

std::string findingLines(const RankResult& a, const SummaryTextOptions& text) {
  std::string out = "\nWhat to change first\n";
  const Shown<Finding> findings = shownFindings(a, text.max_findings);
  if (findings.items.empty()) out += "  nothing above the rule thresholds\n";
  for (size_t i = 0; i < findings.items.size(); ++i) {
    const Finding& f = findings.items[i];
    const std::string gain = gainWords(f);
    out += fmt::format("  {}. [{}] {}\n", i + 1, toText(f.severity), terminalName(f.title));
    out += fmt::format("     {} ({})\n", gain, f.rule);
    if (const std::string path = projectionWords(f); !path.empty()) {
      out += fmt::format("     {}\n", path);
    }
    out += wrapText(terminalName(f.recommendation), 5);
    const std::string evidence = evidenceLine(f);
    if (!evidence.empty()) out += fmt::format("     evidence: {}\n", evidence);
    const std::string behind = originWords(f, 3, terminalName);
    if (!behind.empty()) out += fmt::format("     behind it: {}\n", behind);
  }
  if (findings.more > 0) out += fmt::format("  ({} more {})\n", findings.more, text.more_findings);
  return out;
}

// "MFU      41.3 % of the bf16 peak of A100 SXM4 40GB (312.0 TFLOP/s; ...)".
std::string mfuLine(const MfuReport& m) {
  if (!m.mfu_pct && !m.impossible_pct && !m.hfu_pct) {
    if (!m.hardware_flops_window) return "";
    return fmt::format(
        "HFU      n/a: {} measured by counters, but no step or kernel times to divide them by\n",
        flopCount(*m.hardware_flops_window));
  }
  const std::string peak = terminalName(peakWords(m));
  std::string line;
  if (m.impossible_pct) {
    line = fmt::format("MFU      impossible: the inputs imply {:.0f} % of {}; likely {}",
                       *m.impossible_pct, peak, terminalName(m.likely_wrong));
  } else if (m.mfu_pct) {
    line = fmt::format("MFU      {} of {}; model FLOPs from {}", percent(*m.mfu_pct), peak,
                       flopsSourceWords(m.flops_source));
    if (m.flops_source == FlopsSource::kOpShapes && m.model_flops_per_step &&
        m.op_shapes_coverage_pct) {
      line += fmt::format(" ({} per step; the shapes cover {} of computation kernel time)",
                          flopCount(*m.model_flops_per_step), percent(*m.op_shapes_coverage_pct));
    }
    if (m.model && m.model->layers && m.model->d_model && m.model->seq_len) {
      line += " (6N + attention)";
    } else if (m.model) {
      line += " (6N)";
    }
  } else {
    line = fmt::format("HFU      {} of {}", percent(*m.hfu_pct), peak);
  }
  if (m.mfu_pct && m.hfu_pct) line += fmt::format("; HFU {}", percent(*m.hfu_pct));
  return line + "\n";
}

std::string rooflineLine(const RooflineReport& r) {
  if (r.kernels_with_work == 0) return "";
  std::string sources;
  for (size_t i = 0; i < r.kernels_by_source.size(); ++i) {
    if (r.kernels_by_source[i] == 0) continue;
    sources +=
        fmt::format("{}{} {}", sources.empty() ? "" : ", ", withThousands(r.kernels_by_source[i]),
                    metricSourceWords(static_cast<MetricSource>(i)));
  }
  int64_t memory_ns = 0, placed_ns = 0;
  for (const RooflinePoint& p : r.kernels) {
    if (!p.memory_bound) continue;
    placed_ns += p.time_ns;
    if (*p.memory_bound) memory_ns += p.time_ns;
  }
  std::string line =
      fmt::format("Roofline {} kernels placed ({} of computation kernel time; {})",
                  withThousands(r.kernels_with_work), percent(r.time_with_work_pct), sources);
  if (placed_ns > 0) {
    line += fmt::format(
        "; {} of their time below the ridge",
        percent(100.0 * static_cast<double>(memory_ns) / static_cast<double>(placed_ns)));
  }
  return line + "\n";
}

std::string memoryLine(const std::optional<MemoryEstimate>& m) {
  if (!m) return "";
  std::string line = fmt::format("Memory   est. {}", formatBytes(m->total_bytes));
  if (m->device_bytes && m->pct_of_device) {
    line += fmt::format(" of {} ({:.0f} %)", formatBytes(*m->device_bytes), *m->pct_of_device);
  }
  line += fmt::format(": training state {}", formatBytes(m->state_bytes));
  if (m->activation_bytes) {
    line += fmt::format(", activations {} (micro-batch {}{})", formatBytes(*m->activation_bytes),
                        m->micro_batch, m->micro_batch_from_tokens ? ", from tokens per step" : "");
  }
  if (m->ranks > 1) {
    line += fmt::format("; state per GPU with ZeRO-1/2/3 over {} ranks: {} / {} / {}", m->ranks,
                        formatBytes(m->zero_state_bytes[0]), formatBytes(m->zero_state_bytes[1]),
                        formatBytes(m->zero_state_bytes[2]));
  }
  return line + "\n";
}

// Each analysed step's critical path: its length and what bounds it (the
// first kCriticalPathSteps; the JSON and the report have them all).
constexpr size_t kCriticalPathSteps = 6;
std::string pathLines(const RankResult& a) {
  const std::vector<const StepResult*> steps = stepsWithPaths(a);
  if (steps.empty()) return "";
  std::string out =
      "Path     the critical path of each analysed step (HTA's graph), by what bounds it:\n";
  for (size_t i = 0; i < steps.size() && i < kCriticalPathSteps; ++i) {
    const StepResult& s = *steps[i];
    out += fmt::format("         step {:<6}{:>10}  {}\n", s.number,
                       formatDuration(static_cast<double>(s.critical_path->length_ns)),
                       pathCompositionWords(*s.critical_path));
  }
  if (steps.size() > kCriticalPathSteps) {
    out += fmt::format("         ({} more steps)\n", steps.size() - kCriticalPathSteps);
  }
  return out;
}

std::string figureLines(const RankResult& a) {
  std::string out;
  const DeviceUtilization* u = a.utilization.primaryDevice();
  if (u && a.device_kind == DeviceKind::kCpu) {
    out += fmt::format(
        "CPU      util {} (an op of the workload running); launch statistics, streams, SM "
        "efficiency and occupancy do not apply\n",
        percent(u->gpu_util_pct));
  } else if (u) {
    out += fmt::format(
        "GPU      util {}, est. SM efficiency {}, est. occupancy {}  (PyTorch profiler "
        "definitions)\n",
        percent(u->gpu_util_pct), percent(u->sm_efficiency_pct), percent(u->occupancy_pct));
  }
  out += mfuLine(a.mfu);
  if (a.breakdown) {
    const BreakdownFigures& w = a.breakdown->window;
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
  out += rooflineLine(a.roofline);
  if (!a.top_ops.empty()) {
    // The ops behind the GPU time: `damscope ops` has the whole table.
    // One op per item, never split across lines.
    std::string line = "Ops      GPU time by the op that launched it:";
    for (size_t i = 0; i < std::min<size_t>(5, a.top_ops.size()); ++i) {
      const OpRow& o = a.top_ops[i];
      const std::string item =
          fmt::format(" {} {}{}", terminalName(o.name), percent(o.gpu_total_pct),
                      i + 1 < std::min<size_t>(5, a.top_ops.size()) ? "," : "");
      if (line.size() + item.size() > 100) {
        out += line + "\n";
        line = "        ";
      }
      line += item;
    }
    out += line + "\n";
  }
  out += pathLines(a);
  out += memoryLine(a.memory);
  if (a.comparison && a.comparison->steps > 0) {
    const RankComparison& c = *a.comparison;
    out += fmt::format("Ranks    median step {}, {:+.1f} % vs the median rank{}\n",
                       formatDuration(static_cast<double>(c.median_step_ns)),
                       c.slower_than_median_pct, c.straggler ? "  STRAGGLER" : "");
  }
  const DataLossReport& loss = a.data_loss;
  if (loss.any()) {
    out += fmt::format(
        "Trace    {} events lost ({}), {} repaired or clipped ({}) on the way in, of {}\n",
        withThousands(loss.lost), percent(loss.lostPct()),
        withThousands(loss.repaired + loss.clipped), percent(loss.repairedPct()),
        withThousands(loss.events + loss.lost));
  }
  return out;
}

}  // namespace

std::string formatRankSummary(const RankResult& a, const SummaryTextOptions& text) {
  std::string header = terminalName(a.source);
  if (a.rank) header += fmt::format("  rank {}", *a.rank);
  if (a.device && !a.device_name.empty()) header += "  " + terminalName(deviceLabel(a));
  header += fmt::format("  [{}]", frameworkLabel(a.framework));
  std::string out = header + "\n" + terminalName(stepsLine(a)) + "\n\n";
  out += verdictLines(a);
  out += findingLines(a, text);
  out += "\n" + figureLines(a);
  for (const AnalysisNote& n : a.notes) {
    out += wrapText(
        terminalName(fmt::format("note ({}): {}", n.analysis, noteText(n, text.remedies))), 0);
  }
  return out;
}

namespace {

// Beyond this many ranks the summary is about the job: nobody reads a
// thousand rank summaries, and the ranks that stand out are what a run of
// many ranks is examined for. --format json keeps every rank.
constexpr size_t kRanksInFull = 8;
// Rows of the cross-rank table shown for a large job: the slowest ranks.
constexpr size_t kSlowestRows = 10;

std::string crossRankRow(const RankComparison& c) {
  return fmt::format(
      "  {:<6}{:>14}{:>11.1f}%{:>11}{:>16}{:>14}\n", c.rank,
      formatDuration(static_cast<double>(c.median_step_ns)), c.slower_than_median_pct,
      c.straggler ? "yes" : "no",
      c.collectives > 0 ? formatDuration(static_cast<double>(c.median_start_skew_ns)) : "n/a",
      c.collectives > 0 ? fmt::format("{:.0f} %", c.last_to_start_pct) : "n/a");
}

// "rank 3, rank 17 and 2 more": the ranks named by their position in the run.
std::string rankList(const RunResult& run, const std::vector<size_t>& which, size_t most) {
  std::string out;
  for (size_t k = 0; k < which.size() && k < most; ++k) {
    const RankResult& r = run.ranks[which[k]];
    if (k > 0) out += ", ";
    out += r.rank ? fmt::format("rank {}", *r.rank) : terminalName(r.source);
  }
  if (which.size() > most) out += fmt::format(" and {} more", which.size() - most);
  return out;
}

// A job of many ranks: how many ranks got each verdict, then in full the
// first rank and the stragglers, then the slowest rows of the comparison.
std::string formatJobSummary(const RunResult& run, const SummaryTextOptions& text) {
  const size_t n = run.ranks.size();
  std::string out = fmt::format("Job of {} ranks\n", n);
  std::array<std::vector<size_t>, kVerdictCount> by_verdict;
  std::vector<size_t> stragglers;
  for (size_t i = 0; i < n; ++i) {
    by_verdict[static_cast<size_t>(run.ranks[i].verdict())].push_back(i);
    if (i < run.cross_rank.size() && run.cross_rank[i].straggler) stragglers.push_back(i);
  }
  for (size_t v = 0; v < kVerdictCount; ++v) {
    if (by_verdict[v].empty()) continue;
    const std::string label = upperCase(toText(static_cast<Verdict>(v)));
    out += fmt::format("  {:<22}{:>6} ranks  ({})\n", label, by_verdict[v].size(),
                       rankList(run, by_verdict[v], 4));
  }
  out += stragglers.empty() ? std::string("  no straggler\n")
                            : fmt::format("  stragglers: {}\n", rankList(run, stragglers, 8));

  std::vector<size_t> shown = {0};
  for (size_t i : stragglers) {
    if (shown.size() == kRanksInFull) break;
    if (i != 0) shown.push_back(i);
  }
  out += fmt::format("\nIn full below: {} ({} of {} ranks; --format json has every rank)\n",
                     rankList(run, shown, kRanksInFull), shown.size(), n);
  for (size_t i : shown) {
    out += "\n" + std::string(100, '-') + "\n\n" + formatRankSummary(run.ranks[i], text);
  }

  std::vector<size_t> slowest(run.cross_rank.size());
  for (size_t i = 0; i < slowest.size(); ++i) slowest[i] = i;
  std::stable_sort(slowest.begin(), slowest.end(), [&](size_t a, size_t b) {
    return run.cross_rank[a].slower_than_median_pct > run.cross_rank[b].slower_than_median_pct;
  });
  if (slowest.size() > kSlowestRows) slowest.resize(kSlowestRows);
  out += "\n" + std::string(100, '=') +
         fmt::format("\nCross-rank: the {} slowest of {} ranks\n", slowest.size(), n);
  out += fmt::format("  {:<6}{:>14}{:>12}{:>11}{:>16}{:>14}\n", "rank", "median step", "vs median",
                     "straggler", "start skew p50", "last to start");
  for (size_t i : slowest) out += crossRankRow(run.cross_rank[i]);
  for (const std::string& note : run.cross_rank_notes) {
    out += wrapText("note: " + terminalName(note), 2);
  }
  return out;
}

}  // namespace

std::string formatRunSummary(const RunResult& run, const SummaryTextOptions& text) {
  if (run.ranks.size() > kRanksInFull) return formatJobSummary(run, text);
  std::string out;
  for (size_t i = 0; i < run.ranks.size(); ++i) {
    if (i > 0) out += "\n" + std::string(100, '-') + "\n\n";
    out += formatRankSummary(run.ranks[i], text);
  }
  if (run.ranks.size() > 1) {
    out += "\n" + std::string(100, '=') + "\nCross-rank\n";
    out += fmt::format("  {:<6}{:>14}{:>12}{:>11}{:>16}{:>14}\n", "rank", "median step",
                       "vs median", "straggler", "start skew p50", "last to start");
    for (const RankComparison& c : run.cross_rank) out += crossRankRow(c);
    for (const std::string& n : run.cross_rank_notes)
      out += wrapText("note: " + terminalName(n), 2);
  }
  return out;
}

}  // namespace damscope
