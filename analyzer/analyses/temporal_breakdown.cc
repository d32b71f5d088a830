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
  // Clipped copies only for a step (small); the window uses the lists as they are.
  Intervals compute_clip, communication_clip;
  const Intervals* compute = &u.compute;
  const Intervals* communication = &u.communication;
  if (clip) {
    compute_clip = clipIntervals(u.compute, start, end);
    communication_clip = clipIntervals(u.communication, start, end);
    compute = &compute_clip, communication = &communication_clip;
  }
  auto length = [&](const Intervals& v) {
    return clip ? totalLength(clipIntervals(v, start, end)) : totalLength(v);
  };
  f.idle_ns = f.span() - length(u.all);
  f.compute_ns = totalLength(*compute);
  f.non_compute_ns = f.span() - f.compute_ns - f.idle_ns;
  f.communication_ns = totalLength(*communication);
  f.overlap_ns = totalLength(intersectIntervals(*compute, *communication));
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

TemporalBreakdownReport computeTemporalBreakdown(const AnalysisInput& input,
                                                 const StepReport& steps,
                                                 const WindowReport& window,
                                                 const TemporalBreakdownOptions&) {
  TemporalBreakdownReport report;
  const std::vector<GpuOp>& gpu = input.gpu();
  if (!window.hasGpuWork()) return report;
  report.valid = true;

  // The window's operations, and every operation for the steps. The second
  // set is built only when the window left something out.
  const bool whole = window.gpu_ops == static_cast<int64_t>(gpu.size());
  Unions in_window;
  for (size_t i = 0; i < gpu.size(); ++i) {
    if (window.in_window[i]) in_window.add(gpu[i]);
  }
  in_window.merge();
  report.window = figures(in_window, window.gpu_start, window.gpu_end, false);
  Unions everything;
  if (!whole) {
    for (const GpuOp& op : gpu) everything.add(op);
    everything.merge();
  }
  const Unions& all_ops = whole ? in_window : everything;
  report.steps.reserve(steps.steps.size());
  for (const Step& step : steps.steps) {
    report.steps.push_back(figures(all_ops, step.start, step.end, true));
  }
  return report;
}

}  // namespace damscope
