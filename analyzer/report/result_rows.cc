// The result model <-> the analysis tables' rows: see result_rows.h.
#include "analyzer/report/result_rows.h"

#include <unordered_map>

#include <string_view>

namespace damscope {
namespace {

template <typename T>
T orNull(const std::optional<T>& v) {
  return v ? *v : nullValue<T>();
}

template <typename T>
std::optional<T> known(T v) {
  return isNull(v) ? std::nullopt : std::optional<T>(v);
}

// The table a GPU operation's row is in.
std::string_view tableName(GpuOpKind kind) {
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
  return "kernels";
}
constexpr size_t kGpuOpKindCount = 4;

// Sizes of the closed vocabularies read back by name (their toText lists).
template <typename E>
constexpr size_t vocabularySize() {
  if constexpr (std::is_same_v<E, GapCause>) return kGapCauseCount;
  if constexpr (std::is_same_v<E, HtaIdleCategory>) return kHtaIdleCategoryCount;
  if constexpr (std::is_same_v<E, EvidenceTable>) return kEvidenceTableCount;
  if constexpr (std::is_same_v<E, KernelCategory>) return kKernelCategoryCount;
  if constexpr (std::is_same_v<E, Axis>) return kAxisCount;
  if constexpr (std::is_same_v<E, Verdict>) return kVerdictCount;
  if constexpr (std::is_same_v<E, Severity>) return kSeverityCount;
  if constexpr (std::is_same_v<E, FindingKind>) return kFindingKindCount;
  if constexpr (std::is_same_v<E, Metric>) return kMetricCount;
  if constexpr (std::is_same_v<E, EvidenceSource>) return kEvidenceSourceCount;
  if constexpr (std::is_same_v<E, LossKind>) return kLossKindCount;
  if constexpr (std::is_same_v<E, WindowMode>) return kWindowModeCount;
  if constexpr (std::is_same_v<E, StepSource>) return kStepSourceCount;
  if constexpr (std::is_same_v<E, FlopsSource>) return kFlopsSourceCount;
  if constexpr (std::is_same_v<E, PrecisionSource>) return kPrecisionSourceCount;
  if constexpr (std::is_same_v<E, PeakSource>) return kPeakSourceCount;
  if constexpr (std::is_same_v<E, Precision>) return kPrecisionCount;
  if constexpr (std::is_same_v<E, MetricSource>) return 3;
  if constexpr (std::is_same_v<E, Remedy>) return kRemedyCount;
  if constexpr (std::is_same_v<E, DeviceKind>) return 2;
}

// --- Writing -----------------------------------------------------------------

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
  r.overlap_pct = f.hasCommunication() ? f.overlapPct() : nullValue<double>();
  return r;
}

// The scorecard columns of each axis, in Axis order.
template <typename Row>
auto axisNs(Row& r) {
  return std::array{
      &r.data_stall_ns,   &r.host_stall_ns,    &r.sync_stall_ns, &r.exposed_communication_ns,
      &r.memory_bound_ns, &r.compute_bound_ns, &r.other_idle_ns};
}
template <typename Row>
auto axisPct(Row& r) {
  return std::array{
      &r.data_stall_pct,   &r.host_stall_pct,    &r.sync_stall_pct, &r.exposed_communication_pct,
      &r.memory_bound_pct, &r.compute_bound_pct, &r.other_idle_pct};
}

ScorecardTable::Row scorecardRow(const Scorecard& card, int64_t step_id) {
  ScorecardTable::Row r;
  r.step_id = step_id;
  r.ts = card.start;
  r.dur = card.end - card.start;
  r.verdict = std::string(toText(card.verdict));
  r.deciding_axis = std::string(toText(card.deciding_axis));
  for (size_t a = 0; a < kAxisCount; ++a) {
    *axisNs(r)[a] = card.ns[a];
    *axisPct(r)[a] = card.pct(static_cast<Axis>(a));
  }
  return r;
}

// The gap cause columns, in GapCause order.
template <typename Row>
auto causeNs(Row& r) {
  return std::array{&r.data_loading_ns, &r.host_launch_ns, &r.synchronization_ns,
                    &r.communication_wait_ns, &r.other_ns};
}

void writeSummary(const RankResult& r, AnalysisTables& t) {
  SummaryTable::Row s;
  s.source = r.source;
  s.rank = orNull(r.rank);
  s.world_size = orNull(r.world_size);
  s.device = orNull(r.device);
  s.device_name = r.device_name;
  s.device_kind = std::string(toText(r.device_kind));
  s.verdict = std::string(toText(r.verdict()));
  s.verdict_may_be_off = r.verdict_may_be_off ? 1 : 0;
  s.starved_threshold_pct = r.starved_threshold_pct;
  s.scorecard_device = r.scorecard ? r.scorecard->device : kNullInt32;
  const WindowResult& w = r.window;
  s.window_mode = std::string(toText(w.mode));
  s.window_cut = w.cut ? 1 : 0;
  s.window_cutoff_ns = orNull(w.cutoff_ns);
  s.window_gpu_ops = w.gpu_ops;
  s.window_gpu_start_ns = orNull(w.gpu_start_ns);
  s.window_gpu_end_ns = orNull(w.gpu_end_ns);
  s.window_start_ns = orNull(w.start_ns);
  s.window_end_ns = orNull(w.end_ns);
  s.first_step = w.first_step;
  s.steps_analysed = w.step_count;
  s.avg_step_ns = orNull(w.avg_step_ns);
  s.step_source = std::string(toText(r.step_source));
  s.tokens_per_step = orNull(r.tokens_per_step);
  s.samples_per_step = orNull(r.samples_per_step);
  s.throughput_source = r.throughput_source;
  const KernelsResult& k = r.kernels;
  s.kernels = k.kernels;
  s.kernel_ns = k.total_ns;
  s.fp32_matrix_ns = k.fp32_matrix_ns;
  s.tensor_core_ns = k.tensor_core_ns;
  s.matrix_ns = k.matrix_ns;
  const LaunchStatisticsReport& l = r.launches;
  s.launched_kernels = l.kernels;
  s.kernels_with_launch = l.kernels_with_launch;
  s.shorter_than_launch = l.shorter_than_launch;
  s.shorter_than_threshold = l.shorter_than_threshold;
  s.runtime_outliers = l.runtime_outliers;
  s.launch_delay_outliers = l.launch_delay_outliers;
  s.utilization_steps = r.utilization.steps_used;
  const OverviewResult& o = r.overview;
  s.overview_steps = o.steps;
  s.overview_whole_span = o.whole_span ? 1 : 0;
  s.overview_avg_step_ns = orNull(o.avg_step_ns);
  const std::array roles = {&s.overview_kernel_ns,     &s.overview_memcpy_ns,
                            &s.overview_memset_ns,     &s.overview_runtime_ns,
                            &s.overview_dataloader_ns, &s.overview_cpu_exec_ns,
                            &s.overview_other_ns};
  for (size_t i = 0; i < kOverviewRoleCount; ++i) *roles[i] = o.avg_ns[i];
  s.events = r.data_loss.events;
  s.lost_events = r.data_loss.lost;
  s.repaired_events = r.data_loss.repaired;
  s.clipped_events = r.data_loss.clipped;
  const MfuReport& m = r.mfu;
  s.mfu_flops_source = std::string(toText(m.flops_source));
  if (m.model) {
    s.model = m.model->name;
    s.model_params = m.model->params;
    s.model_layers = orNull(m.model->layers), s.model_d_model = orNull(m.model->d_model);
    s.model_heads = orNull(m.model->heads), s.model_seq_len = orNull(m.model->seq_len);
    s.model_vocab = orNull(m.model->vocab);
  }
  s.flops_per_token = orNull(m.flops_per_token);
  s.precision = std::string(toText(m.precision.precision));
  s.precision_source = std::string(toText(m.precision.source));
  s.precision_share_pct = orNull(m.precision.share_pct);
  s.peak_source = std::string(toText(m.peak_source));
  s.peak_device = m.peak_device;
  s.peak_flops_per_s = orNull(m.peak_flops_per_s);
  s.bandwidth_bytes_per_s = orNull(r.roofline.bandwidth_bytes_per_s);
  s.model_flops_per_step = orNull(m.model_flops_per_step);
  s.achieved_flops_per_s = orNull(m.achieved_flops_per_s);
  s.mfu_pct = orNull(m.mfu_pct);
  s.mfu_impossible_pct = orNull(m.impossible_pct);
  s.mfu_likely_wrong = m.likely_wrong;
  s.hardware_flops_per_step = orNull(m.hardware_flops_per_step);
  s.hfu_pct = orNull(m.hfu_pct);
  s.roofline_kernels = r.roofline.kernels_with_work;
  s.roofline_time_pct = r.roofline.time_with_work_pct;
  s.measured_kernels = r.roofline.kernels_by_source[0];
  s.annotated_kernels = r.roofline.kernels_by_source[1];
  s.estimated_kernels = r.roofline.kernels_by_source[2];
  s.memory_estimated = r.memory ? 1 : 0;
  if (const auto& e = r.memory) {
    s.memory_state_bytes = e->state_bytes;
    s.memory_activation_bytes = orNull(e->activation_bytes);
    s.memory_total_bytes = e->total_bytes;
    s.memory_device_bytes = orNull(e->device_bytes);
    s.memory_pct = orNull(e->pct_of_device);
    s.memory_micro_batch = e->micro_batch;
    s.memory_micro_batch_from_tokens = e->micro_batch_from_tokens ? 1 : 0;
    s.memory_ranks = e->ranks;
    s.memory_zero1_bytes = e->zero_state_bytes[0];
    s.memory_zero2_bytes = e->zero_state_bytes[1];
    s.memory_zero3_bytes = e->zero_state_bytes[2];
  }
  t.summary.append(s);
}

RooflineTable::Row rooflineRow(const char* kind, const RooflinePoint& p) {
  RooflineTable::Row row;
  row.kind = kind;
  row.name = p.name;
  row.category = std::string(toText(p.category));
  row.precision = std::string(toText(p.precision));
  row.source = std::string(toText(p.source));
  row.kernels = p.kernels;
  row.time_ns = p.time_ns;
  row.flops = p.flops;
  row.bytes = orNull(p.bytes);
  row.intensity = orNull(p.intensity);
  row.achieved_flops_per_s = p.achieved_flops_per_s;
  row.ceiling_flops_per_s = orNull(p.ceiling_flops_per_s);
  row.pct_of_ceiling = orNull(p.pct_of_ceiling);
  row.memory_bound = p.memory_bound ? (*p.memory_bound ? 1 : 0) : kNullInt32;
  row.example_kernel_id = orNull(p.example_kernel_id);
  return row;
}

// --- Reading -------------------------------------------------------------------

// Reads rows back, keeping the first thing that is wrong with them.
class RowReader {
 public:
  explicit RowReader(std::string store) : store_(std::move(store)) {}

