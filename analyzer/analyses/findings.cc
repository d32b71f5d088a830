// The findings rule engine: see findings.h.
#include "analyzer/analyses/findings.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "analyzer/analyses/intervals.h"
#include "analyzer/analyses/launch_thread_cpu.h"
#include "analyzer/analyses/op_breakdown.h"

namespace damscope {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

constexpr std::string_view kMetricNames[] = {
#define DAMSCOPE_METRIC_NAME(value, text) text,
    DAMSCOPE_FINDING_METRICS(DAMSCOPE_METRIC_NAME)
#undef DAMSCOPE_METRIC_NAME
};
static_assert(std::size(kMetricNames) == kMetricCount);

constexpr std::string_view kEvidenceKindNames[] = {
#define DAMSCOPE_EVIDENCE_KIND_NAME(value, text) text,
    DAMSCOPE_EVIDENCE_KINDS(DAMSCOPE_EVIDENCE_KIND_NAME)
#undef DAMSCOPE_EVIDENCE_KIND_NAME
};

double percentOf(double part, double whole) {
  return whole > 0 ? 100.0 * part / whole : kNaN;
}

// Copies from or to pageable host memory in the window, longest first: one
// computation for the metric (their union) and the evidence (the longest).
struct PageableCopies {
  std::vector<std::pair<int64_t, size_t>> by_duration;  // (duration, gpu op index)
  int64_t union_ns = 0;
};

PageableCopies pageableCopies(const FindingInputs& in) {
  PageableCopies out;
  Intervals busy;
  const MemcpyTable& mc = in.input.tables().memcpys;
  const std::vector<GpuOp>& gpu = in.input.gpu();
  for (size_t i = 0; i < gpu.size(); ++i) {
    if (gpu[i].kind != GpuOpKind::kMemcpy || !in.window.in_window[i]) continue;
    const size_t row = static_cast<size_t>(gpu[i].row);
    if (mc.src_kind[row] != MemoryKind::kPageable && mc.dst_kind[row] != MemoryKind::kPageable) {
      continue;
    }
    busy.push_back({gpu[i].ts, gpu[i].end});
    out.by_duration.emplace_back(gpu[i].end - gpu[i].ts, i);
  }
  mergeIntervals(busy);
  out.union_ns = totalLength(busy);
  std::stable_sort(out.by_duration.begin(), out.by_duration.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  return out;
}

// Peak device memory in use against the device's capacity, and the counter
// row of the peak: reserved memory (what the caching allocator holds) where
// the trace has it, else allocated.
std::pair<double, int64_t> peakMemory(const TraceTables& t) {
  for (const char* name : {"memory_reserved_bytes", "memory_allocated_bytes"}) {
    const StringId id = t.strings.find(name);
    if (!id.valid()) continue;
    double peak_pct = kNaN;
    int64_t peak_row = -1;
    for (size_t i = 0; i < t.counters.size(); ++i) {
      if (!(t.counters.name[i] == id) || isNull(t.counters.device[i])) continue;
      for (size_t d = 0; d < t.devices.size(); ++d) {
        if (t.devices.device[d] != t.counters.device[i] || isNull(t.devices.memory_bytes[d]) ||
            t.devices.memory_bytes[d] <= 0) {
          continue;
        }
        const double pct =
            percentOf(t.counters.value[i], static_cast<double>(t.devices.memory_bytes[d]));
        if (std::isnan(peak_pct) || pct > peak_pct) {
          peak_pct = pct;
          peak_row = static_cast<int64_t>(i);
        }
      }
    }
    if (peak_row >= 0) return {peak_pct, peak_row};
  }
  return {kNaN, -1};
}

bool belowRoof(const RooflinePoint& p) {
  return p.pct_of_ceiling && *p.pct_of_ceiling < kBelowRoofPct;
}

Metrics computeMetrics(const FindingInputs& in, const PageableCopies& pageable) {
  Metrics m;
  const Scorecard& run = in.scorecard.run;
  const double step_ns = static_cast<double>(run.total());
  if (in.scorecard.valid) {
    for (size_t a = 0; a < kAxisCount; ++a) {
      m.set(metricOf(static_cast<Axis>(a)), run.pct(static_cast<Axis>(a)));
    }
    m.set(Metric::kStallPct, run.stallPct());
    // Kernel time is a sum of durations; on one stream it does not overlap,
    // and it can never exceed the compute-bound share it is part of.
    const double fp32 = percentOf(static_cast<double>(in.kernels.fp32_matrix_ns), step_ns);
    m.set(Metric::kFp32MatrixPct, std::min(fp32, run.pct(Axis::kComputeBound)));
    m.set(Metric::kPageableCopyPct, percentOf(static_cast<double>(pageable.union_ns), step_ns));
    // Kernels below their roof, and what they would save at it; like the
    // FP32 share, never more than the kernel time they are part of.
    double below_ns = 0, gain_ns = 0;
    for (const RooflinePoint& p : in.roofline.kernels) {
      if (!belowRoof(p)) continue;
      below_ns += static_cast<double>(p.time_ns);
      gain_ns += static_cast<double>(p.time_ns) * (1.0 - *p.pct_of_ceiling / 100.0);
    }
    const double kernel_pct = run.pct(Axis::kComputeBound) + run.pct(Axis::kMemoryBound);
    m.set(Metric::kBelowRoofPct, std::min(percentOf(below_ns, step_ns), kernel_pct));
    m.set(Metric::kBelowRoofGainPct, std::min(percentOf(gain_ns, step_ns), kernel_pct));
    // The kernel lints, in the same shares of the step (kernel_lints.h).
    auto setLint = [&](const KernelLint& lint, Metric time, Metric gain) {
      if (!lint.known) return;
      m.set(time, std::min(percentOf(static_cast<double>(lint.time_ns), step_ns), kernel_pct));
      m.set(gain, std::min(percentOf(lint.gain_ns, step_ns), kernel_pct));
    };
    setLint(in.lints.wave_tail, Metric::kWaveTailPct, Metric::kWaveTailGainPct);
    setLint(in.lints.attention, Metric::kMaterializedAttentionPct,
            Metric::kMaterializedAttentionGainPct);
    setLint(in.lints.elementwise_chains, Metric::kElementwiseChainPct,
            Metric::kElementwiseChainGainPct);
    if (in.lints.misaligned_gemm.known) {
      // Of the GEMM time the lint could read, not of the step.
      m.set(Metric::kMisalignedGemmPct,
            percentOf(static_cast<double>(in.lints.misaligned_gemm.time_ns),
                      static_cast<double>(in.lints.shaped_gemm_ns)));
      m.set(Metric::kMisalignedGemmGainPct,
            std::min(percentOf(in.lints.misaligned_gemm.gain_ns, step_ns), kernel_pct));
    }
  }
  if (const DeviceUtilization* u = in.utilization.primaryDevice()) {
    m.set(Metric::kGpuUtilPct, u->gpu_util_pct);
    if (u->sm_efficiency_pct) {
      m.set(Metric::kSmEfficiencyPct, *u->sm_efficiency_pct);
      m.set(Metric::kIdleSmPct, u->gpu_util_pct - *u->sm_efficiency_pct);
    }
    if (u->occupancy_pct) m.set(Metric::kOccupancyPct, *u->occupancy_pct);
  }
  if (in.launches.kernels_with_launch > 0) {
    m.set(Metric::kShortKernelPct, percentOf(static_cast<double>(in.launches.shorter_than_launch),
                                             static_cast<double>(in.launches.kernels_with_launch)));
  }
  m.set(Metric::kPeakMemoryPct, peakMemory(in.input.tables()).first);
  if (in.mfu.mfu_pct) m.set(Metric::kMfuPct, *in.mfu.mfu_pct);
  if (in.mfu.impossible_pct) m.set(Metric::kMfuImpossiblePct, *in.mfu.impossible_pct);
  if (in.memory && in.memory->pct_of_device) {
    m.set(Metric::kMemoryEstimatePct, *in.memory->pct_of_device);
  }
  m.set(Metric::kLostEventsPct, in.loss.lostPct());
  m.set(Metric::kRepairedEventsPct, in.loss.repairedPct());
  if (in.slow_steps.steps_judged > 0) m.set(Metric::kSlowStepPct, in.slow_steps.extra_pct);
  return m;
}

// Evidence from the event tables, with times and labels.
EvidenceItem kernelItem(const TraceTables& t, int64_t row) {
  const size_t r = static_cast<size_t>(row);
  return {EvidenceSource::kKernels, row, t.kernels.ts[r], t.kernels.dur[r],
          std::string(t.strings.get(t.kernels.name[r]))};
}
EvidenceItem rangeItem(const TraceTables& t, int64_t row) {
  const size_t r = static_cast<size_t>(row);
  return {EvidenceSource::kRanges, row, t.ranges.ts[r], t.ranges.dur[r],
          std::string(t.strings.get(t.ranges.name[r]))};
}
EvidenceItem callItem(const TraceTables& t, int64_t row) {
  const size_t r = static_cast<size_t>(row);
  return {EvidenceSource::kApiCalls, row, t.api_calls.ts[r], t.api_calls.dur[r],
          std::string(t.strings.get(t.api_calls.name[r]))};
}

void sortedUnique(std::vector<int64_t>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

// The longest `limit` device gaps in the window, by their share of `cause`,
// then the ranges and calls that explain them.
void gapEvidence(const FindingInputs& in, GapCause cause, size_t limit,
                 std::vector<EvidenceItem>& out) {
  std::vector<std::pair<int64_t, int64_t>> by_share;
  for (size_t g = 0; g < in.gaps.device_gap_count; ++g) {
    const Gap& gap = in.gaps.gaps[g];
    if (!gap.in_window || gap.device != in.scorecard.device) continue;
    const int64_t share = gap.by_cause[static_cast<size_t>(cause)];
    if (share > 0) by_share.emplace_back(share, static_cast<int64_t>(g));
  }
  const size_t n = std::min(limit, by_share.size());
  std::partial_sort(by_share.begin(), by_share.begin() + static_cast<std::ptrdiff_t>(n),
                    by_share.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<int64_t> ranges, calls;
  for (size_t i = 0; i < n; ++i) {
    const Gap& gap = in.gaps.gaps[static_cast<size_t>(by_share[i].second)];
    out.push_back({EvidenceSource::kGaps, by_share[i].second, gap.start, gap.duration(), ""});
    if (gap.cause != cause || gap.evidence_row < 0) continue;
    if (gap.evidence_table == EvidenceTable::kRanges) ranges.push_back(gap.evidence_row);
    if (gap.evidence_table == EvidenceTable::kApiCalls) calls.push_back(gap.evidence_row);
  }
  sortedUnique(ranges), sortedUnique(calls);
  const TraceTables& t = in.input.tables();
  for (int64_t r : ranges) out.push_back(rangeItem(t, r));
  for (int64_t c : calls) out.push_back(callItem(t, c));
}

// The longest `limit` window kernels that pass `keep`.
template <typename Keep>
void kernelEvidence(const FindingInputs& in, size_t limit, Keep&& keep,
                    std::vector<EvidenceItem>& out) {
  std::vector<std::pair<int64_t, int64_t>> kernels;
  const std::vector<GpuOp>& gpu = in.input.gpu();
  for (size_t i = 0; i < gpu.size(); ++i) {
    if (gpu[i].kind != GpuOpKind::kKernel || !in.window.in_window[i] || !keep(gpu[i])) continue;
    kernels.emplace_back(gpu[i].end - gpu[i].ts, gpu[i].row);
  }
  const size_t n = std::min(limit, kernels.size());
  std::partial_sort(kernels.begin(), kernels.begin() + static_cast<std::ptrdiff_t>(n),
                    kernels.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (size_t i = 0; i < n; ++i) out.push_back(kernelItem(in.input.tables(), kernels[i].second));
}

// A kernel lint's evidence, in its order, with what the lint read.
void lintEvidence(const TraceTables& t, const KernelLint& lint, size_t limit,
                  std::vector<EvidenceItem>& out) {
  for (size_t i = 0; i < std::min(limit, lint.evidence.size()); ++i) {
    EvidenceItem item = kernelItem(t, lint.evidence[i].kernel);
    item.detail = lint.evidence[i].detail;
    out.push_back(std::move(item));
  }
}

std::vector<EvidenceItem> collectEvidence(const FindingInputs& in, EvidenceKind kind, size_t limit,
                                          const PageableCopies& pageable) {
  std::vector<EvidenceItem> e;
  const TraceTables& t = in.input.tables();
  switch (kind) {
    case EvidenceKind::kNone:
      break;
    case EvidenceKind::kDataLoadingGaps:
      gapEvidence(in, GapCause::kDataLoading, limit, e);
      break;
    case EvidenceKind::kLaunchGaps:
      gapEvidence(in, GapCause::kHostLaunch, limit, e);
      break;
    case EvidenceKind::kSyncGaps:
      gapEvidence(in, GapCause::kSynchronization, limit, e);
      break;
    case EvidenceKind::kUnexplainedGaps:
      gapEvidence(in, GapCause::kOther, limit, e);
      break;
    case EvidenceKind::kCommunicationKernels:
      kernelEvidence(
          in, limit, [](const GpuOp& op) { return op.work == GpuWork::kCommunication; }, e);
      break;
    case EvidenceKind::kMemoryBoundKernels:
      kernelEvidence(
          in, limit, [](const GpuOp& op) { return op.work == GpuWork::kMemoryBound; }, e);
      break;
    case EvidenceKind::kFp32MatrixKernels:
      for (size_t i = 0; i < std::min(limit, in.kernels.fp32_matrix_rows.size()); ++i) {
        e.push_back(kernelItem(t, in.kernels.fp32_matrix_rows[i]));
      }
      break;
    case EvidenceKind::kBelowRoofKernels:
      // The longest run of each kernel below its roof, the most time first.
      for (const RooflinePoint& p : in.roofline.kernels) {
        if (e.size() >= limit) break;
        if (belowRoof(p) && p.example_kernel_id) {
          e.push_back(kernelItem(t, *p.example_kernel_id));
        }
      }
      break;
    case EvidenceKind::kWaveTailKernels:
      lintEvidence(t, in.lints.wave_tail, limit, e);
      break;
    case EvidenceKind::kMisalignedGemmKernels:
      lintEvidence(t, in.lints.misaligned_gemm, limit, e);
      break;
    case EvidenceKind::kAttentionKernels:
      lintEvidence(t, in.lints.attention, limit, e);
      break;
    case EvidenceKind::kElementwiseChainKernels:
      lintEvidence(t, in.lints.elementwise_chains, limit, e);
      break;
    case EvidenceKind::kShortKernels:
      kernelEvidence(
          in, limit,
          [&](const GpuOp& op) {
            return op.launch >= 0 &&
                   op.end - op.ts < t.api_calls.dur[static_cast<size_t>(op.launch)];
          },
          e);
      break;
    case EvidenceKind::kSmallGridKernels:
      kernelEvidence(
          in, limit,
          [&](const GpuOp& op) {
            const int32_t sms = in.input.smCount(op.device);
            const size_t r = static_cast<size_t>(op.row);
            const KernelTable& k = t.kernels;
            if (sms <= 0 || isNull(k.grid_x[r]) || isNull(k.grid_y[r]) || isNull(k.grid_z[r])) {
              return false;
            }
            return static_cast<int64_t>(k.grid_x[r]) * k.grid_y[r] * k.grid_z[r] < sms;
          },
          e);
      break;
    case EvidenceKind::kPageableCopies:
      for (size_t i = 0; i < std::min(limit, pageable.by_duration.size()); ++i) {
        const GpuOp& op = in.input.gpu()[pageable.by_duration[i].second];
        e.push_back({EvidenceSource::kMemcpys, op.row, op.ts, op.end - op.ts, ""});
      }
      break;
    case EvidenceKind::kMemoryCounters:
      if (const auto [pct, row] = peakMemory(t); row >= 0) {
        const size_t r = static_cast<size_t>(row);
        e.push_back({EvidenceSource::kCounters, row, t.counters.ts[r], 0,
                     std::string(t.strings.get(t.counters.name[r]))});
      }
      break;
    case EvidenceKind::kSlowSteps:
      // Each slow step's range, with how much slower it is, then the
      // longest instance of the range that grew in it.
      for (const SlowStep& slow : in.slow_steps.slow) {
        if (e.size() >= limit) break;
        const int64_t row = in.steps.steps[slow.step].range_id;
        if (row < 0) continue;
        EvidenceItem item = rangeItem(t, row);
        item.detail = fmt::format("{:.1f}x the median step, +{:.1f} ms", slow.ratio,
                                  static_cast<double>(slow.extra_ns) * 1e-6);
        e.push_back(std::move(item));
      }
      for (const SlowStep& slow : in.slow_steps.slow) {
        if (e.size() >= limit) break;
        if (!isNull(slow.grown_range_row)) e.push_back(rangeItem(t, slow.grown_range_row));
      }
      break;
    case EvidenceKind::kLossStats:
      for (const LossCount& c : in.loss.counts) {
        if (e.size() == limit) break;
        e.push_back({EvidenceSource::kStats, c.stats_row, kNullInt, kNullInt, c.stat});
      }
      break;
  }
  return e;
}

std::string formatValue(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", v);
  return buffer;
}

// The finding of `rule` if its metric is known and reaches the threshold; on
// a CPU run in the rule's CPU words, if it applies there at all.
std::optional<Finding> evaluate(const FindingRule& rule, const Metrics& metrics, bool cpu_run,
                                Framework framework) {
  if (cpu_run && rule.gpu_only) return std::nullopt;
  const std::optional<double> value = metrics.get(rule.metric);
  if (!value) return std::nullopt;  // unknown for this trace: the rule cannot judge
  if (rule.at_most ? *value > rule.threshold : *value < rule.threshold) return std::nullopt;
  Finding f;
  f.rule = rule.id;
  f.kind = rule.kind;
  f.metric = rule.metric;
  f.value = *value;
  f.threshold = rule.threshold;
  const bool high = !std::isnan(rule.high_threshold) &&
                    (rule.at_most ? *value <= rule.high_threshold : *value >= rule.high_threshold);
  f.severity = high ? Severity::kHigh : rule.severity;
  f.title = cpu_run && !rule.cpu_title.empty() ? rule.cpu_title : rule.title;
  if (const size_t at = f.title.find("{value}"); at != std::string::npos) {
    f.title.replace(at, 7, formatValue(*value));
  }
  f.recommendation = recommendationFor(rule, framework, cpu_run);
  if (rule.gain_metric) {
    if (const std::optional<double> gain = metrics.get(*rule.gain_metric)) {
      f.max_gain_pct = std::clamp(*gain * rule.gain_factor, 0.0, 100.0);
    }
  }
  return f;
}

// High severity first, then the larger gain (unknown last), then rule order.
void rank(std::vector<Finding>& findings, const std::vector<FindingRule>& rules) {
  auto order = [&](const std::string& id) {
    for (size_t i = 0; i < rules.size(); ++i) {
      if (rules[i].id == id) return i;
    }
    return rules.size();
  };
  std::stable_sort(findings.begin(), findings.end(), [&](const Finding& a, const Finding& b) {
    if (a.severity != b.severity) return a.severity < b.severity;
    const double ga = a.max_gain_pct.value_or(-1);
    const double gb = b.max_gain_pct.value_or(-1);
    if (ga != gb) return ga > gb;
    return order(a.rule) < order(b.rule);
  });
}

}  // namespace

std::string_view toText(Severity severity) {
  switch (severity) {
    case Severity::kHigh:
      return "high";
    case Severity::kMedium:
      return "medium";
    case Severity::kLow:
      return "low";
  }
  return "low";
}

std::string_view toText(Metric metric) {
  return kMetricNames[static_cast<size_t>(metric)];
}

std::optional<Metric> metricFromText(std::string_view text) {
  for (size_t i = 0; i < kMetricCount; ++i) {
    if (kMetricNames[i] == text) return static_cast<Metric>(i);
  }
  return std::nullopt;
}

Metric metricOf(Axis axis) {
  switch (axis) {
    case Axis::kDataStall:
      return Metric::kDataStallPct;
    case Axis::kHostStall:
      return Metric::kHostStallPct;
    case Axis::kSyncStall:
      return Metric::kSyncStallPct;
    case Axis::kExposedCommunication:
      return Metric::kExposedCommunicationPct;
    case Axis::kMemoryBound:
      return Metric::kMemoryBoundPct;
    case Axis::kComputeBound:
      return Metric::kComputeBoundPct;
    case Axis::kOtherIdle:
      return Metric::kOtherIdlePct;
  }
  return Metric::kOtherIdlePct;
}

void Metrics::set(Metric m, double value) {
  if (std::isfinite(value)) values[static_cast<size_t>(m)] = value;
}

std::string_view toText(EvidenceKind kind) {
  return kEvidenceKindNames[static_cast<size_t>(kind)];
}

std::string_view toText(FindingKind kind) {
  return kind == FindingKind::kTraceQuality ? "trace_quality" : "performance";
}

std::string_view toText(EvidenceSource source) {
  switch (source) {
    case EvidenceSource::kGaps:
      return "gaps";
    case EvidenceSource::kKernels:
      return "kernels";
    case EvidenceSource::kRanges:
      return "ranges";
    case EvidenceSource::kMemcpys:
      return "memcpys";
    case EvidenceSource::kApiCalls:
      return "api_calls";
    case EvidenceSource::kCounters:
      return "counters";
    case EvidenceSource::kStats:
      return "stats";
  }
  return "gaps";
}

namespace {

// The host moment behind an evidence item: a kernel's or copy's launch call,
// a call itself; none for gaps, ranges (they are the host's own), counters
// and stats.
std::optional<HostMoment> momentOf(const AnalysisInput& in, const EvidenceItem& e) {
  const TraceTables& t = in.tables();
  const auto r = static_cast<size_t>(e.id);
  int64_t call = -1;
  switch (e.source) {
    case EvidenceSource::kKernels:
      if (r < t.kernels.size()) call = in.launchOf(t.kernels.correlation_id[r]);
      break;
    case EvidenceSource::kMemcpys:
      if (r < t.memcpys.size()) call = in.launchOf(t.memcpys.correlation_id[r]);
      break;
    case EvidenceSource::kApiCalls:
      if (r < t.api_calls.size()) call = e.id;
      break;
    default:
      break;
  }
  if (call < 0) return std::nullopt;
  const auto c = static_cast<size_t>(call);
  return HostMoment{t.api_calls.thread_id[c], t.api_calls.ts[c]};
}

// What freeing a stall's time does to the critical path: the stalls whose
// cause is one bound of the path (a data stall is data loading on it, a
// host stall the CPU's work, exposed communication the collectives').
std::optional<PathProjection> projectionFor(Metric metric, const FindingInputs& in) {
  std::optional<PathBound> bound;
  switch (metric) {
    case Metric::kDataStallPct:
      bound = PathBound::kData;
      break;
    case Metric::kHostStallPct:
      bound = PathBound::kCpu;
      break;
    case Metric::kExposedCommunicationPct:
      bound = PathBound::kCommunication;
      break;
    default:
      return std::nullopt;
  }
  std::vector<int64_t> step_ns;
  std::vector<CriticalPath> paths;
  for (const StepCriticalPath& p : in.critical_paths) {
    step_ns.push_back(in.steps.steps[p.step].duration());
    paths.push_back(p.path);
  }
  return projectWithout(*bound, step_ns, paths);
}

// Names the op and module behind every item that has a host moment: one
// attribution pass per grouping for all findings together, and none when no
// item has one.
void nameEvidenceOrigins(std::vector<Finding>& findings, const AnalysisInput& in) {
  std::vector<HostMoment> moments;
  std::vector<EvidenceItem*> items;
  for (Finding& f : findings) {
    for (EvidenceItem& e : f.evidence) {
      if (const std::optional<HostMoment> m = momentOf(in, e)) {
        moments.push_back(*m);
        items.push_back(&e);
      }
    }
  }
  if (moments.empty()) return;
  std::vector<std::string> ops = innermostRowNames(in, OpGrouping::kLeafOp, moments);
  std::vector<std::string> modules = innermostRowNames(in, OpGrouping::kModule, moments);
  for (size_t i = 0; i < items.size(); ++i) {
    items[i]->op = std::move(ops[i]);
    items[i]->module = std::move(modules[i]);
  }
}

}  // namespace

FindingsReport computeFindings(const FindingInputs& inputs, const FindingsOptions& options) {
  FindingsReport report;
  const PageableCopies pageable = pageableCopies(inputs);
  report.metrics = computeMetrics(inputs, pageable);
  for (const FindingRule& rule : options.rules) {
    std::optional<Finding> f =
        evaluate(rule, report.metrics, inputs.input.cpuRun(), inputs.framework);
    if (!f) continue;
    if (const size_t at = f->title.find("{slow_steps}"); at != std::string::npos) {
      f->title.replace(at, 12, slowStepWords(inputs.slow_steps, inputs.steps));
    }
    // Host/launch stall: busy launching, or waiting on something else?
    if (rule.metric == Metric::kHostStallPct) {
      const std::string words = launchThreadWords(launchThreadCpu(inputs.input, inputs.gaps));
      if (!words.empty()) f->title += "; " + words;
    }
    f->projection = projectionFor(rule.metric, inputs);
    f->evidence = collectEvidence(inputs, rule.evidence, options.evidence_per_kind, pageable);
    std::stable_sort(
        f->evidence.begin(), f->evidence.end(),
        [](const EvidenceItem& a, const EvidenceItem& b) { return a.source < b.source; });
    report.findings.push_back(std::move(*f));
  }
  nameEvidenceOrigins(report.findings, inputs.input);
  rank(report.findings, options.rules);
  return report;
}

bool isCrossRankMetric(Metric metric) {
  return metric == Metric::kStragglerSlowdownPct || metric == Metric::kStragglerWaitPct;
}

const std::string& recommendationFor(const FindingRule& rule, Framework framework, bool cpu_run) {
  if (cpu_run && !rule.cpu_recommendation.empty()) return rule.cpu_recommendation;
  switch (framework) {
    case Framework::kPyTorch:
      break;
    case Framework::kTrainer:
      if (!rule.trainer_recommendation.empty()) return rule.trainer_recommendation;
      if (!rule.cuda_recommendation.empty()) return rule.cuda_recommendation;
      break;
    case Framework::kJax:
      if (!rule.jax_recommendation.empty()) return rule.jax_recommendation;
      if (!rule.cuda_recommendation.empty()) return rule.cuda_recommendation;
      break;
    case Framework::kCuda:
      if (!rule.cuda_recommendation.empty()) return rule.cuda_recommendation;
      break;
  }
  return rule.recommendation;
}

void addCrossRankFindings(FindingsReport& report, double straggler_slowdown_pct,
                          double straggler_wait_pct, Framework framework,
                          const FindingsOptions& options) {
  report.metrics.set(Metric::kStragglerSlowdownPct, straggler_slowdown_pct);
  report.metrics.set(Metric::kStragglerWaitPct, straggler_wait_pct);
  for (const FindingRule& rule : options.rules) {
    if (!isCrossRankMetric(rule.metric)) continue;
    if (std::optional<Finding> f = evaluate(rule, report.metrics, /*cpu_run=*/false, framework)) {
      report.findings.push_back(std::move(*f));
    }
  }
  rank(report.findings, options.rules);
}

void removeCrossRankFindings(FindingsReport& report) {
  for (Metric m : {Metric::kStragglerSlowdownPct, Metric::kStragglerWaitPct}) {
    report.metrics.values[static_cast<size_t>(m)].reset();
  }
  std::erase_if(report.findings, [](const Finding& f) { return isCrossRankMetric(f.metric); });
}

}  // namespace damscope
