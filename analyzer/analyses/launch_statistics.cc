// Launch statistics: see launch_statistics.h.
#include "analyzer/analyses/launch_statistics.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace damscope {
namespace {

// Nearest-rank percentile of values (partially reordered in place).
double percentile(std::vector<int64_t>& values, double p) {
  const size_t n = values.size();
  size_t rank = static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(n)));
  rank = std::clamp<size_t>(rank, 1, n) - 1;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(rank),
                   values.end());
  return static_cast<double>(values[rank]);
}

// Time-weighted queue depth of one stream from its launch times (+1) and
// completion times (-1). Both lists are sorted here (each is nearly sorted
// already: a stream runs its work in launch order) and walked together.
QueueDepth queueDepth(std::vector<int64_t>& launches, std::vector<int64_t>& completions) {
  QueueDepth q;
  if (launches.empty()) return q;
  if (!std::is_sorted(launches.begin(), launches.end()))
    std::sort(launches.begin(), launches.end());
  if (!std::is_sorted(completions.begin(), completions.end())) {
    std::sort(completions.begin(), completions.end());
  }
  std::map<int64_t, int64_t> time_at_depth;  // depth -> ns
  int64_t depth = 0, max_depth = 0;
  size_t a = 0, c = 0;
  int64_t last = std::min(launches.front(), completions.front());
  while (a < launches.size() || c < completions.size()) {
    // At equal times the completion goes first.
    const bool completion =
        a == launches.size() || (c < completions.size() && completions[c] <= launches[a]);
    const int64_t t = completion ? completions[c++] : launches[a++];
    if (t > last) time_at_depth[depth] += t - last;
    last = t;
    depth += completion ? -1 : 1;
    max_depth = std::max(max_depth, depth);
  }
  int64_t total = 0;
  double weighted = 0;
  for (const auto& [d, ns] : time_at_depth) total += ns, weighted += static_cast<double>(d) * ns;
  if (total == 0) return q;
  q.depth.count = static_cast<int64_t>(launches.size());
  q.depth.mean = weighted / static_cast<double>(total);
  q.depth.max = static_cast<double>(max_depth);
  auto at = [&](double p) {
    int64_t seen = 0;
    const double target = p / 100.0 * static_cast<double>(total);
    for (const auto& [d, ns] : time_at_depth) {
      seen += ns;
      if (static_cast<double>(seen) >= target) return static_cast<double>(d);
    }
    return static_cast<double>(max_depth);
  };
  q.depth.p50 = at(50), q.depth.p90 = at(90), q.depth.p99 = at(99);
  auto empty = time_at_depth.find(0);
  q.empty_pct = empty == time_at_depth.end()
                    ? 0.0
                    : 100.0 * static_cast<double>(empty->second) / static_cast<double>(total);
  return q;
}

}  // namespace

Distribution describe(std::vector<int64_t>& values) {
  Distribution d;
  d.count = static_cast<int64_t>(values.size());
  if (values.empty()) return d;
  double sum = 0;
  int64_t max = values.front();
  for (int64_t v : values) sum += static_cast<double>(v), max = std::max(max, v);
  d.mean = sum / static_cast<double>(values.size());
  d.max = static_cast<double>(max);
  d.p50 = percentile(values, 50);
  d.p90 = percentile(values, 90);
  d.p99 = percentile(values, 99);
  return d;
}

LaunchStatisticsReport computeLaunchStatistics(const AnalysisInput& input,
                                               const WindowReport& window,
                                               const LaunchStatisticsOptions& options) {
  LaunchStatisticsReport report;
  const ApiCallTable& api = input.tables().api_calls;
  const std::vector<GpuOp>& gpu = input.gpu();
  std::vector<int64_t> delays, costs, durations;
  struct Queue {
    std::vector<int64_t> launches, completions;
  };
  std::map<std::pair<int32_t, int64_t>, Queue> queues;
  delays.reserve(gpu.size()), costs.reserve(gpu.size()), durations.reserve(gpu.size());

  for (size_t i = 0; i < gpu.size(); ++i) {
    const GpuOp& op = gpu[i];
    if (op.kind == GpuOpKind::kSync || !window.in_window[i]) continue;
    const bool kernel = op.kind == GpuOpKind::kKernel;
    const int64_t dur = op.end - op.ts;
    if (kernel) {
      ++report.kernels;
      durations.push_back(dur);
      if (dur < options.short_kernel_ns) ++report.shorter_than_threshold;
    }
    if (op.launch < 0) continue;
    const size_t call = static_cast<size_t>(op.launch);
    const int64_t launch_ts = api.ts[call];
    const int64_t cost = std::max<int64_t>(api.dur[call], 0);
    Queue& queue = queues[{op.device, isNull(op.stream) ? int64_t{-1} : op.stream}];
    queue.launches.push_back(launch_ts);
    queue.completions.push_back(std::max(op.end, launch_ts));
    if (!kernel) continue;
    ++report.kernels_with_launch;
    const int64_t delay = op.ts - launch_ts;
    delays.push_back(delay);
    costs.push_back(cost);
    if (dur < cost) ++report.shorter_than_launch;
    if (cost > options.runtime_cutoff_ns) ++report.runtime_outliers;
    if (delay > options.launch_delay_cutoff_ns) ++report.launch_delay_outliers;
  }
  report.launch_delay_ns = describe(delays);
  report.launch_cost_ns = describe(costs);
  report.kernel_duration_ns = describe(durations);
  for (auto& [key, queue] : queues) {
    QueueDepth q = queueDepth(queue.launches, queue.completions);
    q.device = key.first;
    q.stream = key.second;
    q.operations = static_cast<int64_t>(queue.launches.size());
    report.queues.push_back(q);
  }
  return report;
}

}  // namespace damscope