  void fail(std::string_view table, size_t row, const std::string& what) {
    if (!error_) {
      error_ = Error(store_ + ": stored analysis is corrupt: " + std::string(table) + " row " +
                     std::to_string(row) + ": " + what);
    }
  }
  bool failed() const { return error_.has_value(); }
  const Error& error() const { return *error_; }

  // A closed vocabulary's value from its stored name.
  template <typename E>
  E word(std::string_view table, size_t row, const char* column, const std::string& text) {
    for (size_t i = 0; i < vocabularySize<E>(); ++i) {
      if (toText(static_cast<E>(i)) == text) return static_cast<E>(i);
    }
    fail(table, row, std::string(column) + " \"" + text + "\" is not a known value");
    return E{};
  }

  // A row index into a table of `size` rows (or null, when allowed).
  std::optional<int64_t> index(std::string_view table, size_t row, const char* column, int64_t v,
                               size_t size) {
    if (isNull(v)) return std::nullopt;
    if (v < 0 || static_cast<uint64_t>(v) >= size) {
      fail(table, row, std::string(column) + " " + std::to_string(v) + " names no row");
      return std::nullopt;
    }
    return v;
  }

  // ts + dur, which a damaged file can make overflow.
  int64_t end(std::string_view table, size_t row, int64_t ts, int64_t dur) {
    int64_t out = 0;
    if (isNull(ts) || isNull(dur) || __builtin_add_overflow(ts, dur, &out)) {
      fail(table, row, "ts + dur is not a time");
      return 0;
    }
    return out;
  }

