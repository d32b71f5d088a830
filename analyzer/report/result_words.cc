// Shared wording: see result_words.h.
#include "analyzer/report/result_words.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>

#include <cmath>

#include "analyzer/report/text_format.h"

namespace damscope {

std::string percent(double v) {
  return std::isfinite(v) ? fmt::format("{:.1f} %", v) : "n/a";
}

std::string percent(const std::optional<double>& v) {
  return v ? percent(*v) : "n/a";
}

std::string flopRate(double flops_per_s) {
  if (!std::isfinite(flops_per_s)) return "n/a";
  if (flops_per_s >= 1e15) return fmt::format("{:.2f} PFLOP/s", flops_per_s / 1e15);
  if (flops_per_s >= 1e12) return fmt::format("{:.1f} TFLOP/s", flops_per_s / 1e12);
  return fmt::format("{:.1f} GFLOP/s", flops_per_s / 1e9);
}

std::string flopCount(double flops) {
  if (!std::isfinite(flops)) return "n/a";
  if (flops >= 1e15) return fmt::format("{:.2f} PFLOP", flops / 1e15);
  if (flops >= 1e12) return fmt::format("{:.2f} TFLOP", flops / 1e12);
  if (flops >= 1e9) return fmt::format("{:.1f} GFLOP", flops / 1e9);
  return fmt::format("{:.1f} MFLOP", flops / 1e6);
}

std::string_view flopsSourceWords(FlopsSource s) {
  switch (s) {
    case FlopsSource::kUserModel:
      return "the given model";
    case FlopsSource::kAnnotation:
      return "the model annotation";
    case FlopsSource::kProfilerOps:
      return "the profiler's per-op FLOPs";
    case FlopsSource::kOpShapes:
      return "recorded op shapes";
    case FlopsSource::kNone:
      break;
  }
  return "";
}

std::string_view precisionSourceWords(PrecisionSource s) {
  switch (s) {
    case PrecisionSource::kUser:
      return "as given";
    case PrecisionSource::kAnnotation:
      return "from the model annotation";
    case PrecisionSource::kKernelNames:
      return "from kernel names";
    case PrecisionSource::kDefault:
      return "no precision known";
  }
  return "";
}

std::string_view metricSourceWords(MetricSource s) {
  switch (s) {
    case MetricSource::kMeasured:
      return "measured";
    case MetricSource::kAnnotated:
      return "annotated";
    case MetricSource::kEstimated:
      return "estimated from shapes";
  }
  return "";
}

std::string boundSourceWords(const RooflineReport& r) {
  // A kernel with a roofline point is on its side of the ridge; the others
  // are read from their names (kernel_categories.h).
  constexpr std::array<std::pair<MetricSource, std::string_view>, 3> kSources = {{
      {MetricSource::kMeasured, "measured by counters"},
      {MetricSource::kAnnotated, "from the workload's annotations"},
      {MetricSource::kEstimated, "from op shapes"},
  }};
  std::string out;
  double placed = 0;
  for (const auto& [source, words] : kSources) {
    const double pct = r.time_by_source_pct[static_cast<size_t>(source)];
    placed += pct;
    if (pct > 0) out += fmt::format("{}{} on {}", out.empty() ? "" : ", ", words, percent(pct));
  }
  const double names = std::max(0.0, 100.0 - placed);
  if (names >= 0.05 || out.empty()) {
    out += fmt::format("{}from kernel names on {}", out.empty() ? "" : ", ", percent(names));
  }
  return out + " of computation kernel time";
}

std::string stallWords(const RankResult& a) {
  if (!a.scorecard) return "";
  const Scorecard& run = a.scorecard->run;
  if (run.stallPct() < a.starved_threshold_pct) {
    return fmt::format("the {} is fed: stalls take {} of the step (under {:.0f} %); {} take {}",
                       deviceWord(a), percent(run.stallPct()), a.starved_threshold_pct,
                       axisLabel(run.deciding_axis), percent(run.pct(run.deciding_axis)));
  }
  std::string out = fmt::format(
      "the {} is starved: stalls take {} of the step (threshold {:.0f} %); the largest is {} at {}",
      deviceWord(a), percent(run.stallPct()), a.starved_threshold_pct, axisLabel(run.deciding_axis),
      percent(run.pct(run.deciding_axis)));
  if (run.verdict == Verdict::kStarved) {
    const std::optional<Axis> known = run.largestKnownStall();
    out += known ? fmt::format(
                       ", a cause the trace does not show; the largest known cause is {} "
                       "at {}",
                       axisLabel(*known), percent(run.pct(*known)))
                 : std::string(", a cause the trace does not show; no known cause took any time");
  }
  return out;
}

std::string opRooflineWords(const OpRow& op) {
  if (!op.memory_bound) return "";
  std::string out = *op.memory_bound ? "memory-bound" : "compute-bound";
  if (op.pct_of_ceiling) out += fmt::format(", {} of its ceiling", percent(*op.pct_of_ceiling));
  return out;
}

std::string communicationSplitWords(const RankResult& a) {
  if (!a.comparison || a.comparison->collectives == 0) {
    return "(waiting for other ranks versus transfer: needs the other ranks' traces)";
  }
  return fmt::format("(waiting for other ranks {}, transfer {})",
                     percent(a.comparison->waiting_pct), percent(a.comparison->transfer_pct));
}

std::string gainWords(const Finding& f) {
  if (f.kind == FindingKind::kTraceQuality) return "about the trace, not the run: no speed-up";
  if (f.max_gain_pct) return fmt::format("saves at most {} of step time", percent(f.max_gain_pct));
  return "gain cannot be bounded from the trace";
}

std::string pathCompositionWords(const CriticalPath& path) {
  if (path.length_ns <= 0) return "empty";
  std::vector<size_t> order(kPathBoundCount);
  for (size_t b = 0; b < kPathBoundCount; ++b) order[b] = b;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t x, size_t y) { return path.bound_ns[x] > path.bound_ns[y]; });
  std::string out;
  for (const size_t b : order) {
    const double pct =
        100.0 * static_cast<double>(path.bound_ns[b]) / static_cast<double>(path.length_ns);
    if (pct < 0.05) continue;
    std::string label(toText(static_cast<PathBound>(b)));
    std::replace(label.begin(), label.end(), '_', ' ');
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", label, percent(pct));
  }
  return out;
}

