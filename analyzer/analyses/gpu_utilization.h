// GPU utilization, estimated SM efficiency and estimated achieved occupancy,
// as the PyTorch profiler's TensorBoard plugin defines them (kineto tb_plugin
// @041e7ce9, torch_tb_profiler/profiler/gpu_metrics_parser.py; the plugin's
// GPU Kernel view documentation, "GPU Utilization", "Est. SM Efficiency",
// "Est. Achieved Occupancy"), per device:
//
//   range          [start of the first step, end of the last step], with the
//                  plugin's steps (steps.h: aligned to their GPU work, tail
//                  steps the profiler cut off left out); the whole span of
//                  all events when the trace has no steps; a time range a
//                  person chose (GpuUtilizationOptions::range_start/end, set
//                  for analysis_window.h's kRange) when there is one
//   GPU util       = |union of the device's kernels ∩ range| / |range|
//   est. SM eff.   = Σ over kernels of min(blocks / SMs, 1) x its time in
//                    the range, / |range|; blocks = grid x*y*z; overlapping
//                    kernels add up, capped at 1 (a device cannot be more
//                    than fully covered)
//   est. occupancy = Σ occupancy x time in range / Σ time in range, over the
//                    kernels that carry an occupancy (Kineto's "est. achieved
//                    occupancy %": min(blocks/SM, the occupancy calculator's
//                    active blocks/SM) x threads per block / max threads per
//                    SM, CUPTI occupancy calculator, libkineto
//                    CuptiActivity.cpp kernelOccupancy)
//
// SM efficiency needs each kernel's grid and the device's SM count; occupancy
// needs the source to report it. When they are missing the figure is unknown
// (empty in memory, null in output), never a guess.
#pragma once

#include <optional>

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/analyses/analysis_input.h"
#include "analyzer/analyses/steps.h"
#include "base/result.h"

namespace damscope {

struct DeviceUtilization {
  int32_t device = 0;
  int64_t start = 0;
  int64_t end = 0;
  int64_t kernel_ns = 0;  // union of kernels inside the range
  double gpu_util_pct = 0;
  std::optional<double> sm_efficiency_pct;  // empty: unknown
  std::optional<double> occupancy_pct;      // empty: unknown
  int64_t kernels_without_grid = 0;         // inside the range
  int64_t kernels_with_occupancy = 0;
  bool operator==(const DeviceUtilization&) const = default;
};

struct GpuUtilizationOptions {
  // A chosen range [range_start, range_end) in ns to measure over instead of
  // the steps; kNullInt: the steps' range.
  int64_t range_start = kNullInt;
  int64_t range_end = kNullInt;
};

struct GpuUtilizationReport {
  std::vector<DeviceUtilization> devices;  // devices that ran kernels, ascending
  std::optional<size_t> primary;           // index of the busiest device; empty: none
  size_t steps_used = 0;                   // 0: the whole span was used
  std::vector<std::string> notes;

  const DeviceUtilization* primaryDevice() const { return primary ? &devices[*primary] : nullptr; }
};

GpuUtilizationReport computeGpuUtilization(const AnalysisInput& input, const StepReport& steps,
                                           const GpuUtilizationOptions& options);

}  // namespace damscope
