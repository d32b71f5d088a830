// Analysis results -> analysis table rows: see analysis_rows.h.
#include "analyzer/report/analysis_rows.h"

#include <cmath>

namespace damscope {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string_view tableOf(GpuOpKind kind) {
  switch (kind) {
    case GpuOpKind::kKernel:
      return "kernels";
    case GpuOpKind::kMemcpy:
      return "memcpys";
    case GpuOpKind::kMemset:
      return "memsets";
    case GpuOpKind::kSync:
      return "syncs";
  }
  return "";
}

BreakdownTable::Row breakdownRow(const BreakdownFigures& f, int64_t step_id) {
  BreakdownTable::Row r;
  r.step_id = step_id;
  r.ts = f.start;
  r.dur = f.span();
  r.idle_ns = f.idle_ns;
  r.compute_ns = f.compute_ns;
  r.non_compute_ns = f.non_compute_ns;
  r.communication_ns = f.communication_ns;
  r.exposed_communication_ns = f.exposed_communication_ns;
  r.overlap_ns = f.overlap_ns;
  r.memory_ns = f.memory_ns;
  r.idle_pct = f.idlePct();
  r.compute_pct = f.computePct();
  r.non_compute_pct = f.nonComputePct();
  r.overlap_pct = f.hasCommunication() ? f.overlapPct() : kNaN;
  return r;
}

void addScorecard(AnalysisTables& t, const Scorecard& card, int64_t step_id) {
  for (size_t a = 0; a < kAxisCount; ++a) {
    ScorecardTable::Row r;
    r.step_id = step_id;
    r.axis = std::string(toText(static_cast<Axis>(a)));
    r.ns = card.ns[a];
    r.pct = card.pct(static_cast<Axis>(a));
    r.verdict = std::string(toText(card.verdict));
    t.scorecard.append(r);
  }
}

void addDistribution(AnalysisTables& t, const char* metric, const Distribution& d, int32_t device,
                     int64_t stream) {
  if (d.count == 0) return;
  LaunchStatTable::Row r;
  r.metric = metric;
  r.device = device;
  r.stream = stream;
  r.count = d.count;
  r.mean = d.mean, r.p50 = d.p50, r.p90 = d.p90, r.p99 = d.p99, r.max = d.max;
  t.launch_stats.append(r);
}

}  // namespace

