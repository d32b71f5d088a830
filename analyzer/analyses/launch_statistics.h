// Launch statistics: how long the host takes to launch kernels, how long they
// wait to start, how many are too short to be worth a launch, and how deep
// the launch queue runs.
//
// Definitions (HolisticTraceAnalysis @f4d0062c, hta/analyzers/
// cuda_kernel_analysis.py, get_cuda_kernel_launch_stats, and its queue
// length analysis, hta/analyzers/trace_counters.py):
//   launch cost   = duration of the launch call on the CPU (cudaLaunchKernel ...)
//   launch delay  = kernel start - launch call start
//   short kernel  = a kernel that runs for less time than its launch call
//                   took (HTA: gpu_duration < cpu_duration): the GPU cannot
//                   stay busy on such kernels unless launches queue ahead
//   runtime outlier       launch cost  > 50 µs (HTA runtime_cutoff)
//   launch delay outlier  launch delay > 100 µs (HTA launch_delay_cutoff)
//   queue depth   per stream, operations launched and not yet finished: +1
//                 at the launch call's start, -1 at the operation's end.
//                 Reported time-weighted over the stream's busy span, with
//                 the share of that span with an empty queue (the stream
//                 had nothing to run next).
// damscope also counts kernels shorter than 10 µs, a few times the ~2-5 µs
// it costs to launch one (NVIDIA, "Getting Started with CUDA Graphs", 2019).
// Over the analysis window.
#pragma once

#include <cstdint>
#include <vector>

#include "analyzer/analyses/analysis_input.h"
#include "analyzer/analyses/analysis_window.h"
#include "base/result.h"

namespace damscope {

struct Distribution {
  int64_t count = 0;
  double mean = 0, p50 = 0, p90 = 0, p99 = 0, max = 0;
  bool operator==(const Distribution&) const = default;
};

struct QueueDepth {
  int32_t device = 0;
  int64_t stream = 0;
  int64_t operations = 0;
  Distribution depth;    // time-weighted
  double empty_pct = 0;  // share of the stream's span with nothing queued
  bool operator==(const QueueDepth&) const = default;
};

struct LaunchStatisticsOptions {
  int64_t short_kernel_ns = 10'000;
  int64_t runtime_cutoff_ns = 50'000;        // HTA default
  int64_t launch_delay_cutoff_ns = 100'000;  // HTA default
};

struct LaunchStatisticsReport {
  Distribution launch_delay_ns;
  Distribution launch_cost_ns;
  Distribution kernel_duration_ns;
  int64_t kernels = 0;
  int64_t kernels_with_launch = 0;
  int64_t shorter_than_launch = 0;  // HTA short GPU kernels
  int64_t shorter_than_threshold = 0;
  int64_t runtime_outliers = 0;
  int64_t launch_delay_outliers = 0;
  std::vector<QueueDepth> queues;
  bool operator==(const LaunchStatisticsReport&) const = default;
};

LaunchStatisticsReport computeLaunchStatistics(const AnalysisInput& input,
                                               const WindowReport& window,
                                               const LaunchStatisticsOptions& options);

// Mean, percentiles (nearest rank) and maximum of `values` (reordered).
Distribution describe(std::vector<int64_t>& values);

}  // namespace damscope