 private:
  std::string store_;
  std::optional<Error> error_;
};

void readSummary(const AnalysisTables& t, RowReader& in, RankResult& r) {
  if (t.summary.size() != 1) {
    in.fail("summary", 0, "expected one row, found " + std::to_string(t.summary.size()));
    return;
  }
  const SummaryTable::Row s = t.summary.row(0);
  const std::string_view table = "summary";
  r.source = s.source;
  r.rank = known(s.rank);
  r.world_size = known(s.world_size);
  r.device = known(s.device);
  r.device_name = s.device_name;
  r.device_kind = in.word<DeviceKind>(table, 0, "device_kind", s.device_kind);
  r.verdict_may_be_off = s.verdict_may_be_off != 0;
  r.starved_threshold_pct = s.starved_threshold_pct;
  WindowResult& w = r.window;
  w.mode = in.word<WindowMode>(table, 0, "window_mode", s.window_mode);
  w.cut = s.window_cut != 0;
  w.cutoff_ns = known(s.window_cutoff_ns);
  w.gpu_ops = s.window_gpu_ops;
  w.gpu_start_ns = known(s.window_gpu_start_ns);
  w.gpu_end_ns = known(s.window_gpu_end_ns);
  w.start_ns = known(s.window_start_ns);
  w.end_ns = known(s.window_end_ns);
  w.first_step = s.first_step;
  w.step_count = s.steps_analysed;
  w.avg_step_ns = known(s.avg_step_ns);
  r.step_source = in.word<StepSource>(table, 0, "step_source", s.step_source);
  r.tokens_per_step = known(s.tokens_per_step);
  r.samples_per_step = known(s.samples_per_step);
  r.throughput_source = s.throughput_source;
  KernelsResult& k = r.kernels;
  k.kernels = s.kernels;
  k.total_ns = s.kernel_ns;
  k.fp32_matrix_ns = s.fp32_matrix_ns;
  k.tensor_core_ns = s.tensor_core_ns;
  k.matrix_ns = s.matrix_ns;
  LaunchStatisticsReport& l = r.launches;
  l.kernels = s.launched_kernels;
  l.kernels_with_launch = s.kernels_with_launch;
  l.shorter_than_launch = s.shorter_than_launch;
  l.shorter_than_threshold = s.shorter_than_threshold;
  l.runtime_outliers = s.runtime_outliers;
  l.launch_delay_outliers = s.launch_delay_outliers;
  r.utilization.steps_used = s.utilization_steps;
  OverviewResult& o = r.overview;
  o.steps = s.overview_steps;
  o.whole_span = s.overview_whole_span != 0;
  o.avg_step_ns = known(s.overview_avg_step_ns);
  const std::array roles = {s.overview_kernel_ns,  s.overview_memcpy_ns,     s.overview_memset_ns,
                            s.overview_runtime_ns, s.overview_dataloader_ns, s.overview_cpu_exec_ns,
                            s.overview_other_ns};
  for (size_t i = 0; i < kOverviewRoleCount; ++i) o.avg_ns[i] = roles[i];
  r.data_loss.events = s.events;
  r.data_loss.lost = s.lost_events;
  r.data_loss.repaired = s.repaired_events;
  r.data_loss.clipped = s.clipped_events;
  MfuReport& m = r.mfu;
  m.flops_source = in.word<FlopsSource>(table, 0, "mfu_flops_source", s.mfu_flops_source);
  if (!std::isnan(s.model_params)) {
    m.model = ModelShape{s.model,
                         s.model_params,
                         known(s.model_layers),
                         known(s.model_d_model),
                         known(s.model_heads),
                         known(s.model_seq_len),
                         known(s.model_vocab)};
  }
  m.flops_per_token = known(s.flops_per_token);
  m.precision.precision = in.word<Precision>(table, 0, "precision", s.precision);
  m.precision.source = in.word<PrecisionSource>(table, 0, "precision_source", s.precision_source);
  m.precision.share_pct = known(s.precision_share_pct);
  m.peak_source = in.word<PeakSource>(table, 0, "peak_source", s.peak_source);
  m.peak_device = s.peak_device;
  m.peak_flops_per_s = known(s.peak_flops_per_s);
  m.model_flops_per_step = known(s.model_flops_per_step);
  m.achieved_flops_per_s = known(s.achieved_flops_per_s);
  m.mfu_pct = known(s.mfu_pct);
  m.impossible_pct = known(s.mfu_impossible_pct);
  m.likely_wrong = s.mfu_likely_wrong;
  m.hardware_flops_per_step = known(s.hardware_flops_per_step);
  m.hfu_pct = known(s.hfu_pct);
  r.roofline.kernels_with_work = s.roofline_kernels;
  r.roofline.time_with_work_pct = s.roofline_time_pct;
  r.roofline.kernels_by_source = {s.measured_kernels, s.annotated_kernels, s.estimated_kernels};
  r.roofline.bandwidth_bytes_per_s = known(s.bandwidth_bytes_per_s);
  if (s.memory_estimated != 0) {
    MemoryEstimate e;
    e.state_bytes = s.memory_state_bytes;
    e.activation_bytes = known(s.memory_activation_bytes);
    e.total_bytes = s.memory_total_bytes;
    e.device_bytes = known(s.memory_device_bytes);
    e.pct_of_device = known(s.memory_pct);
    e.micro_batch = s.memory_micro_batch;
    e.micro_batch_from_tokens = s.memory_micro_batch_from_tokens != 0;
    e.ranks = s.memory_ranks;
    e.zero_state_bytes = {s.memory_zero1_bytes, s.memory_zero2_bytes, s.memory_zero3_bytes};
    r.memory = e;
  }
}

void readSteps(const AnalysisTables& t, RankResult& r) {
  for (size_t i = 0; i < t.steps.size(); ++i) {
    const StepResultTable::Row s = t.steps.row(i);
    StepResult step;
    step.number = s.number;
    step.name = s.name;
    step.range_id = known(s.range_id);
    step.host_ts = s.host_ts;
    step.host_dur = s.host_dur;
    step.ts = s.ts;
    step.dur = s.dur;
    step.in_window = s.in_window != 0;
    step.complete = s.complete != 0;
    step.gpu_launches = s.gpu_launches;
    step.tokens_per_s = known(s.tokens_per_s);
    step.samples_per_s = known(s.samples_per_s);
    r.steps.push_back(std::move(step));
  }
}

// Per-step rows must come in step order after at most one run-wide row
// (step_id NULL); returns the run-wide row, if any.
template <typename Table, typename Read>
void readPerStep(const Table& table, size_t steps, RowReader& in, Read&& read) {
  size_t next_step = 0;
  for (size_t i = 0; i < table.size(); ++i) {
    const typename Table::Row row = table.row(i);
    if (isNull(row.step_id)) {
      read(row, i, std::optional<size_t>());
      continue;
    }
    if (row.step_id != static_cast<int64_t>(next_step) || next_step >= steps) {
      in.fail(Table::kSqlName, i, "step_id " + std::to_string(row.step_id) + " out of order");
      return;
    }
    read(row, i, std::optional<size_t>(next_step++));
  }
}

void readBreakdown(const AnalysisTables& t, RowReader& in, RankResult& r) {
  std::optional<BreakdownResult> out;
  bool steps_before_window = false;
  readPerStep(t.breakdown, r.steps.size(), in,
              [&](const BreakdownTable::Row& b, size_t i, std::optional<size_t> step) {
                BreakdownFigures f;
                f.start = b.ts;
                f.end = in.end("breakdown", i, b.ts, b.dur);
                f.idle_ns = b.idle_ns;
                f.compute_ns = b.compute_ns;
                f.non_compute_ns = b.non_compute_ns;
                f.communication_ns = b.communication_ns;
                f.exposed_communication_ns = b.exposed_communication_ns;
                f.overlap_ns = b.overlap_ns;
                f.memory_ns = b.memory_ns;
                if (!step) {
                  if (out) in.fail("breakdown", i, "a second row for the window");
                  out.emplace().window = f;
                } else if (!out) {
                  steps_before_window = true;
                } else {
                  out->steps.push_back(f);
                }
              });
  if (steps_before_window) in.fail("breakdown", 0, "per-step rows without the window's row");
  r.breakdown = std::move(out);
}

void readScorecard(const AnalysisTables& t, RowReader& in, RankResult& r, int32_t device) {
  std::vector<Scorecard> steps;
  std::optional<Scorecard> run;
  readPerStep(t.scorecard, r.steps.size(), in,
              [&](const ScorecardTable::Row& c, size_t i, std::optional<size_t> step) {
                Scorecard card;
                card.start = c.ts;
                card.end = in.end("scorecard", i, c.ts, c.dur);
                card.verdict = in.word<Verdict>("scorecard", i, "verdict", c.verdict);
                card.deciding_axis =
                    in.word<Axis>("scorecard", i, "deciding_axis", c.deciding_axis);
                ScorecardTable::Row copy = c;
                for (size_t a = 0; a < kAxisCount; ++a) card.ns[a] = *axisNs(copy)[a];
                if (step) {
                  steps.push_back(card);
                } else if (run) {
                  in.fail("scorecard", i, "a second row for the run");
                } else {
                  run = card;
                }
              });
  if (run) {
    r.scorecard = ScorecardResult{device, *run, std::move(steps)};
  } else if (!steps.empty()) {
    in.fail("scorecard", 0, "per-step rows without the run's row");
  }
}

void readGaps(const AnalysisTables& t, RowReader& in, RankResult& r) {
  r.gaps.reserve(t.gaps.size());
  for (size_t i = 0; i < t.gaps.size(); ++i) {
    const GapTable::Row g = t.gaps.row(i);
    GapResult gap;
    gap.ts = g.ts;
    gap.dur = g.dur;
    gap.device = g.device;
    gap.stream = known(g.stream);
    gap.step_id = in.index("gaps", i, "step_id", g.step_id, r.steps.size());
    gap.in_window = g.in_window != 0;
    gap.cause = in.word<GapCause>("gaps", i, "cause", g.cause);
    GapTable::Row copy = g;
    for (size_t c = 0; c < kGapCauseCount; ++c) gap.by_cause[c] = *causeNs(copy)[c];
    gap.hta = in.word<HtaIdleCategory>("gaps", i, "hta_category", g.hta_category);
    if (!g.next_table.empty()) {
      bool found = false;
      for (size_t k = 0; k < kGpuOpKindCount; ++k) {
        if (tableName(static_cast<GpuOpKind>(k)) == g.next_table) {
          gap.next_kind = static_cast<GpuOpKind>(k);
          found = true;
        }
      }
      if (!found) in.fail("gaps", i, "next_table \"" + g.next_table + "\" is not a known value");
    }
    gap.next_id = known(g.next_id);
    gap.launch_call_id = known(g.launch_call_id);
    gap.evidence_table = in.word<EvidenceTable>("gaps", i, "evidence_table", g.evidence_table);
    gap.evidence_id = known(g.evidence_id);
    r.gaps.push_back(std::move(gap));
  }
}

void readKernels(const AnalysisTables& t, RowReader& in, RankResult& r) {
  for (size_t i = 0; i < t.kernel_categories.size(); ++i) {
    const KernelCategoryTable::Row c = t.kernel_categories.row(i);
    r.kernels.categories.push_back(
        {in.word<KernelCategory>("kernel_categories", i, "category", c.category), c.kernels,
         c.total_ns, c.pct});
  }
  for (size_t i = 0; i < t.top_kernels.size(); ++i) {
    const TopKernelTable::Row k = t.top_kernels.row(i);
    r.kernels.top.push_back(
        {k.name, in.word<KernelCategory>("top_kernels", i, "category", k.category), k.kernels,
         k.total_ns, k.mean_ns, k.min_ns, k.max_ns, k.pct, known(k.example_kernel_id)});
  }
}

void readLaunches(const AnalysisTables& t, RowReader& in, RankResult& r) {
  LaunchStatisticsReport& l = r.launches;
  const std::array<std::pair<const char*, Distribution*>, 3> metrics = {
      {{"launch_delay_ns", &l.launch_delay_ns},
       {"launch_cost_ns", &l.launch_cost_ns},
       {"kernel_duration_ns", &l.kernel_duration_ns}}};
  for (size_t i = 0; i < t.launch_stats.size(); ++i) {
    const LaunchStatTable::Row s = t.launch_stats.row(i);
    Distribution* d = nullptr;
    for (const auto& [name, target] : metrics) {
      if (s.metric == name) d = target;
    }
    if (!d) {
      in.fail("launch_stats", i, "metric \"" + s.metric + "\" is not a known value");
      continue;
    }
    *d = {s.count, s.mean, s.p50, s.p90, s.p99, s.max};
  }
  for (size_t i = 0; i < t.launch_queues.size(); ++i) {
    const LaunchQueueTable::Row q = t.launch_queues.row(i);
    l.queues.push_back({q.device,
                        q.stream,
                        q.operations,
                        {q.count, q.mean, q.p50, q.p90, q.p99, q.max},
                        q.empty_pct});
  }
}

void readUtilization(const AnalysisTables& t, RowReader& in, RankResult& r) {
  UtilizationResult& u = r.utilization;
  for (size_t i = 0; i < t.device_utilization.size(); ++i) {
    const DeviceUtilizationTable::Row d = t.device_utilization.row(i);
    if (d.primary_device != 0) {
      if (u.primary) in.fail("device_utilization", i, "a second primary device");
      u.primary = i;
    }
    u.devices.push_back({d.device, d.ts, in.end("device_utilization", i, d.ts, d.dur), d.kernel_ns,
                         d.gpu_util_pct, known(d.sm_efficiency_pct), known(d.occupancy_pct),
                         d.kernels_without_grid, d.kernels_with_occupancy});
  }
}

void readFindings(const AnalysisTables& t, RowReader& in, RankResult& r) {
  for (size_t i = 0; i < t.metrics.size(); ++i) {
    const std::optional<Metric> m = metricFromText(t.metrics.name[i]);
    if (!m) {
      in.fail("metrics", i, "name \"" + t.metrics.name[i] + "\" is not a known metric");
      continue;
    }
    r.findings.metrics.set(*m, t.metrics.value[i]);
  }
  for (size_t i = 0; i < t.findings.size(); ++i) {
    const FindingTable::Row f = t.findings.row(i);
    Finding finding;
    finding.rule = f.rule;
    finding.kind = in.word<FindingKind>("findings", i, "kind", f.kind);
    finding.severity = in.word<Severity>("findings", i, "severity", f.severity);
    finding.title = f.title;
    finding.metric = in.word<Metric>("findings", i, "metric", f.metric);
    finding.value = f.value;
    finding.threshold = f.threshold;
    finding.recommendation = f.recommendation;
    finding.max_gain_pct = known(f.max_gain_pct);
    r.findings.findings.push_back(std::move(finding));
  }
  for (size_t i = 0; i < t.finding_evidence.size(); ++i) {
    const FindingEvidenceTable::Row e = t.finding_evidence.row(i);
    const std::optional<int64_t> finding =
        in.index("finding_evidence", i, "finding_id", e.finding_id, r.findings.findings.size());
    if (!finding) {
      if (isNull(e.finding_id)) in.fail("finding_evidence", i, "finding_id is NULL");
      continue;
    }
    r.findings.findings[static_cast<size_t>(*finding)].evidence.push_back(
        {in.word<EvidenceSource>("finding_evidence", i, "event_table", e.event_table), e.event_id,
         e.ts, e.dur, e.label});
  }
}

void readDataLoss(const AnalysisTables& t, RowReader& in, RankResult& r) {
  for (size_t i = 0; i < t.data_loss.size(); ++i) {
    const DataLossTable::Row d = t.data_loss.row(i);
    r.data_loss.counts.push_back(
        {d.stats_id, d.stat, in.word<LossKind>("data_loss", i, "kind", d.kind), d.events});
  }
}

void readMfuSteps(const AnalysisTables& t, RowReader& in, RankResult& r) {
  r.mfu.steps.resize(r.steps.size());
  for (size_t i = 0; i < t.mfu_steps.size(); ++i) {
    const MfuStepTable::Row m = t.mfu_steps.row(i);
    if (m.step_id != static_cast<int64_t>(i) || i >= r.steps.size()) {
      in.fail("mfu_steps", i, "step_id " + std::to_string(m.step_id) + " out of order");
      return;
    }
    r.mfu.steps[i] = {known(m.model_flops), known(m.mfu_pct), known(m.hardware_flops),
                      known(m.hfu_pct)};
  }
  if (t.mfu_steps.size() != r.steps.size()) {
    in.fail("mfu_steps", t.mfu_steps.size(), "one row per step expected");
  }
}

void readRoofline(const AnalysisTables& t, RowReader& in, RankResult& r) {
  for (size_t i = 0; i < t.roofline.size(); ++i) {
    const RooflineTable::Row row = t.roofline.row(i);
    RooflinePoint p;
    p.name = row.name;
    p.category = in.word<KernelCategory>("roofline", i, "category", row.category);
    p.precision = in.word<Precision>("roofline", i, "precision", row.precision);
    p.source = in.word<MetricSource>("roofline", i, "source", row.source);
    p.kernels = row.kernels;
    p.time_ns = row.time_ns;
    p.flops = row.flops;
    p.bytes = known(row.bytes);
    p.intensity = known(row.intensity);
    p.achieved_flops_per_s = row.achieved_flops_per_s;
    p.ceiling_flops_per_s = known(row.ceiling_flops_per_s);
    p.pct_of_ceiling = known(row.pct_of_ceiling);
    if (!isNull(row.memory_bound)) p.memory_bound = row.memory_bound != 0;
    p.example_kernel_id = known(row.example_kernel_id);
    if (row.kind == "kernel") {
      r.roofline.kernels.push_back(std::move(p));
    } else if (row.kind == "class") {
      r.roofline.classes.push_back(std::move(p));
    } else {
      in.fail("roofline", i, "kind \"" + row.kind + "\" is not a known value");
    }
  }
  for (size_t i = 0; i < t.roofline_ceilings.size(); ++i) {
    const RooflineCeilingTable::Row c = t.roofline_ceilings.row(i);
    r.roofline.ceilings.push_back(
        {in.word<Precision>("roofline_ceilings", i, "precision", c.precision), c.peak_flops_per_s,
         known(c.ridge_flops_per_byte)});
  }
  for (size_t i = 0; i < t.collectives.size(); ++i) {
    const CollectiveTable::Row c = t.collectives.row(i);
    r.roofline.collectives.push_back({c.name, c.kernels, c.time_ns, c.bus_bytes,
                                      c.achieved_bytes_per_s, known(c.link_bytes_per_s),
                                      known(c.pct_of_link)});
  }
}

void readCollectiveStarts(const AnalysisTables& t, RowReader& in, RankResult& r) {
  std::unordered_map<std::string_view, int32_t> id_of;
  for (size_t i = 0; i < t.collective_starts.size(); ++i) {
    const std::string& name = t.collective_starts.name[i];
    const int64_t ts = t.collective_starts.ts[i];
    if (!r.collective_starts.empty() && ts < r.collective_starts.back().start_ns) {
      in.fail("collective_starts", i, "starts before the row above it");
    }
    auto [it, added] = id_of.try_emplace(name, static_cast<int32_t>(r.collective_names.size()));
    if (added) r.collective_names.push_back(name);
    r.collective_starts.push_back({it->second, ts});
  }
}

void readCrossRank(const AnalysisTables& t, RowReader& in, StoredRank& out) {
  std::optional<size_t> self;
  for (size_t i = 0; i < t.rank_comparison.size(); ++i) {
    const RankComparisonTable::Row c = t.rank_comparison.row(i);
    out.job.push_back({c.rank, c.source, c.steps, c.median_step_ns, c.slower_than_median_pct,
                       c.straggler != 0, c.collectives, c.median_start_skew_ns, c.max_start_skew_ns,
                       c.last_to_start_pct});
    if (c.this_rank != 0) {
      if (self) in.fail("rank_comparison", i, "a second row marked this_rank");
      self = i;
    }
  }
  if (!out.job.empty() && !self) in.fail("rank_comparison", 0, "no row is marked this_rank");
  if (self) out.rank.comparison = out.job[*self];
}

}  // namespace

