// GPU utilization family (TensorBoard plugin definitions): see gpu_utilization.h.
#include "analyzer/analyses/gpu_utilization.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <queue>

#include "analyzer/analyses/intervals.h"

namespace damscope {
namespace {

// The span of every event in the trace: the plugin's range without steps.
Interval traceSpan(const AnalysisInput& input) {
  const TraceTables& t = input.tables();
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  auto widen = [&](const std::vector<int64_t>& ts, const std::vector<int64_t>& dur) {
    for (size_t i = 0; i < ts.size(); ++i) {
      lo = std::min(lo, ts[i]);
      hi = std::max(hi, ts[i] + std::max<int64_t>(dur[i], 0));
    }
  };
  widen(t.kernels.ts, t.kernels.dur), widen(t.memcpys.ts, t.memcpys.dur);
  widen(t.memsets.ts, t.memsets.dur), widen(t.api_calls.ts, t.api_calls.dur);
  widen(t.ranges.ts, t.ranges.dur);
  return lo <= hi ? Interval{lo, hi} : Interval{0, 0};
}

// Time-weighted sum of min(1, Σ active values): the plugin's merge of
// overlapping kernels' SM efficiencies. Kernels arrive in start order; a
// min-heap of the active ones' ends keeps it O(n log k) for k concurrent
// kernels, without materialising 2n change points.
class CappedCoverage {
 public:
  void add(int64_t start, int64_t end, double value) {
    advanceTo(start);
    active_.push({end, value});
    sum_ += value;
  }
  double finish() {
    advanceTo(INT64_MAX);
    return area_;
  }

 private:
  void advanceTo(int64_t t) {
    if (last_ == INT64_MIN) last_ = t;
    while (!active_.empty() && active_.top().first <= t) {
      const auto [end, value] = active_.top();
      active_.pop();
      accumulate(end);
      sum_ -= value;
    }
    if (active_.empty()) sum_ = 0;  // no drift from adding and removing doubles
    if (t != INT64_MAX) accumulate(t);
  }
  void accumulate(int64_t t) {
    if (t > last_) area_ += std::min(1.0, std::max(0.0, sum_)) * static_cast<double>(t - last_);
    last_ = std::max(last_, t);
  }

  std::priority_queue<std::pair<int64_t, double>, std::vector<std::pair<int64_t, double>>,
                      std::greater<>>
      active_;
  double sum_ = 0, area_ = 0;
  int64_t last_ = INT64_MIN;
};

}  // namespace

GpuUtilizationReport computeGpuUtilization(const AnalysisInput& input, const StepReport& steps,
                                           const GpuUtilizationOptions& options) {
  GpuUtilizationReport report;
  const KernelTable& k = input.tables().kernels;
  Interval range{0, 0};
  std::vector<const Step*> used;
  for (const Step& s : steps.steps) {
    if (s.complete) used.push_back(&s);
  }
  if (!isNull(options.range_start)) {
    range = {options.range_start, options.range_end};
    report.steps_used =
        static_cast<size_t>(std::count_if(used.begin(), used.end(), [&](const Step* s) {
          return s->start >= range.start && s->end <= range.end;
        }));
  } else if (!used.empty()) {
    range = {used.front()->start, used.back()->end};
    report.steps_used = used.size();
  } else {
    range = traceSpan(input);
    if (!steps.steps.empty()) report.notes.push_back("no complete step: the whole span is used");
  }
  if (range.length() <= 0) {
    report.notes.push_back("the trace has no time span: GPU utilization cannot be computed");
    return report;
  }

  struct Accumulator {
    Intervals kernels;
    CappedCoverage sm;
    bool has_sm = false;
    double occupancy_weighted = 0;
    int64_t occupancy_ns = 0;
    int64_t without_grid = 0, with_occupancy = 0;
  };
  std::map<int32_t, Accumulator> devices;
  std::map<int32_t, int32_t> sm_counts;
  for (const GpuOp& op : input.gpu()) {
    if (op.kind != GpuOpKind::kKernel) continue;
    const int64_t start = std::max(op.ts, range.start), end = std::min(op.end, range.end);
    Accumulator& a = devices[op.device];
    if (end <= start) continue;
    a.kernels.push_back({start, end});
    const size_t row = static_cast<size_t>(op.row);
    auto [sm, inserted] = sm_counts.try_emplace(op.device, 0);
    if (inserted) sm->second = input.smCount(op.device);
    const int32_t gx = k.grid_x[row], gy = k.grid_y[row], gz = k.grid_z[row];
    if (sm->second > 0 && !isNull(gx) && !isNull(gy) && !isNull(gz) && gx >= 0 && gy >= 0 &&
        gz >= 0) {
      const double blocks = static_cast<double>(gx) * gy * gz;
      const double efficiency = std::min(blocks / sm->second, 1.0);
      a.sm.add(start, end, efficiency);
      a.has_sm = true;
    } else {
      ++a.without_grid;
    }
    const double occupancy = k.occupancy_pct[row];
    if (std::isfinite(occupancy) && occupancy >= 0) {
      a.occupancy_weighted += occupancy * static_cast<double>(end - start);
      a.occupancy_ns += end - start;
      ++a.with_occupancy;
    }
  }

  const double span = static_cast<double>(range.length());
  for (auto& [device, a] : devices) {
    DeviceUtilization u;
    u.device = device;
    u.start = range.start;
    u.end = range.end;
    mergeIntervals(a.kernels);
    u.kernel_ns = totalLength(a.kernels);
    u.gpu_util_pct = 100.0 * static_cast<double>(u.kernel_ns) / span;
    u.kernels_without_grid = a.without_grid;
    u.kernels_with_occupancy = a.with_occupancy;
    if (a.has_sm) {
      u.sm_efficiency_pct = 100.0 * a.sm.finish() / span;
    } else if (u.kernel_ns == 0) {
      u.sm_efficiency_pct = 0.0;
    }
    if (a.occupancy_ns > 0) {
      u.occupancy_pct = a.occupancy_weighted / static_cast<double>(a.occupancy_ns);
    }
    // SMs and occupancy do not exist on a CPU: nothing is missing there.
    if (a.without_grid > 0 && !input.cpuRun()) {
      report.notes.push_back("device " + std::to_string(device) + ": " +
                             std::to_string(a.without_grid) +
                             " kernel(s) without a grid size or SM count: est. SM efficiency " +
                             (a.has_sm ? "counts them as 0" : "unknown"));
    }
    if (a.occupancy_ns == 0 && u.kernel_ns > 0 && !input.cpuRun()) {
      report.notes.push_back("device " + std::to_string(device) +
                             ": the trace reports no kernel occupancy: est. occupancy unknown");
    }
    report.devices.push_back(u);
  }
  for (size_t i = 0; i < report.devices.size(); ++i) {
    if (!report.primary ||
        report.devices[i].kernel_ns > report.devices[*report.primary].kernel_ns) {
      report.primary = i;
    }
  }
  if (report.devices.empty()) {
    report.notes.push_back(
        "no kernels: GPU utilization, SM efficiency and occupancy cannot be computed");
  }
  return report;
}

}  // namespace damscope