std::vector<const StepResult*> stepsWithPaths(const RankResult& rank) {
  std::vector<const StepResult*> out;
  for (const StepResult& s : rank.steps) {
    if (s.critical_path) out.push_back(&s);
  }
  return out;
}

std::string projectionWords(const Finding& f) {
  if (!f.projection) return "";
  const PathProjection& p = *f.projection;
  return fmt::format("{} of the critical path: without it the median step takes ≈ {} (now {})",
                     percent(p.on_path_pct),
                     formatDuration(static_cast<double>(p.projected_step_ns)),
                     formatDuration(static_cast<double>(p.step_ns)));
}

namespace {

template <typename T>
Shown<T> firstOf(const std::vector<T>& all, size_t max) {
  const size_t n = std::min(max, all.size());
  return {std::span<const T>(all.data(), n), all.size() - n};
}

}  // namespace

Shown<Finding> shownFindings(const RankResult& rank, size_t max) {
  return firstOf(rank.findings.findings, max);
}

Shown<EvidenceItem> shownEvidence(const Finding& finding, size_t max) {
  return firstOf(finding.evidence, max);
}

std::vector<EvidenceOrigin> evidenceOrigins(const Finding& finding) {
  std::map<std::pair<std::string_view, std::string_view>, size_t> items;
  for (const EvidenceItem& e : finding.evidence) {
    if (!e.op.empty() || !e.module.empty()) ++items[{e.op, e.module}];
  }
  std::vector<EvidenceOrigin> out;
  out.reserve(items.size());
  for (const auto& [key, n] : items) {
    out.push_back({std::string(key.first), std::string(key.second), n});
  }
  // The map gave op and module order; the stable sort keeps it among equals.
  std::stable_sort(out.begin(), out.end(), [](const EvidenceOrigin& a, const EvidenceOrigin& b) {
    return a.items > b.items;
  });
  return out;
}

std::string originWords(const Finding& finding, size_t max,
                        const std::function<std::string(std::string_view)>& name) {
  const std::vector<EvidenceOrigin> origins = evidenceOrigins(finding);
  std::string out;
  const size_t shown = std::min(max, origins.size());
  for (size_t i = 0; i < shown; ++i) {
    const EvidenceOrigin& o = origins[i];
    if (i > 0) out += ", ";
    out += o.op.empty() ? "in " + name(o.module)
                        : name(o.op) + (o.module.empty() ? "" : " in " + name(o.module));
    if (o.items > 1) out += fmt::format(" \u00d7{}", o.items);
  }
  if (origins.size() > shown) out += fmt::format(", {} more", origins.size() - shown);
  return out;
}

// A step as the text names it: its range's name, with the step's number when
// the name carries none (gpt2-train's ranges are all "step": "step 3").
std::string stepLabel(const StepResult& s) {
  const bool numbered =
      std::any_of(s.name.begin(), s.name.end(), [](char c) { return c >= '0' && c <= '9'; });
  return numbered ? s.name : fmt::format("{} {}", s.name, s.number);
}

std::string stepsLine(const RankResult& a) {
  if (a.steps.empty()) return "no steps found: the whole trace is one span";
  std::string line = a.steps.size() == 1
                         ? fmt::format("1 step ({})", stepLabel(a.steps.front()))
                         : fmt::format("{} steps ({} .. {})", a.steps.size(),
                                       stepLabel(a.steps.front()), stepLabel(a.steps.back()));
  if (a.window.cut) {
    line +=
        fmt::format(", {} analysed (the last one is cut off, as HTA does)", a.window.step_count);
  }
  if (a.window.mode == WindowMode::kRange) {
    line += fmt::format(", {} wholly inside the window", a.window.step_count);
  }
  if (const std::optional<double> avg = a.window.avg_step_ns) {
    line += fmt::format("; avg step {}", formatDuration(*avg));
    if (a.tokens_per_step && *avg > 0) {
      line += fmt::format(", {:.0f} tokens/s", *a.tokens_per_step / (*avg * 1e-9));
    }
    if (a.samples_per_step && *avg > 0) {
      line += fmt::format(", {:.1f} samples/s", *a.samples_per_step / (*avg * 1e-9));
    }
  }
  return line;
}