AnalysisTables toAnalysisTables(const RankResult& r, const std::vector<RankComparison>& job,
                                size_t index) {
  AnalysisTables t;
  writeSummary(r, t);

  for (const StepResult& s : r.steps) {
    t.steps.append({s.number, s.name, orNull(s.range_id), s.host_ts, s.host_dur, s.ts, s.dur,
                    s.in_window ? 1 : 0, s.complete ? 1 : 0, s.gpu_launches, orNull(s.tokens_per_s),
                    orNull(s.samples_per_s)});
  }

  if (r.breakdown) {
    t.breakdown.append(breakdownRow(r.breakdown->window, kNullInt));
    for (size_t i = 0; i < r.breakdown->steps.size(); ++i) {
      t.breakdown.append(breakdownRow(r.breakdown->steps[i], static_cast<int64_t>(i)));
    }
  }

  t.gaps.reserve(r.gaps.size());
  for (const GapResult& g : r.gaps) {
    GapTable::Row row;
    row.ts = g.ts;
    row.dur = g.dur;
    row.device = g.device;
    row.stream = orNull(g.stream);
    row.step_id = orNull(g.step_id);
    row.in_window = g.in_window ? 1 : 0;
    row.cause = std::string(toText(g.cause));
    for (size_t c = 0; c < kGapCauseCount; ++c) *causeNs(row)[c] = g.by_cause[c];
    row.hta_category = std::string(toText(g.hta));
    if (g.next_kind) row.next_table = std::string(tableName(*g.next_kind));
    row.next_id = orNull(g.next_id);
    row.launch_call_id = orNull(g.launch_call_id);
    row.evidence_table = std::string(toText(g.evidence_table));
    row.evidence_id = orNull(g.evidence_id);
    t.gaps.append(row);
  }

  for (const CategoryTime& c : r.kernels.categories) {
    t.kernel_categories.append({std::string(toText(c.category)),
                                std::string(toText(boundOf(c.category))), c.kernels, c.total_ns,
                                c.pct});
  }
  for (const TopKernelResult& k : r.kernels.top) {
    t.top_kernels.append({k.name, std::string(toText(k.category)), k.kernels, k.total_ns, k.mean_ns,
                          k.min_ns, k.max_ns, k.pct, orNull(k.example_kernel_id)});
  }

  const LaunchStatisticsReport& l = r.launches;
  for (const auto& [metric, d] : {std::pair{"launch_delay_ns", &l.launch_delay_ns},
                                  std::pair{"launch_cost_ns", &l.launch_cost_ns},
                                  std::pair{"kernel_duration_ns", &l.kernel_duration_ns}}) {
    t.launch_stats.append({metric, d->count, d->mean, d->p50, d->p90, d->p99, d->max});
  }
  for (const QueueDepth& q : l.queues) {
    t.launch_queues.append({q.device, q.stream, q.operations, q.depth.count, q.depth.mean,
                            q.depth.p50, q.depth.p90, q.depth.p99, q.depth.max, q.empty_pct});
  }

  for (size_t i = 0; i < r.utilization.devices.size(); ++i) {
    const DeviceUtilization& u = r.utilization.devices[i];
    t.device_utilization.append({u.device, u.start, u.end - u.start, u.kernel_ns, u.gpu_util_pct,
                                 orNull(u.sm_efficiency_pct), orNull(u.occupancy_pct),
                                 u.kernels_without_grid, u.kernels_with_occupancy,
                                 r.utilization.primary == i ? 1 : 0});
  }

  if (r.scorecard) {
    for (size_t i = 0; i < r.scorecard->steps.size(); ++i) {
      t.scorecard.append(scorecardRow(r.scorecard->steps[i], static_cast<int64_t>(i)));
    }
    t.scorecard.append(scorecardRow(r.scorecard->run, kNullInt));
  }

  for (size_t m = 0; m < kMetricCount; ++m) {
    if (const std::optional<double> v = r.findings.metrics.values[m]) {
      t.metrics.append({std::string(toText(static_cast<Metric>(m))), *v});
    }
  }
  for (size_t i = 0; i < r.findings.findings.size(); ++i) {
    const Finding& f = r.findings.findings[i];
    t.findings.append({f.rule, std::string(toText(f.kind)), std::string(toText(f.severity)),
                       f.title, std::string(toText(f.metric)), f.value, f.threshold,
                       f.recommendation, orNull(f.max_gain_pct)});
    for (const EvidenceItem& e : f.evidence) {
      t.finding_evidence.append(
          {static_cast<int64_t>(i), std::string(toText(e.source)), e.id, e.ts, e.dur, e.label});
    }
  }

  for (const LossCount& c : r.data_loss.counts) {
    t.data_loss.append({c.stats_row, c.stat, std::string(toText(c.kind)), c.events});
  }
  for (const AnalysisNote& n : r.notes) {
    t.notes.append({n.analysis, n.message, std::string(toText(n.remedy))});
  }
  for (size_t i = 0; i < r.mfu.steps.size(); ++i) {
    const StepMfu& m = r.mfu.steps[i];
    t.mfu_steps.append({static_cast<int64_t>(i), orNull(m.model_flops), orNull(m.mfu_pct),
                        orNull(m.hardware_flops), orNull(m.hfu_pct)});
  }
  for (const auto& [kind, points] :
       {std::pair{"kernel", &r.roofline.kernels}, std::pair{"class", &r.roofline.classes}}) {
    for (const RooflinePoint& p : *points) t.roofline.append(rooflineRow(kind, p));
  }
  for (const RooflineCeiling& c : r.roofline.ceilings) {
    t.roofline_ceilings.append(
        {std::string(toText(c.precision)), c.peak_flops_per_s, orNull(c.ridge_flops_per_byte)});
  }
  for (const CollectivePoint& c : r.roofline.collectives) {
    t.collectives.append({c.name, c.kernels, c.time_ns, c.bus_bytes, c.achieved_bytes_per_s,
                          orNull(c.link_bytes_per_s), orNull(c.pct_of_link)});
  }
  for (const RankCollective& c : r.collective_starts) {
    t.collective_starts.append({r.collective_names[static_cast<size_t>(c.name)], c.start_ns});
  }
  for (size_t i = 0; i < job.size(); ++i) {
    const RankComparison& c = job[i];
    t.rank_comparison.append({c.rank, c.source, c.steps, c.median_step_ns, c.slower_than_median_pct,
                              c.straggler ? 1 : 0, c.collectives, c.median_start_skew_ns,
                              c.max_start_skew_ns, c.last_to_start_pct, i == index ? 1 : 0});
  }
  return t;
}

Result<StoredRank> toRankResult(const AnalysisTables& t, const std::string& store) {
  StoredRank out;
  RankResult& r = out.rank;
  RowReader in(store);
  readSummary(t, in, r);
  r.store = store;
  readSteps(t, r);
  readBreakdown(t, in, r);
  readGaps(t, in, r);
  readKernels(t, in, r);
  readLaunches(t, in, r);
  readUtilization(t, in, r);
  if (!t.summary.empty()) readScorecard(t, in, r, t.summary.scorecard_device[0]);
  readFindings(t, in, r);
  readDataLoss(t, in, r);
  for (size_t i = 0; i < t.notes.size(); ++i) {
    r.notes.push_back({t.notes.analysis[i], t.notes.message[i],
                       in.word<Remedy>("analysis_notes", i, "remedy", t.notes.remedy[i])});
  }
  readMfuSteps(t, in, r);
  readRoofline(t, in, r);
  readCollectiveStarts(t, in, r);
  readCrossRank(t, in, out);
  if (in.failed()) return in.error();
  return out;
}

}  // namespace damscope
