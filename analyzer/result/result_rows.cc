// The result model <-> the analysis tables' rows: see result_rows.h.
#include "analyzer/result/result_rows.h"

#include <array>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace damscope {
namespace {

// storeRow(table, x) appends x's declared figures as a row (the kByCode
// columns are the caller's); loadRow(table, i, x, in) reads row i into x.
#define DAMSCOPE_STORE_FIGURE(type, column, null, doc, figure, json) storeFigure(t.column, figure);
#define DAMSCOPE_LOAD_FIGURE(type, column, null, doc, figure, json)              \
  if (pass == 0) in.inRange(t.kSqlName, i, #column, t.column[i], rangeOf(null)); \
  loadFigure(t.column[i], figure, Cell{in, t.kSqlName, i, #column}, pass);
#define DAMSCOPE_ROW_CODEC(Table, Element, COLUMNS)                                    \
  [[maybe_unused]] void storeRow(Table& t, const Element& x) {                         \
    COLUMNS(DAMSCOPE_STORE_FIGURE)                                                     \
  }                                                                                    \
  [[maybe_unused]] void loadRow(const Table& t, size_t i, Element& x, RowReader& in) { \
    for (int pass = 0; pass < 2; ++pass) {                                             \
      COLUMNS(DAMSCOPE_LOAD_FIGURE)                                                    \
    }                                                                                  \
  }

DAMSCOPE_ROW_CODEC(SummaryTable, RankResult, DAMSCOPE_SUMMARY_COLUMNS)
DAMSCOPE_ROW_CODEC(StepResultTable, StepResult, DAMSCOPE_STEP_COLUMNS)
DAMSCOPE_ROW_CODEC(BreakdownTable, BreakdownFigures, DAMSCOPE_BREAKDOWN_COLUMNS)
DAMSCOPE_ROW_CODEC(GapTable, GapResult, DAMSCOPE_GAP_COLUMNS)
DAMSCOPE_ROW_CODEC(KernelCategoryTable, CategoryTime, DAMSCOPE_KERNEL_CATEGORY_COLUMNS)
DAMSCOPE_ROW_CODEC(TopKernelTable, TopKernelResult, DAMSCOPE_TOP_KERNEL_COLUMNS)
DAMSCOPE_ROW_CODEC(LaunchStatTable, Distribution, DAMSCOPE_LAUNCH_STAT_COLUMNS)
DAMSCOPE_ROW_CODEC(LaunchQueueTable, QueueDepth, DAMSCOPE_LAUNCH_QUEUE_COLUMNS)
DAMSCOPE_ROW_CODEC(DeviceUtilizationTable, DeviceUtilization, DAMSCOPE_DEVICE_UTILIZATION_COLUMNS)
DAMSCOPE_ROW_CODEC(ScorecardTable, Scorecard, DAMSCOPE_SCORECARD_COLUMNS)
DAMSCOPE_ROW_CODEC(FindingTable, Finding, DAMSCOPE_FINDING_COLUMNS)
DAMSCOPE_ROW_CODEC(FindingEvidenceTable, EvidenceItem, DAMSCOPE_FINDING_EVIDENCE_COLUMNS)
DAMSCOPE_ROW_CODEC(DataLossTable, LossCount, DAMSCOPE_DATA_LOSS_COLUMNS)
DAMSCOPE_ROW_CODEC(NoteTable, AnalysisNote, DAMSCOPE_NOTE_COLUMNS)
DAMSCOPE_ROW_CODEC(RankComparisonTable, RankComparison, DAMSCOPE_RANK_COMPARISON_COLUMNS)
DAMSCOPE_ROW_CODEC(MfuStepTable, StepMfu, DAMSCOPE_MFU_STEP_COLUMNS)
DAMSCOPE_ROW_CODEC(RooflineTable, RooflinePoint, DAMSCOPE_ROOFLINE_COLUMNS)
DAMSCOPE_ROW_CODEC(RooflineCeilingTable, RooflineCeiling, DAMSCOPE_ROOFLINE_CEILING_COLUMNS)
DAMSCOPE_ROW_CODEC(CollectiveTable, CollectivePoint, DAMSCOPE_COLLECTIVE_COLUMNS)
DAMSCOPE_ROW_CODEC(TopOpTable, OpRow, DAMSCOPE_TOP_OP_COLUMNS)
DAMSCOPE_ROW_CODEC(CollectiveStartTable, RankCollective, DAMSCOPE_COLLECTIVE_START_COLUMNS)

// The table a GPU operation's row is in (gaps.next_table).
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

// launch_stats rows: the metric names the distribution.
template <typename Launches>
auto launchDistributions(Launches& l) {
  return std::array{std::pair{"launch_delay_ns", &l.launch_delay_ns},
                    std::pair{"launch_cost_ns", &l.launch_cost_ns},
                    std::pair{"kernel_duration_ns", &l.kernel_duration_ns}};
}

// roofline rows: the kind names the list.
template <typename Roofline>
auto rooflineLists(Roofline& r) {
  return std::array{std::pair{"kernel", &r.kernels}, std::pair{"class", &r.classes}};
}

// --- Reading -------------------------------------------------------------------

// Per-step rows must come in step order after at most one run-wide row
// (step_id NULL); read(i, step) gets each, step empty for the run-wide one.
template <typename Table, typename Read>
void readPerStep(const Table& table, size_t steps, RowReader& in, Read&& read) {
  size_t next_step = 0;
  for (size_t i = 0; i < table.size(); ++i) {
    const int64_t step_id = table.step_id[i];
    if (isNull(step_id)) {
      read(i, std::optional<size_t>());
      continue;
    }
    if (step_id != static_cast<int64_t>(next_step) || next_step >= steps) {
      in.fail(Table::kSqlName, i, "step_id " + std::to_string(step_id) + " out of order");
      return;
    }
    read(i, std::optional<size_t>(next_step++));
  }
}

void readBreakdown(const AnalysisTables& t, RowReader& in, RankResult& r) {
  std::optional<BreakdownResult> out;
  bool steps_before_window = false;
  readPerStep(t.breakdown, r.steps.size(), in, [&](size_t i, std::optional<size_t> step) {
    BreakdownFigures f;
    loadRow(t.breakdown, i, f, in);
    f.end = in.end("breakdown", i, t.breakdown.ts[i], t.breakdown.dur[i]);
    // HTA splits the span into idle, compute and non-compute time, and
    // communication into its overlap with computation and the exposed rest
    // (temporal_breakdown.h): no part is longer than its whole.
    const auto notPast = [&](const char* part, int64_t part_ns, const char* whole,
                             int64_t whole_ns) {
      if (part_ns > whole_ns) {
        in.fail("breakdown", i, std::string(part) + " exceeds " + whole);
      }
    };
    const int64_t dur = t.breakdown.dur[i];
    notPast("idle_ns", f.idle_ns, "dur", dur);
    notPast("compute_ns", f.compute_ns, "dur", dur);
    notPast("non_compute_ns", f.non_compute_ns, "dur", dur);
    notPast("overlap_ns", f.overlap_ns, "communication_ns", f.communication_ns);
    notPast("exposed_communication_ns", f.exposed_communication_ns, "communication_ns",
            f.communication_ns);
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

void readScorecard(const AnalysisTables& t, RowReader& in, RankResult& r) {
  std::vector<Scorecard> steps;
  std::optional<Scorecard> run;
  readPerStep(t.scorecard, r.steps.size(), in, [&](size_t i, std::optional<size_t> step) {
    Scorecard card;
    loadRow(t.scorecard, i, card, in);
    card.end = in.end("scorecard", i, t.scorecard.ts[i], t.scorecard.dur[i]);
    // The axes split the row's time (scorecard.h): their sum is at most dur.
    if (card.total() > t.scorecard.dur[i]) in.fail("scorecard", i, "the axes sum past dur");
    if (step) {
      steps.push_back(card);
    } else if (run) {
      in.fail("scorecard", i, "a second row for the run");
    } else {
      run = card;
    }
  });
  if (run) {
    r.scorecard = ScorecardResult{t.summary.scorecard_device[0], *run, std::move(steps)};
  } else if (!steps.empty()) {
    in.fail("scorecard", 0, "per-step rows without the run's row");
  }
}

void readGaps(const AnalysisTables& t, RowReader& in, RankResult& r) {
  r.gaps.resize(t.gaps.size());
  for (size_t i = 0; i < t.gaps.size(); ++i) {
    GapResult& gap = r.gaps[i];
    loadRow(t.gaps, i, gap, in);
    gap.step_id = in.index("gaps", i, "step_id", t.gaps.step_id[i], r.steps.size());
    const std::string& next = t.gaps.next_table[i];
    if (next.empty()) continue;
    for (size_t k = 0; k < kGpuOpKindCount; ++k) {
      if (tableName(static_cast<GpuOpKind>(k)) == next) gap.next_kind = static_cast<GpuOpKind>(k);
    }
    if (!gap.next_kind) in.fail("gaps", i, "next_table \"" + next + "\" is not a known value");
  }
}

void readLaunches(const AnalysisTables& t, RowReader& in, RankResult& r) {
  const auto distributions = launchDistributions(r.launches);
  for (size_t i = 0; i < t.launch_stats.size(); ++i) {
    Distribution* d = nullptr;
    for (const auto& [name, target] : distributions) {
      if (t.launch_stats.metric[i] == name) d = target;
    }
    if (!d) {
      in.fail("launch_stats", i,
              "metric \"" + t.launch_stats.metric[i] + "\" is not a known value");
      continue;
    }
    loadRow(t.launch_stats, i, *d, in);
  }
}

void readUtilization(const AnalysisTables& t, RowReader& in, RankResult& r) {
  UtilizationResult& u = r.utilization;
  u.devices.resize(t.device_utilization.size());
  for (size_t i = 0; i < t.device_utilization.size(); ++i) {
    DeviceUtilization& d = u.devices[i];
    loadRow(t.device_utilization, i, d, in);
    d.end =
        in.end("device_utilization", i, t.device_utilization.ts[i], t.device_utilization.dur[i]);
    if (t.device_utilization.primary_device[i] != 0) {
      if (u.primary) in.fail("device_utilization", i, "a second primary device");
      u.primary = i;
    }
  }
}

void readFindings(const AnalysisTables& t, RowReader& in, RankResult& r) {
  for (size_t i = 0; i < t.metrics.size(); ++i) {
    const std::optional<Metric> m = metricFromText(t.metrics.name[i]);
    if (!m) {
      in.fail("metrics", i, "name \"" + t.metrics.name[i] + "\" is not a known metric");
      continue;
    }
    in.inRange("metrics", i, "value", t.metrics.value[i], rangeOf(kNullable));
    r.findings.metrics.set(*m, t.metrics.value[i]);
  }
  std::vector<Finding>& findings = r.findings.findings;
  findings.resize(t.findings.size());
  for (size_t i = 0; i < t.findings.size(); ++i) loadRow(t.findings, i, findings[i], in);
  for (size_t i = 0; i < t.finding_evidence.size(); ++i) {
    const int64_t finding_id = t.finding_evidence.finding_id[i];
    const std::optional<int64_t> finding =
        in.index("finding_evidence", i, "finding_id", finding_id, findings.size());
    if (!finding) {
      if (isNull(finding_id)) in.fail("finding_evidence", i, "finding_id is NULL");
      continue;
    }
    EvidenceItem& e = findings[static_cast<size_t>(*finding)].evidence.emplace_back();
    loadRow(t.finding_evidence, i, e, in);
  }
}

void readMfuSteps(const AnalysisTables& t, RowReader& in, RankResult& r) {
  r.mfu.steps.resize(r.steps.size());
  for (size_t i = 0; i < t.mfu_steps.size(); ++i) {
    const int64_t step_id = t.mfu_steps.step_id[i];
    if (step_id != static_cast<int64_t>(i) || i >= r.steps.size()) {
      in.fail("mfu_steps", i, "step_id " + std::to_string(step_id) + " out of order");
      return;
    }
    loadRow(t.mfu_steps, i, r.mfu.steps[i], in);
  }
  if (t.mfu_steps.size() != r.steps.size()) {
    in.fail("mfu_steps", t.mfu_steps.size(), "one row per step expected");
  }
}

void readRoofline(const AnalysisTables& t, RowReader& in, RankResult& r) {
  const auto lists = rooflineLists(r.roofline);
  for (size_t i = 0; i < t.roofline.size(); ++i) {
    std::vector<RooflinePoint>* list = nullptr;
    for (const auto& [kind, target] : lists) {
      if (t.roofline.kind[i] == kind) list = target;
    }
    if (!list) {
      in.fail("roofline", i, "kind \"" + t.roofline.kind[i] + "\" is not a known value");
      continue;
    }
    loadRow(t.roofline, i, list->emplace_back(), in);
  }
}

void readCollectiveStarts(const AnalysisTables& t, RowReader& in, RankResult& r) {
  std::unordered_map<std::string_view, int32_t> id_of;
  for (size_t i = 0; i < t.collective_starts.size(); ++i) {
    RankCollective c;
    loadRow(t.collective_starts, i, c, in);
    if (!r.collective_starts.empty() && c.start_ns < r.collective_starts.back().start_ns) {
      in.fail("collective_starts", i, "starts before the row above it");
    }
    const std::string& name = t.collective_starts.name[i];
    auto [it, added] = id_of.try_emplace(name, static_cast<int32_t>(r.collective_names.size()));
    if (added) r.collective_names.push_back(name);
    c.name = it->second;
    r.collective_starts.push_back(c);
  }
}

void readCrossRank(const AnalysisTables& t, RowReader& in, StoredRank& out) {
  std::optional<size_t> self;
  out.job.resize(t.rank_comparison.size());
  for (size_t i = 0; i < t.rank_comparison.size(); ++i) {
    loadRow(t.rank_comparison, i, out.job[i], in);
    if (t.rank_comparison.this_rank[i] != 0) {
      if (self) in.fail("rank_comparison", i, "a second row marked this_rank");
      self = i;
    }
  }
  if (!out.job.empty() && !self) in.fail("rank_comparison", 0, "no row is marked this_rank");
  if (self) out.rank.comparison = out.job[*self];
}

// Every row of a table whose rows are one list of the model, in order.
template <typename Table, typename Element>
void readAll(const Table& table, RowReader& in, std::vector<Element>& out) {
  out.resize(table.size());
  for (size_t i = 0; i < table.size(); ++i) loadRow(table, i, out[i], in);
}

}  // namespace

AnalysisTables toAnalysisTables(const RankResult& r, const std::vector<RankComparison>& job,
                                size_t index) {
  AnalysisTables t;
  storeRow(t.summary, r);
  for (const StepResult& s : r.steps) storeRow(t.steps, s);

  if (r.breakdown) {
    storeRow(t.breakdown, r.breakdown->window);
    t.breakdown.step_id.push_back(kNullInt);
    for (size_t i = 0; i < r.breakdown->steps.size(); ++i) {
      storeRow(t.breakdown, r.breakdown->steps[i]);
      t.breakdown.step_id.push_back(static_cast<int64_t>(i));
    }
  }

  t.gaps.reserve(r.gaps.size());
  for (const GapResult& g : r.gaps) {
    storeRow(t.gaps, g);
    t.gaps.next_table.push_back(g.next_kind ? std::string(tableName(*g.next_kind)) : "");
  }

  for (const CategoryTime& c : r.kernels.categories) storeRow(t.kernel_categories, c);
  for (const TopKernelResult& k : r.kernels.top) storeRow(t.top_kernels, k);

  for (const auto& [metric, d] : launchDistributions(r.launches)) {
    storeRow(t.launch_stats, *d);
    t.launch_stats.metric.push_back(metric);
  }
  for (const QueueDepth& q : r.launches.queues) storeRow(t.launch_queues, q);

  for (size_t i = 0; i < r.utilization.devices.size(); ++i) {
    storeRow(t.device_utilization, r.utilization.devices[i]);
    t.device_utilization.primary_device.push_back(r.utilization.primary == i ? 1 : 0);
  }

  if (r.scorecard) {
    for (size_t i = 0; i < r.scorecard->steps.size(); ++i) {
      storeRow(t.scorecard, r.scorecard->steps[i]);
      t.scorecard.step_id.push_back(static_cast<int64_t>(i));
    }
    storeRow(t.scorecard, r.scorecard->run);
    t.scorecard.step_id.push_back(kNullInt);
  }

  for (size_t m = 0; m < kMetricCount; ++m) {
    if (const std::optional<double> v = r.findings.metrics.values[m]) {
      t.metrics.name.push_back(std::string(toText(static_cast<Metric>(m))));
      t.metrics.value.push_back(*v);
    }
  }
  for (size_t i = 0; i < r.findings.findings.size(); ++i) {
    const Finding& f = r.findings.findings[i];
    storeRow(t.findings, f);
    for (const EvidenceItem& e : f.evidence) {
      storeRow(t.finding_evidence, e);
      t.finding_evidence.finding_id.push_back(static_cast<int64_t>(i));
    }
  }

  for (const LossCount& c : r.data_loss.counts) storeRow(t.data_loss, c);
  for (const AnalysisNote& n : r.notes) storeRow(t.notes, n);
  for (size_t i = 0; i < r.mfu.steps.size(); ++i) {
    storeRow(t.mfu_steps, r.mfu.steps[i]);
    t.mfu_steps.step_id.push_back(static_cast<int64_t>(i));
  }
  for (const auto& [kind, points] : rooflineLists(r.roofline)) {
    for (const RooflinePoint& p : *points) {
      storeRow(t.roofline, p);
      t.roofline.kind.push_back(kind);
    }
  }
  for (const RooflineCeiling& c : r.roofline.ceilings) storeRow(t.roofline_ceilings, c);
  for (const CollectivePoint& c : r.roofline.collectives) storeRow(t.collectives, c);
  for (const OpRow& o : r.top_ops) storeRow(t.top_ops, o);
  for (const RankCollective& c : r.collective_starts) {
    storeRow(t.collective_starts, c);
    t.collective_starts.name.push_back(r.collective_names[static_cast<size_t>(c.name)]);
  }
  for (size_t i = 0; i < job.size(); ++i) {
    storeRow(t.rank_comparison, job[i]);
    t.rank_comparison.this_rank.push_back(i == index ? 1 : 0);
  }
  return t;
}

Result<StoredRank> toRankResult(const AnalysisTables& t, const std::string& store) {
  StoredRank out;
  RankResult& r = out.rank;
  RowReader in(store);
  if (t.summary.size() != 1) {
    in.fail("summary", 0, "expected one row, found " + std::to_string(t.summary.size()));
    return in.error();
  }
  loadRow(t.summary, 0, r, in);
  r.store = store;
  readAll(t.steps, in, r.steps);
  for (size_t i = 0; i < r.steps.size(); ++i) {
    in.end("steps", i, t.steps.host_ts[i], t.steps.host_dur[i]);
    in.end("steps", i, t.steps.ts[i], t.steps.dur[i]);
  }
  readBreakdown(t, in, r);
  readGaps(t, in, r);
  readAll(t.kernel_categories, in, r.kernels.categories);
  readAll(t.top_kernels, in, r.kernels.top);
  readLaunches(t, in, r);
  readAll(t.launch_queues, in, r.launches.queues);
  readUtilization(t, in, r);
  readScorecard(t, in, r);
  readFindings(t, in, r);
  readAll(t.data_loss, in, r.data_loss.counts);
  readAll(t.notes, in, r.notes);
  readMfuSteps(t, in, r);
  readRoofline(t, in, r);
  readAll(t.roofline_ceilings, in, r.roofline.ceilings);
  readAll(t.collectives, in, r.roofline.collectives);
  readAll(t.top_ops, in, r.top_ops);
  readCollectiveStarts(t, in, r);
  readCrossRank(t, in, out);
  if (in.failed()) return in.error();
  return out;
}

}  // namespace damscope
