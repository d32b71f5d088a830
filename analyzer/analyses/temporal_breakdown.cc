// Temporal breakdown: see temporal_breakdown.h.
#include "analyzer/analyses/temporal_breakdown.h"

#include "analyzer/analyses/intervals.h"

namespace damscope {
namespace {

double percent(int64_t part, int64_t whole) {
  return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

// Merged interval lists of one set of GPU ops.
struct Unions {
  Intervals all, compute, communication, memory;

  void add(const GpuOp& op) {
    const Interval i{op.ts, op.end};
    all.push_back(i);
    if (op.kind == GpuOpKind::kKernel) {
      (op.work == GpuWork::kCommunication ? communication : compute).push_back(i);
    } else if (op.kind == GpuOpKind::kMemcpy || op.kind == GpuOpKind::kMemset) {
      memory.push_back(i);
    }
  }
  void merge() {
    mergeIntervals(all), mergeIntervals(compute), mergeIntervals(communication);
    mergeIntervals(memory);
  }
};

BreakdownFigures figures(const Unions& u, int64_t start, int64_t end, bool clip) {
  BreakdownFigures f;
  f.start = start;
  f.end = end;
  auto length = [&](const Intervals& v) {
    return clip ? totalLength(clipIntervals(v, start, end)) : totalLength(v);
  };
  const Intervals compute = clip ? clipIntervals(u.compute, start, end) : u.compute;
  const Intervals communication =
      clip ? clipIntervals(u.communication, start, end) : u.communication;
  const int64_t busy = length(u.all);
  f.idle_ns = f.span() - busy;
  f.compute_ns = totalLength(compute);
  f.non_compute_ns = f.span() - f.compute_ns - f.idle_ns;
  f.communication_ns = totalLength(communication);
  f.overlap_ns = totalLength(intersectIntervals(compute, communication));
  f.exposed_communication_ns = f.communication_ns - f.overlap_ns;
  f.memory_ns = length(u.memory);
  return f;
}

}  // namespace

double BreakdownFigures::idlePct() const {
  return percent(idle_ns, span());
}
double BreakdownFigures::computePct() const {
  return percent(compute_ns, span());
}
double BreakdownFigures::nonComputePct() const {
  return percent(non_compute_ns, span());
}
double BreakdownFigures::overlapPct() const {
  return percent(overlap_ns, communication_ns);
}

Result<TemporalBreakdownReport> computeTemporalBreakdown(const AnalysisInput& input,
                                                         const StepReport& steps,
                                                         const WindowReport& window,
                                                         const TemporalBreakdownOptions&) {
  TemporalBreakdownReport report;
  const std::vector<GpuOp>& gpu = input.gpu();
  if (!window.hasGpuWork()) return report;
  report.valid = true;

  Unions in_window, everything;
  for (size_t i = 0; i < gpu.size(); ++i) {
    everything.add(gpu[i]);
    if (window.in_window[i]) in_window.add(gpu[i]);
  }
  in_window.merge();
  everything.merge();
  report.window = figures(in_window, window.gpu_start, window.gpu_end, false);

  report.steps.reserve(steps.steps.size());
  for (const Step& step : steps.steps) {
    report.steps.push_back(figures(everything, step.start, step.end, true));
  }
  return report;
}

}  // namespace damscope