std::string peakWords(const MfuReport& m) {
  return fmt::format("the {} peak of {} ({}, precision {})", toText(m.precision.precision),
                     m.peak_device, flopRate(m.peak_flops_per_s.value_or(0)),
                     precisionSourceWords(m.precision.source));
}

}  // namespace damscope

namespace damscope {

std::vector<KeyFigure> keyFigures(const RankResult& a,
                                  const std::array<std::string, kRemedyCount>& remedies) {
  std::vector<KeyFigure> out;
  if (const std::optional<double> avg = a.window.avg_step_ns) {
    std::string detail = fmt::format("mean of {} analysed step{}", a.window.step_count,
                                     a.window.step_count == 1 ? "" : "s");
    // The most important finding the critical path projects: what the
    // step would be without its cause. Projected findings read scorecard
    // metrics, and those follow Axis (findings.h).
    for (const Finding& f : a.findings.findings) {
      if (!f.projection) continue;
      detail += fmt::format("; ≈ {} without the {} (median, critical path)",
                            formatDuration(static_cast<double>(f.projection->projected_step_ns)),
                            axisLabel(static_cast<Axis>(f.metric)));
      break;
    }
    out.push_back({"Step time", formatDuration(*avg), detail});
    if (*avg > 0 && a.tokens_per_step) {
      out.push_back(
          {"Throughput",
           fmt::format("{} tokens/s",
                       withThousands(std::llround(*a.tokens_per_step / (*avg * 1e-9)))),
           fmt::format("{} tokens per step ({})", withThousands(std::llround(*a.tokens_per_step)),
                       a.throughput_source)});
    } else if (*avg > 0 && a.samples_per_step) {
      out.push_back(
          {"Throughput", fmt::format("{:.1f} samples/s", *a.samples_per_step / (*avg * 1e-9)),
           fmt::format("{:g} samples per step ({})", *a.samples_per_step, a.throughput_source)});
    }
  }
  const MfuReport& m = a.mfu;
  if (m.impossible_pct) {
    out.push_back({"MFU", "impossible",
                   fmt::format("the inputs imply {:.0f} % of the peak; likely {}",
                               *m.impossible_pct, m.likely_wrong)});
  } else if (m.mfu_pct) {
    out.push_back({"MFU", percent(*m.mfu_pct),
                   fmt::format("{}; of {}", mfuBandLabel(mfuBand(*m.mfu_pct)), peakWords(m))});
  } else {
    std::string why = "needs the model (parameters, tokens per step) and the device's peak";
    for (const AnalysisNote& n : a.notes) {
      if (n.analysis == "mfu") {
        why = noteText(n, remedies);
        break;
      }
    }
    out.push_back({"MFU", "not computed", why});
  }
  if (m.hfu_pct) out.push_back({"HFU", percent(*m.hfu_pct), "FLOPs the hardware counted"});
  const bool cpu = a.device_kind == DeviceKind::kCpu;
  if (const DeviceUtilization* u = a.utilization.primaryDevice()) {
    out.push_back(
        {fmt::format("{} utilization", deviceWord(a)), percent(u->gpu_util_pct),
         cpu ? "time with an op of the workload running"
             : fmt::format("device {}: time with a kernel running (TensorBoard)", u->device)});
  }
  if (a.breakdown) {
    out.push_back({fmt::format("{} idle", deviceWord(a)), percent(a.breakdown->window.idlePct()),
                   "from the first analysed GPU op on, start-up included (HTA temporal "
                   "breakdown)"});
  }
  return out;
}

std::string_view deviceWord(const RankResult& a) {
  return a.device_kind == DeviceKind::kCpu ? "CPU" : "GPU";
}

std::string deviceLabel(const RankResult& a) {
  if (!a.device) return "";
  // A CPU run has one CPU device, whose ordinal says nothing.
  std::string label = a.device_kind == DeviceKind::kCpu
                          ? std::string(deviceWord(a))
                          : fmt::format("{} {}", deviceWord(a), *a.device);
  if (!a.device_name.empty() && a.device_name != label) label += " " + a.device_name;
  return label;
}

std::string noteText(const AnalysisNote& n, const std::array<std::string, kRemedyCount>& remedies) {
  std::string out = n.message;
  const std::string& remedy = remedies[static_cast<size_t>(n.remedy)];
  if (!remedy.empty()) out += " (give it with " + remedy + ")";
  return out;
}

}  // namespace damscope