AnalysisTables toAnalysisTables(const RankAnalysis& a, const RunAnalysis* run,
                                const AnalysisOptions& options) {
  AnalysisTables t;
  const TraceTables& tables = *a.tables;
  const std::vector<GpuOp>& gpu = a.input->gpu();

  for (size_t i = 0; i < a.steps.steps.size(); ++i) {
    const Step& s = a.steps.steps[i];
    StepResultTable::Row r;
    r.number = s.number;
    r.name = std::string(tables.strings.get(s.name));
    r.source = std::string(toText(a.steps.source));
    r.range_id = s.range_id;
    r.host_ts = s.host_start;
    r.host_dur = s.host_end - s.host_start;
    r.ts = s.start;
    r.dur = s.duration();
    r.in_window = a.window.stepInWindow(i) ? 1 : 0;
    r.complete = s.complete ? 1 : 0;
    r.gpu_launches = s.gpu_launches;
    const double seconds = static_cast<double>(s.duration()) * 1e-9;
    r.tokens = a.steps.tokens_per_step;
    r.samples = a.steps.samples_per_step;
    r.tokens_per_s = seconds > 0 ? a.steps.tokens_per_step / seconds : kNaN;
    r.samples_per_s = seconds > 0 ? a.steps.samples_per_step / seconds : kNaN;
    t.steps.append(r);
  }

  if (a.breakdown.valid) {
    t.breakdown.append(breakdownRow(a.breakdown.window, kNullInt));
    for (size_t i = 0; i < a.breakdown.steps.size(); ++i) {
      t.breakdown.append(breakdownRow(a.breakdown.steps[i], static_cast<int64_t>(i)));
    }
  }

  t.gaps.reserve(a.gaps.gaps.size());
  for (const Gap& g : a.gaps.gaps) {
    GapTable::Row r;
    r.ts = g.start;
    r.dur = g.duration();
    r.device = g.device;
    r.stream = g.stream;
    r.step_id = g.step >= 0 ? g.step : kNullInt;
    r.cause = std::string(toText(g.cause));
    r.data_loading_ns = g.by_cause[static_cast<size_t>(GapCause::kDataLoading)];
    r.host_launch_ns = g.by_cause[static_cast<size_t>(GapCause::kHostLaunch)];
    r.synchronization_ns = g.by_cause[static_cast<size_t>(GapCause::kSynchronization)];
    r.communication_wait_ns = g.by_cause[static_cast<size_t>(GapCause::kCommunicationWait)];
    r.other_ns = g.by_cause[static_cast<size_t>(GapCause::kOther)];
    r.hta_category = std::string(toText(g.hta));
    if (g.next_op >= 0) {
      const GpuOp& next = gpu[static_cast<size_t>(g.next_op)];
      r.next_table = std::string(tableOf(next.kind));
      r.next_id = next.row;
      r.launch_call_id = next.launch >= 0 ? next.launch : kNullInt;
    }
    r.evidence_table = std::string(toText(g.evidence_table));
    r.evidence_id = g.evidence_row >= 0 ? g.evidence_row : kNullInt;
    t.gaps.append(r);
  }

  for (const CategoryTime& c : a.kernels.categories) {
    t.kernel_categories.append({std::string(toText(c.category)),
                                std::string(toText(boundOf(c.category))), c.kernels, c.total_ns,
                                c.pct});
  }
  for (const TopKernel& k : a.kernels.top) {
    t.top_kernels.append({std::string(tables.strings.get(k.name)), std::string(toText(k.category)),
                          k.kernels, k.total_ns, k.meanNs(), k.min_ns, k.max_ns, k.pct,
                          k.longest_row});
  }

  addDistribution(t, "launch_delay_ns", a.launches.launch_delay_ns, kNullInt32, kNullInt);
  addDistribution(t, "launch_cost_ns", a.launches.launch_cost_ns, kNullInt32, kNullInt);
  addDistribution(t, "kernel_duration_ns", a.launches.kernel_duration_ns, kNullInt32, kNullInt);
  for (const QueueDepth& q : a.launches.queues) {
    addDistribution(t, "queue_depth", q.depth, q.device, q.stream);
    Distribution empty;
    empty.count = q.operations;
    empty.mean = empty.p50 = empty.p90 = empty.p99 = empty.max = q.empty_pct;
    addDistribution(t, "queue_empty_pct", empty, q.device, q.stream);
  }

  if (a.scorecard.valid) {
    for (size_t i = 0; i < a.scorecard.steps.size(); ++i) {
      addScorecard(t, a.scorecard.steps[i], static_cast<int64_t>(i));
    }
    addScorecard(t, a.scorecard.run, kNullInt);
  }

  for (const Finding& f : a.findings.findings) {
    t.findings.append({f.rule, std::string(toText(f.severity)), f.title, f.metric, f.value,
                       f.threshold, f.recommendation, f.max_gain_pct, f.evidence.json()});
  }

  // Headline figures.
  t.setText("verdict",
            std::string(toText(a.scorecard.valid ? a.scorecard.run.verdict : Verdict::kNone)));
  t.setText("window_mode", std::string(toText(a.window.mode)));
  t.setText("step_source", std::string(toText(a.steps.source)));
  t.setValue("steps", static_cast<double>(a.steps.steps.size()));
  t.setValue("steps_analysed", static_cast<double>(a.window.step_count));
  if (a.window.hasGpuWork()) {
    t.setValue("window_start_ns", static_cast<double>(a.window.gpu_start));
    t.setValue("window_end_ns", static_cast<double>(a.window.gpu_end));
  }
  if (a.breakdown.valid) {
    const BreakdownFigures& w = a.breakdown.window;
    t.setValue("window_us", static_cast<double>(w.span()) / 1e3);
    t.setValue("idle_pct", w.idlePct());
    t.setValue("compute_pct", w.computePct());
    t.setValue("non_compute_pct", w.nonComputePct());
    t.setValue("overlap_pct", w.hasCommunication() ? w.overlapPct() : kNaN);
  }
  if (const DeviceUtilization* u = a.utilization.primaryDevice()) {
    t.setValue("device", u->device);
    t.setValue("gpu_util_pct", u->gpu_util_pct);
    t.setValue("sm_efficiency_pct", u->sm_efficiency_pct);
    t.setValue("occupancy_pct", u->occupancy_pct);
  }
  if (!a.overview.steps.empty()) {
    t.setValue("avg_step_us", a.overview.avg_step_ns / 1e3);
    for (size_t r = 0; r < kOverviewRoleCount; ++r) {
      t.setValue(std::string("avg_") + std::string(toText(static_cast<OverviewRole>(r))) + "_us",
                 a.overview.avg_ns[r] / 1e3);
    }
  }
  for (const auto& [metric, value] : a.findings.metrics) t.setValue("metric." + metric, value);
  t.setValue("starved_threshold_pct", options.scorecard.starved_pct);

  for (const AnalysisNote& n : a.notes) t.notes.append({n.analysis, n.message});

  if (run && run->ranks.size() > 1) {
    for (const RankComparison& c : run->cross_rank.ranks) {
      t.rank_comparison.append({c.rank, c.source, c.steps, c.median_step_ns,
                                c.slower_than_median_pct, c.straggler ? 1 : 0, c.collectives,
                                c.median_start_skew_ns, c.max_start_skew_ns, c.last_to_start_pct});
    }
  }
  return t;
}

}  // namespace damscope
