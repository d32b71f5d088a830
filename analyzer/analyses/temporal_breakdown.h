// Temporal breakdown: how the GPU time of a rank splits into computation,
// communication, memory operations and idle time, and how much communication
// is hidden behind computation. HolisticTraceAnalysis's definitions
// (HolisticTraceAnalysis @f4d0062c, hta/analyzers/breakdown_analysis.py,
// get_temporal_breakdown and get_comm_comp_overlap; ../shared/traces/README.md):
//
//   span        = last GPU end - first GPU start, over the window's GPU ops
//                 (kernels, memcpys, memsets, stream syncs)
//   idle        = span - |union of all of them|
//   compute     = |union of computation kernels| (not communication, not a
//                 copy, memset or sync)
//   non-compute = span - compute - idle
//   overlap     = |computation ∩ communication| / |communication|
//
// Communication kernels are those the kernel classifier calls communication
// (NCCL/RCCL/...; HTA matches "nccl" in the name, a subset). damscope adds
// exposed communication = |communication - computation|, and the union of
// copies and memsets.
//
// Per step the same figures are taken over the step's aligned interval with
// every GPU op that overlaps it (clipped), and span = the step's duration, so
// idle includes the time before the step's first and after its last GPU op.
#pragma once

#include <cstdint>
#include <vector>

#include "analyzer/analyses/analysis_input.h"
#include "analyzer/analyses/analysis_window.h"
#include "analyzer/analyses/steps.h"
#include "base/result.h"

namespace damscope {

struct BreakdownFigures {
  int64_t start = 0;
  int64_t end = 0;
  int64_t idle_ns = 0;
  int64_t compute_ns = 0;
  int64_t non_compute_ns = 0;
  int64_t communication_ns = 0;
  int64_t exposed_communication_ns = 0;
  int64_t overlap_ns = 0;
  int64_t memory_ns = 0;

  int64_t span() const { return end - start; }
  // Percentages of the span; 0 for an empty span (never NaN).
  double idlePct() const;
  double computePct() const;
  double nonComputePct() const;
  bool hasCommunication() const { return communication_ns > 0; }
  // overlap / communication; only meaningful when hasCommunication().
  double overlapPct() const;
  bool operator==(const BreakdownFigures&) const = default;
};

struct TemporalBreakdownOptions {};

struct TemporalBreakdownReport {
  bool valid = false;  // false: no GPU work in the window
  BreakdownFigures window;
  std::vector<BreakdownFigures> steps;  // one per StepReport step
};

TemporalBreakdownReport computeTemporalBreakdown(const AnalysisInput& input,
                                                 const StepReport& steps,
                                                 const WindowReport& window,
                                                 const TemporalBreakdownOptions& options);

}  // namespace damscope
