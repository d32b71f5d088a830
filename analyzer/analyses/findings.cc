// The findings rule engine: see findings.h.
#include "analyzer/analyses/findings.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "analyzer/analyses/intervals.h"

namespace damscope {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double percentOf(double part, double whole) {
  return whole > 0 ? 100.0 * part / whole : kNaN;
}

std::map<std::string, double> computeMetrics(const FindingInputs& in) {
  std::map<std::string, double> m;
  const Scorecard& run = in.scorecard.run;
  const double step_ns = static_cast<double>(run.total());
  if (in.scorecard.valid) {
    for (size_t a = 0; a < kAxisCount; ++a) {
      m[std::string(toText(static_cast<Axis>(a))) + "_pct"] = run.pct(static_cast<Axis>(a));
    }
    m["stall_pct"] = run.stallPct();
  }
  if (const DeviceUtilization* u = in.utilization.primaryDevice()) {
    m["gpu_util_pct"] = u->gpu_util_pct;
    m["sm_efficiency_pct"] = u->sm_efficiency_pct;
    m["occupancy_pct"] = u->occupancy_pct;
    m["idle_sm_pct"] =
        std::isnan(u->sm_efficiency_pct) ? kNaN : u->gpu_util_pct - u->sm_efficiency_pct;
  }
  if (in.scorecard.valid) {
    // Kernel time is a sum of durations; on one stream it does not overlap,
    // and it can never exceed the compute-bound share it is part of.
    const double fp32 = percentOf(static_cast<double>(in.kernels.fp32_matrix_ns), step_ns);
    m["fp32_matrix_pct"] = std::min(fp32, run.pct(Axis::kComputeBound));
    // Pageable copies in the window, as a union.
    Intervals pageable;
    const MemcpyTable& mc = in.input.tables().memcpys;
    const std::vector<GpuOp>& gpu = in.input.gpu();
    for (size_t i = 0; i < gpu.size(); ++i) {
      if (gpu[i].kind != GpuOpKind::kMemcpy || !in.window.in_window[i]) continue;
      const size_t row = static_cast<size_t>(gpu[i].row);
      if (mc.src_kind[row] == MemoryKind::kPageable || mc.dst_kind[row] == MemoryKind::kPageable) {
        pageable.push_back({gpu[i].ts, gpu[i].end});
      }
    }
    mergeIntervals(pageable);
    m["pageable_copy_pct"] = percentOf(static_cast<double>(totalLength(pageable)), step_ns);
  }
  if (in.launches.kernels_with_launch > 0) {
    m["short_kernel_pct"] = percentOf(static_cast<double>(in.launches.shorter_than_launch),
                                      static_cast<double>(in.launches.kernels_with_launch));
  }
  // Peak reserved (else allocated) memory against the device's capacity.
  const TraceTables& t = in.input.tables();
  for (const char* name : {"memory_reserved_bytes", "memory_allocated_bytes"}) {
    const StringId id = t.strings.find(name);
    if (!id.valid()) continue;
    double peak_pct = kNaN;
    for (size_t i = 0; i < t.counters.size(); ++i) {
      if (!(t.counters.name[i] == id) || isNull(t.counters.device[i])) continue;
      for (size_t d = 0; d < t.devices.size(); ++d) {
        if (t.devices.device[d] != t.counters.device[i] || isNull(t.devices.memory_bytes[d]) ||
            t.devices.memory_bytes[d] <= 0) {
          continue;
        }
        const double pct =
            percentOf(t.counters.value[i], static_cast<double>(t.devices.memory_bytes[d]));
        if (std::isnan(peak_pct) || pct > peak_pct) peak_pct = pct;
      }
    }
    if (!std::isnan(peak_pct)) {
      m["peak_memory_pct"] = peak_pct;
      break;
    }
  }
  m["straggler_slowdown_pct"] = in.straggler_slowdown_pct;
  for (auto it = m.begin(); it != m.end();) {
    it = std::isfinite(it->second) ? std::next(it) : m.erase(it);
  }
  return m;
}

// The longest `limit` device gaps in the window, by their share of `cause`.
std::vector<int64_t> gapEvidence(const FindingInputs& in, GapCause cause, size_t limit,
                                 std::vector<int64_t>* ranges, std::vector<int64_t>* calls) {
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
  std::vector<int64_t> ids;
  for (size_t i = 0; i < n; ++i) {
    const Gap& gap = in.gaps.gaps[static_cast<size_t>(by_share[i].second)];
    ids.push_back(by_share[i].second);
    if (gap.cause != cause || gap.evidence_row < 0) continue;
    if (gap.evidence_table == EvidenceTable::kRanges) ranges->push_back(gap.evidence_row);
    if (gap.evidence_table == EvidenceTable::kApiCalls) calls->push_back(gap.evidence_row);
  }
  auto dedupe = [](std::vector<int64_t>& v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  };
  dedupe(*ranges), dedupe(*calls);
  return ids;
}

// The longest `limit` window kernels that pass `keep`.
template <typename Keep>
std::vector<int64_t> kernelEvidence(const FindingInputs& in, size_t limit, Keep&& keep) {
  std::vector<std::pair<int64_t, int64_t>> kernels;
  const std::vector<GpuOp>& gpu = in.input.gpu();
  for (size_t i = 0; i < gpu.size(); ++i) {
    if (gpu[i].kind != GpuOpKind::kKernel || !in.window.in_window[i] || !keep(gpu[i])) continue;
    kernels.emplace_back(gpu[i].end - gpu[i].ts, gpu[i].row);
  }
  const size_t n = std::min(limit, kernels.size());
  std::partial_sort(kernels.begin(), kernels.begin() + static_cast<std::ptrdiff_t>(n),
                    kernels.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<int64_t> rows;
  for (size_t i = 0; i < n; ++i) rows.push_back(kernels[i].second);
  return rows;
}

Evidence collectEvidence(const FindingInputs& in, const std::string& kind, size_t limit) {
  Evidence e;
  const std::string_view k = kind;
  if (k.substr(0, 5) == "gaps:") {
    const std::string_view cause = k.substr(5);
    for (size_t c = 0; c < kGapCauseCount; ++c) {
      if (toText(static_cast<GapCause>(c)) == cause) {
        e.gaps = gapEvidence(in, static_cast<GapCause>(c), limit, &e.ranges, &e.api_calls);
      }
    }
  } else if (k == "kernels:communication") {
    e.kernels = kernelEvidence(in, limit,
                               [](const GpuOp& op) { return op.work == GpuWork::kCommunication; });
  } else if (k == "kernels:memory_bound") {
    e.kernels =
        kernelEvidence(in, limit, [](const GpuOp& op) { return op.work == GpuWork::kMemoryBound; });
  } else if (k == "kernels:fp32") {
    e.kernels = in.kernels.fp32_matrix_rows;
    if (e.kernels.size() > limit) e.kernels.resize(limit);
  } else if (k == "kernels:short") {
    const ApiCallTable& api = in.input.tables().api_calls;
    e.kernels = kernelEvidence(in, limit, [&](const GpuOp& op) {
      return op.launch >= 0 && op.end - op.ts < api.dur[static_cast<size_t>(op.launch)];
    });
  } else if (k == "kernels:small_grid") {
    const KernelTable& kt = in.input.tables().kernels;
    e.kernels = kernelEvidence(in, limit, [&](const GpuOp& op) {
      const int32_t sms = in.input.smCount(op.device);
      const size_t r = static_cast<size_t>(op.row);
      if (sms <= 0 || isNull(kt.grid_x[r]) || isNull(kt.grid_y[r]) || isNull(kt.grid_z[r]))
        return false;
      return static_cast<int64_t>(kt.grid_x[r]) * kt.grid_y[r] * kt.grid_z[r] < sms;
    });
  } else if (k == "memcpys:pageable") {
    const MemcpyTable& mc = in.input.tables().memcpys;
    std::vector<std::pair<int64_t, int64_t>> copies;
    const std::vector<GpuOp>& gpu = in.input.gpu();
    for (size_t i = 0; i < gpu.size(); ++i) {
      if (gpu[i].kind != GpuOpKind::kMemcpy || !in.window.in_window[i]) continue;
      const size_t r = static_cast<size_t>(gpu[i].row);
      if (mc.src_kind[r] == MemoryKind::kPageable || mc.dst_kind[r] == MemoryKind::kPageable) {
        copies.emplace_back(gpu[i].end - gpu[i].ts, gpu[i].row);
      }
    }
    std::sort(copies.begin(), copies.end(),
              [](const auto& a, const auto& b) { return a.first > b.first; });
    for (size_t i = 0; i < std::min(limit, copies.size()); ++i)
      e.memcpys.push_back(copies[i].second);
  } else if (k == "counters:memory") {
    const TraceTables& t = in.input.tables();
    int64_t best = -1;
    for (size_t i = 0; i < t.counters.size(); ++i) {
      const std::string_view name = t.strings.get(t.counters.name[i]);
      if (name != "memory_reserved_bytes" && name != "memory_allocated_bytes") continue;
      if (best < 0 || t.counters.value[i] > t.counters.value[static_cast<size_t>(best)]) {
        best = static_cast<int64_t>(i);
      }
    }
    if (best >= 0) e.counters.push_back(best);
  }
  return e;
}

std::string formatValue(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", v);
  return buffer;
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

bool Evidence::empty() const {
  return gaps.empty() && kernels.empty() && ranges.empty() && memcpys.empty() &&
         api_calls.empty() && counters.empty();
}

std::string Evidence::json() const {
  std::string out = "{";
  auto list = [&](const char* name, const std::vector<int64_t>& ids) {
    if (ids.empty()) return;
    if (out.size() > 1) out += ',';
    out += '"';
    out += name;
    out += "\":[";
    for (size_t i = 0; i < ids.size(); ++i) {
      if (i > 0) out += ',';
      out += std::to_string(ids[i]);
    }
    out += ']';
  };
  list("gaps", gaps), list("kernels", kernels), list("ranges", ranges);
  list("memcpys", memcpys), list("api_calls", api_calls), list("counters", counters);
  return out + "}";
}

Result<FindingsReport> computeFindings(const FindingInputs& inputs,
                                       const FindingsOptions& options) {
  FindingsReport report;
  report.metrics = computeMetrics(inputs);
  for (const FindingRule& rule : options.rules) {
    auto it = report.metrics.find(rule.metric);
    if (it == report.metrics.end()) continue;  // unknown for this trace: the rule cannot judge
    const double value = it->second;
    const bool fires = rule.at_most ? value <= rule.threshold : value >= rule.threshold;
    if (!fires) continue;
    Finding f;
    f.rule = rule.id;
    f.metric = rule.metric;
    f.value = value;
    f.threshold = rule.threshold;
    const bool high = !std::isnan(rule.high_threshold) &&
                      (rule.at_most ? value <= rule.high_threshold : value >= rule.high_threshold);
    f.severity = high ? Severity::kHigh : rule.severity;
    f.title = rule.title;
    if (const size_t at = f.title.find("{value}"); at != std::string::npos) {
      f.title.replace(at, 7, formatValue(value));
    }
    f.recommendation = rule.recommendation;
    if (!rule.gain_metric.empty()) {
      auto gain = report.metrics.find(rule.gain_metric);
      if (gain != report.metrics.end()) {
        f.max_gain_pct = std::clamp(gain->second * rule.gain_factor, 0.0, 100.0);
      }
    }
    if (!rule.evidence.empty()) {
      f.evidence = collectEvidence(inputs, rule.evidence, options.evidence_per_kind);
    }
    report.findings.push_back(std::move(f));
  }
  std::stable_sort(report.findings.begin(), report.findings.end(),
                   [](const Finding& a, const Finding& b) {
                     if (a.severity != b.severity) return a.severity < b.severity;
                     const double ga = std::isnan(a.max_gain_pct) ? -1 : a.max_gain_pct;
                     const double gb = std::isnan(b.max_gain_pct) ? -1 : b.max_gain_pct;
                     return ga > gb;
                   });
  return report;
}

}  // namespace damscope
