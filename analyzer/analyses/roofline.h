// Roofline placement (Williams, Waterman, Patterson, "Roofline: an insightful
// visual performance model for multicore architectures", CACM 52(4), 2009):
// where each kernel sits against the device's roofs.
//
//   arithmetic intensity  AI = FLOPs / DRAM bytes            (FLOP/byte)
//   achieved              FLOPs / kernel time                 (FLOP/s)
//   ceiling               min(peak at its precision, bandwidth x AI)
//   ridge point           peak / bandwidth: below it a kernel cannot reach
//                         the peak however well written (memory-bound);
//                         above it the arithmetic units limit it
// FLOPs and bytes come from kernel_work.h, each point tagged with its source
// (measured, annotated, estimated). Points are per kernel name (all its runs
// in the analysis window, time-weighted: summed FLOPs, bytes and time) and
// per kernel class (category); a kernel's precision is read from its name
// (kernel_precision.h), else the run's.
//
// Collectives get their own ceiling, the link: NCCL's "bus bandwidth"
// (nccl-tests, doc/PERFORMANCE.md: the bytes each rank must move for the
// collective, size x 2(n-1)/n for all-reduce, x (n-1)/n for all-gather,
// reduce-scatter and all-to-all, x 1 for broadcast and reduce) over the
// kernel's time, against the device's peer link per direction
// (device_specs.h). Message sizes come from the profiler's collective
// arguments (Kineto: "Collective name", "In msg nelems", "Out msg nelems",
// "Group size", "dtype").
//
// Where a kernel has a roofline point, its memory- or compute-bound class is
// the point's side of the ridge, not its name's category (kernel_categories.h
// keeps the name's reading for kernels without one): bound_overrides says
// which kernels move, and AnalysisInput::applyBoundOverrides() applies it
// before the scorecard.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/analyses/analysis_input.h"
#include "analyzer/analyses/analysis_window.h"
#include "analyzer/analyses/device_peaks.h"
#include "analyzer/analyses/kernel_work.h"

namespace damscope {

struct RooflinePoint {
  std::string name;  // the kernel's name; for a class point, the category's
  KernelCategory category = KernelCategory::kOther;
  Precision precision = Precision::kFp32;          // of the kernel (by name), else the run's
  MetricSource source = MetricSource::kEstimated;  // the least trusted of its runs
  int64_t kernels = 0;
  int64_t time_ns = 0;
  double flops = 0;
  std::optional<double> bytes;
  std::optional<double> intensity;            // FLOP/byte; empty without bytes
  double achieved_flops_per_s = 0;            // empty FLOPs give 0
  std::optional<double> ceiling_flops_per_s;  // min(peak, bandwidth x AI)
  std::optional<double> pct_of_ceiling;
  std::optional<bool> memory_bound;          // AI below the ridge; empty without AI or ridge
  std::optional<int64_t> example_kernel_id;  // its longest run
  bool operator==(const RooflinePoint&) const = default;
};

struct CollectivePoint {
  std::string name;  // "allreduce", ...
  int64_t kernels = 0;
  int64_t time_ns = 0;
  double bus_bytes = 0;  // summed over its kernels
  double achieved_bytes_per_s = 0;
  std::optional<double> link_bytes_per_s;
  std::optional<double> pct_of_link;
  bool operator==(const CollectivePoint&) const = default;
};

struct RooflineCeiling {
  Precision precision = Precision::kFp32;
  double peak_flops_per_s = 0;
  std::optional<double> ridge_flops_per_byte;
  bool operator==(const RooflineCeiling&) const = default;
};

struct RooflineOptions {
  size_t kernel_points = 200;  // the kernel names with the most time
};

// The points and roofs; the result model holds this as it is
// (analysis_result.h, RankResult::roofline).
struct RooflineReport {
  std::optional<double> bandwidth_bytes_per_s;
  std::vector<RooflineCeiling> ceilings;  // for each precision the points use
  std::vector<RooflinePoint> kernels;     // by time, largest first
  std::vector<RooflinePoint> classes;     // by time, largest first
  std::vector<CollectivePoint> collectives;
  int64_t kernels_with_work = 0;               // window kernels with FLOPs or bytes
  std::array<int64_t, 3> kernels_by_source{};  // of those, per MetricSource
  // Their share of the window's computation kernel time (collectives have
  // their own ceiling, the link).
  double time_with_work_pct = 0;
  // Per MetricSource, the share whose side of the ridge their point gives
  // (bytes known, and a device bandwidth): the verdict's compute/memory split
  // rests on these, and on kernel names for the rest.
  std::array<double, 3> time_by_source_pct{};
  bool operator==(const RooflineReport&) const = default;
};

// What computeRoofline finds: the report, and the kernels whose roofline side
// differs from their category's reading (AnalysisInput::applyBoundOverrides).
struct RooflineAnalysis {
  RooflineReport report;
  std::vector<std::pair<int64_t, GpuWork>> bound_overrides;  // (kernels row, work)
};

RooflineAnalysis computeRoofline(const AnalysisInput& input, const WindowReport& window,
                                 const KernelWorkReport& work, const DevicePeaks& peaks,
                                 Precision run_precision, const RooflineOptions& options);

}  // namespace damscope
