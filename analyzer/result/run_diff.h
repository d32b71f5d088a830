// The diff of two runs (`damscope diff BEFORE AFTER`): did the fix work, what
// moved, and which bottleneck leads now. Computed once from two results of
// the result model (analysis_result.h) into plain values that the text and
// JSON serializers (report/diff_text.h, report/diff_json.h) only render.
//
// What is compared, rank by rank (RankDiff):
//   step time        the mean of the analysed steps (WindowResult::avg_step_ns)
//   verdict          before and after, and the axis each rests on (the
//                    bottleneck that leads)
//   scorecard        every D·A·M axis as a share of the step and as time per
//                    step
//   HTA breakdown    idle, compute, non-compute, comm/compute overlap over
//                    each run's window
//   GPU utilization  util, est. SM efficiency, est. occupancy (the PyTorch
//                    profiler's definitions)
//   MFU, HFU         where a run has them (mfu.h)
//   kernels          each category's share of kernel time and time per step,
//                    and the kernels whose time per step moved most
//   ops              the framework ops whose GPU time per step moved most
//   findings         the rules that fired after but not before (appeared),
//                    before but not after (disappeared), and in both
//                    (remained), with their metric before and after
// Times are per analysed step, so runs that analysed different numbers of
// steps compare; when either run has no steps the times are totals over each
// run's analysed span, and RankDiff::per_step says so. A figure one run lacks
// is an empty optional, never zero.
//
// Multi-rank runs: ranks are paired in input order (rank i before with rank i
// after); with unequal counts the extra ranks are left out and a note says so.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/result/analysis_result.h"

namespace damscope {

// A figure before and after; empty where a run does not have it.
struct Change {
  std::optional<double> before;
  std::optional<double> after;

  // after - before, when both are known.
  std::optional<double> delta() const;
  // The change relative to before, in percent (-19.7 for 179.9 -> 144.4);
  // empty unless both are known and before is not 0.
  std::optional<double> relativePct() const;
  bool operator==(const Change&) const = default;
};

struct AxisChange {
  Axis axis = Axis::kOtherIdle;
  Change pct;          // of the step
  Change ns_per_step;  // time per step
  bool operator==(const AxisChange&) const = default;
};

struct CategoryChange {
  KernelCategory category = KernelCategory::kOther;
  Change pct;  // of all kernel time
  Change ns_per_step;
  bool operator==(const CategoryChange&) const = default;
};

// One kernel (by name) that moved. A run lists only its top kernels
// (KernelsResult::top): a kernel outside a run's list has no figure there,
// only a bound (it took less than the list's last kernel), unless that list
// covers all of the run's kernel time, where it is 0.
struct KernelChange {
  std::string name;
  KernelCategory category = KernelCategory::kOther;
  Change ns_per_step;
  Change kernels_per_step;                // launches per step
  std::optional<double> before_below_ns;  // not in the list before: less than this
  std::optional<double> after_below_ns;   // likewise after
  double moved_ns = 0;  // |change|, or the least it can be where a figure is a bound
  bool operator==(const KernelChange&) const = default;
};

// One framework op (by name) whose GPU time moved: from the runs' top ops
// (RankResult::top_ops); an op outside a run's list took less than the
// list's last op there.
struct OpChange {
  std::string name;
  Change ns_per_step;                     // GPU time of the work it launched
  Change calls_per_step;
  std::optional<double> before_below_ns;  // not in the list before: less than this
  std::optional<double> after_below_ns;   // likewise after
  double moved_ns = 0;  // |change|, or the least it can be where a figure is a bound
  bool operator==(const OpChange&) const = default;
};

enum class FindingState : uint8_t { kAppeared, kDisappeared, kRemained };
std::string_view toText(FindingState state);  // "appeared", "disappeared", "remained"

struct FindingChange {
  FindingState state = FindingState::kRemained;
  std::string rule;
  FindingKind kind = FindingKind::kPerformance;
  Severity severity = Severity::kMedium;  // after's, or before's when it disappeared
  std::string title;                      // likewise
  Metric metric = Metric::kStallPct;
  Change value;  // the rule's metric, where the run computed it
  Change max_gain_pct;
  Change projected_step_ns;  // the median step without its cause (critical_path.h)
  bool operator==(const FindingChange&) const = default;
};

struct RankDiff {
  std::string before_source, after_source;
  std::optional<int32_t> before_rank, after_rank;
  std::string before_device_name, after_device_name;
  int64_t before_steps = 0, after_steps = 0;  // analysed steps
  bool per_step = true;  // false: a run has no steps; times are totals over its span

  Change step_ns;           // mean analysed step
  Change critical_path_ns;  // median critical path of the analysed steps
  Verdict before_verdict = Verdict::kNone, after_verdict = Verdict::kNone;
  std::optional<Axis> before_lead, after_lead;  // the axis each verdict rests on

  std::vector<AxisChange> axes;  // every axis in Axis order; empty when neither run has one
  Change idle_pct, compute_pct, non_compute_pct, overlap_pct;  // HTA, over each window
  Change gpu_util_pct, sm_efficiency_pct, occupancy_pct;       // primary device
  Change mfu_pct, hfu_pct;
  Change kernel_ns_per_step;                                   // all kernel time
  std::vector<CategoryChange> categories;                      // largest share (either run) first
  std::vector<KernelChange> kernels;    // largest moved_ns first, DiffOptions::top_kernels at most
  std::vector<OpChange> ops;            // largest moved_ns first, DiffOptions::top_ops at most
  std::vector<FindingChange> findings;  // appeared, disappeared, remained; each in rank order
  std::vector<std::string> notes;       // what a reader must know to trust the comparison

  bool verdictChanged() const { return before_verdict != after_verdict; }
  bool operator==(const RankDiff&) const = default;
};

struct RunDiff {
  std::vector<RankDiff> ranks;
  std::vector<std::string> notes;
  bool operator==(const RunDiff&) const = default;
};

struct DiffOptions {
  size_t top_kernels = 10;
  size_t top_ops = 10;
};

RankDiff diffRanks(const RankResult& before, const RankResult& after,
                   const DiffOptions& options = {});
RunDiff diffRuns(const RunResult& before, const RunResult& after, const DiffOptions& options = {});

}  // namespace damscope
