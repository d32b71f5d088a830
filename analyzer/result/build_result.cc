// The analyses' reports -> the result model: see analysis_result.h. The one
// place that resolves what the reports hold as row indexes and string ids
// (step names, kernel names, the GPU operation that ended a gap, the device's
// name) while the event tables are still loaded.
#include <cmath>

#include "analyzer/result/analysis_result.h"

namespace damscope {
namespace {

std::optional<double> known(double v) {
  return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

std::optional<int64_t> row(int64_t v) {
  return v >= 0 ? std::optional<int64_t>(v) : std::nullopt;
}

std::optional<int64_t> notNull(int64_t v) {
  return isNull(v) ? std::nullopt : std::optional<int64_t>(v);
}

WindowResult windowResult(const RankAnalysis& a) {
  const WindowReport& w = a.window;
  WindowResult r;
  r.mode = w.mode;
  r.cut = w.cut;
  r.cutoff_ns = notNull(w.cutoff_ns);
  r.gpu_ops = w.gpu_ops;
  r.gpu_start_ns = notNull(w.gpu_start);
  r.gpu_end_ns = notNull(w.gpu_end);
  r.start_ns = notNull(w.start);
  r.end_ns = notNull(w.end);
  r.first_step = static_cast<int64_t>(w.first_step);
  r.step_count = static_cast<int64_t>(w.step_count);
  if (w.step_count > 0) {
    double total = 0;
    for (size_t i = w.first_step; i < w.first_step + w.step_count; ++i) {
      total += static_cast<double>(a.steps.steps[i].duration());
    }
    r.avg_step_ns = total / static_cast<double>(w.step_count);
  }
  return r;
}

std::vector<StepResult> stepResults(const RankAnalysis& a) {
  const StepReport& report = a.steps;
  std::vector<StepResult> out;
  for (size_t i = 0; i < report.steps.size(); ++i) {
    const Step& s = report.steps[i];
    StepResult r;
    r.number = s.number;
    r.name = std::string(a.tables->strings.get(s.name));
    r.range_id = row(s.range_id);
    r.host_ts = s.host_start;
    r.host_dur = s.host_end - s.host_start;
    r.ts = s.start;
    r.dur = s.duration();
    r.in_window = a.window.stepInWindow(i);
    r.complete = s.complete;
    r.gpu_launches = s.gpu_launches;
    const double seconds = static_cast<double>(s.duration()) * 1e-9;
    if (seconds > 0) {
      r.tokens_per_s = known(report.tokens_per_step / seconds);
      r.samples_per_s = known(report.samples_per_step / seconds);
    }
    out.push_back(std::move(r));
  }
  for (const StepCriticalPath& p : a.critical_paths) out[p.step].critical_path = p.path;
  return out;
}

std::vector<GapResult> gapResults(const RankAnalysis& a) {
  const std::vector<GpuOp>& gpu = a.input->gpu();
  std::vector<GapResult> out;
  out.reserve(a.gaps.gaps.size());
  for (const Gap& g : a.gaps.gaps) {
    GapResult r;
    r.ts = g.start;
    r.dur = g.duration();
    r.device = g.device;
    r.stream = notNull(g.stream);
    r.step_id = row(g.step);
    r.in_window = g.in_window;
    r.cause = g.cause;
    r.by_cause = g.by_cause;
    r.hta = g.hta;
    if (g.next_op >= 0) {
      const GpuOp& next = gpu[static_cast<size_t>(g.next_op)];
      r.next_kind = next.kind;
      r.next_id = next.row;
      r.launch_call_id = row(next.launch);
    }
    r.evidence_table = g.evidence_table;
    r.evidence_id = row(g.evidence_row);
    out.push_back(r);
  }
  return out;
}

KernelsResult kernelsResult(const RankAnalysis& a) {
  const KernelBreakdownReport& k = a.kernels;
  KernelsResult r;
  r.kernels = k.kernels;
  r.total_ns = k.total_ns;
  r.categories = k.categories;
  for (const TopKernel& t : k.top) {
    r.top.push_back({std::string(a.tables->strings.get(t.name)), t.category, t.kernels, t.total_ns,
                     t.meanNs(), t.min_ns, t.max_ns, t.pct, row(t.longest_row)});
  }
  r.fp32_matrix_ns = k.fp32_matrix_ns;
  r.tensor_core_ns = k.tensor_core_ns;
  r.matrix_ns = k.matrix_ns;
  return r;
}

OverviewResult overviewResult(const ProfilerOverviewReport& o) {
  OverviewResult r;
  r.steps = static_cast<int64_t>(o.steps.size());
  r.whole_span = o.whole_span;
  if (!o.steps.empty()) {
    r.avg_step_ns = o.avg_step_ns;
    r.avg_ns = o.avg_ns;
  }
  return r;
}

}  // namespace

double OverviewResult::avgPct(OverviewRole role) const {
  return avg_step_ns && *avg_step_ns > 0 ? 100.0 * avg_ns[static_cast<size_t>(role)] / *avg_step_ns
                                         : 0.0;
}

RankResult buildRankResult(const RankAnalysis& a, const std::string& source,
                           const AnalysisOptions& options) {
  const TraceTables& t = *a.tables;
  RankResult r;
  r.source = source;
  for (size_t i = 0; i < t.processes.size(); ++i) {
    const int32_t rank = t.processes.rank[i];
    if (!isNull(rank) && rank >= 0) {
      r.rank = rank;
      const int32_t world = t.processes.world_size[i];
      if (!isNull(world) && world > 0) r.world_size = world;
      break;
    }
  }
  r.framework = a.framework.framework;
  if (const DeviceUtilization* u = a.utilization.primaryDevice()) {
    r.device = u->device;
    if (a.input->cpuRun()) r.device_kind = DeviceKind::kCpu;
    for (size_t i = 0; i < t.devices.size(); ++i) {
      if (t.devices.device[i] == u->device && t.devices.name[i].valid()) {
        r.device_name = std::string(t.strings.get(t.devices.name[i]));
        break;
      }
    }
  }
  r.window = windowResult(a);
  r.step_source = a.steps.source;
  r.tokens_per_step = known(a.steps.tokens_per_step);
  r.samples_per_step = known(a.steps.samples_per_step);
  r.throughput_source = a.steps.throughput_source;
  r.steps = stepResults(a);
  if (a.breakdown.valid) r.breakdown = BreakdownResult{a.breakdown.window, a.breakdown.steps};
  r.gaps = gapResults(a);
  r.kernels = kernelsResult(a);
  r.launches = a.launches;
  r.utilization = {a.utilization.devices, a.utilization.primary,
                   static_cast<int64_t>(a.utilization.steps_used)};
  r.overview = overviewResult(a.overview);
  r.starved_threshold_pct = options.scorecard.starved_pct;
  if (a.scorecard.valid) {
    r.scorecard = ScorecardResult{a.scorecard.device, a.scorecard.run, a.scorecard.steps};
  }
  r.mfu = a.mfu;
  r.roofline = a.roofline;
  r.top_ops = a.ops.rows;
  r.memory = a.memory;
  r.findings = a.findings;
  r.data_loss = a.loss;
  r.verdict_may_be_off = a.loss.lostPct() >= options.loss.verdict_warning_pct;
  r.notes = a.notes;
  CollectiveNames names;  // this rank's: ids in the order of first start
  r.collective_starts = collectiveStarts(a, names);
  r.collective_names.resize(names.size());
  for (auto& [name, id] : names) r.collective_names[static_cast<size_t>(id)] = name;
  return r;
}

}  // namespace damscope
