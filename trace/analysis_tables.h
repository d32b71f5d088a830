// The analysis output tables: what `damscope analyze` stores beside the events
// in a run.db so that the GUI and the reports read results instead of
// recomputing them (DESIGN.md, "Trace store").
//
// Declared once, as data, with the same X-macro machinery as the event tables
// (trace/tables.h): each list below gives the column vectors, a Row struct and
// the column visitor that trace/analysis_store.cc binds and reads. The SQL of
// the same tables is trace/analysis_schema.sql; a test checks that they agree.
//
// Conventions: the row index is the table's `id`; `step_id` names a steps.id
// and is NULL for figures about the whole analysis window (or the whole run);
// `*_id` columns that name event tables (next_id, launch_call_id, evidence_id,
// range_id, ...) hold that event table's id. Times are int64 ns on the trace's
// clock; `*_pct` are percentages (0..100) of the stated denominator. Text
// vocabularies (cause, axis, severity, ...) are listed in docs/analysis.md.
#pragma once

#include <optional>

#include "trace/tables.h"

namespace damscope {

// One row per training step found (ProfilerStep#N, an NVTX/annotation range
// named like a step, the trainer's step ranges). host_* is the host range;
// ts/dur the step aligned to the GPU work it launched (TensorBoard plugin
// rule: a step ends when its last kernel ends). in_window: analysed by the
// default (HTA) window; complete: 0 when the profiler probably cut the step's
// GPU work off.
#define DAMSCOPE_STEP_COLUMNS(X) \
  X(int64_t, number)             \
  X(std::string, name)           \
  X(std::string, source)         \
  X(int64_t, range_id)           \
  X(int64_t, host_ts)            \
  X(int64_t, host_dur)           \
  X(int64_t, ts)                 \
  X(int64_t, dur)                \
  X(int32_t, in_window)          \
  X(int32_t, complete)           \
  X(int64_t, gpu_launches)       \
  X(double, tokens)              \
  X(double, samples)             \
  X(double, tokens_per_s)        \
  X(double, samples_per_s)

// HTA temporal breakdown, for the analysis window (step_id NULL) and per step.
// overlap_pct is NULL when there is no communication.
#define DAMSCOPE_BREAKDOWN_COLUMNS(X)  \
  X(int64_t, step_id)                  \
  X(int64_t, ts)                       \
  X(int64_t, dur)                      \
  X(int64_t, idle_ns)                  \
  X(int64_t, compute_ns)               \
  X(int64_t, non_compute_ns)           \
  X(int64_t, communication_ns)         \
  X(int64_t, exposed_communication_ns) \
  X(int64_t, overlap_ns)               \
  X(int64_t, memory_ns)                \
  X(double, idle_pct)                  \
  X(double, compute_pct)               \
  X(double, non_compute_pct)           \
  X(double, overlap_pct)

// Idle intervals (bubbles). stream NULL: the whole device was idle (no stream
// busy); otherwise one stream's gap between two of its GPU operations. The
// *_ns columns split the gap by cause; `cause` is the largest. hta_category is
// HTA's idle-time class for stream gaps (host_wait, kernel_wait, other).
// next_table/next_id name the GPU operation that ended the gap, launch_call_id
// its launch call; evidence_table/evidence_id the event that shows the cause.
#define DAMSCOPE_GAP_COLUMNS(X)     \
  X(int64_t, ts)                    \
  X(int64_t, dur)                   \
  X(int32_t, device)                \
  X(int64_t, stream)                \
  X(int64_t, step_id)               \
  X(std::string, cause)             \
  X(int64_t, data_loading_ns)       \
  X(int64_t, host_launch_ns)        \
  X(int64_t, synchronization_ns)    \
  X(int64_t, communication_wait_ns) \
  X(int64_t, other_ns)              \
  X(std::string, hta_category)      \
  X(std::string, next_table)        \
  X(int64_t, next_id)               \
  X(int64_t, launch_call_id)        \
  X(std::string, evidence_table)    \
  X(int64_t, evidence_id)

// Kernel time by category (GEMM, convolution, ...) inside the analysis window.
#define DAMSCOPE_KERNEL_CATEGORY_COLUMNS(X) \
  X(std::string, category)                  \
  X(std::string, bound)                     \
  X(int64_t, kernels)                       \
  X(int64_t, total_ns)                      \
  X(double, pct)

// The kernels that took the most GPU time, by name, in order.
#define DAMSCOPE_TOP_KERNEL_COLUMNS(X) \
  X(std::string, name)                 \
  X(std::string, category)             \
  X(int64_t, kernels)                  \
  X(int64_t, total_ns)                 \
  X(int64_t, mean_ns)                  \
  X(int64_t, min_ns)                   \
  X(int64_t, max_ns)                   \
  X(double, pct)                       \
  X(int64_t, example_kernel_id)

// Distributions: launch delay, launch (runtime call) cost, kernel duration,
// and launch queue depth per stream (device/stream NULL: all of them).
#define DAMSCOPE_LAUNCH_STAT_COLUMNS(X) \
  X(std::string, metric)                \
  X(int32_t, device)                    \
  X(int64_t, stream)                    \
  X(int64_t, count)                     \
  X(double, mean)                       \
  X(double, p50)                        \
  X(double, p90)                        \
  X(double, p99)                        \
  X(double, max)

// The D·A·M scorecard: step time split by axis, per step and for the run
// (step_id NULL). The pct of one step_id sum to 100.
#define DAMSCOPE_SCORECARD_COLUMNS(X) \
  X(int64_t, step_id)                 \
  X(std::string, axis)                \
  X(int64_t, ns)                      \
  X(double, pct)                      \
  X(std::string, verdict)

// Findings of the rule engine, most important first. evidence is a JSON object
// of event ids: {"gaps":[...],"kernels":[...],"ranges":[...],"memcpys":[...]}.
// max_gain_pct: the most the step can shorten by fixing it (NULL: unknown).
#define DAMSCOPE_FINDING_COLUMNS(X) \
  X(std::string, rule)              \
  X(std::string, severity)          \
  X(std::string, title)             \
  X(std::string, metric)            \
  X(double, value)                  \
  X(double, threshold)              \
  X(std::string, recommendation)    \
  X(double, max_gain_pct)           \
  X(std::string, evidence)

// Headline figures by name (gpu_util_pct, verdict, window_start_ns, ...).
#define DAMSCOPE_SUMMARY_COLUMNS(X) \
  X(std::string, key)               \
  X(double, value)                  \
  X(std::string, text)

// What could not be computed, and why (no GPU events, no correlation ids, ...).
#define DAMSCOPE_NOTE_COLUMNS(X) \
  X(std::string, analysis)       \
  X(std::string, message)

// Cross-rank comparison, one row per rank analysed together with this one.
#define DAMSCOPE_RANK_COMPARISON_COLUMNS(X) \
  X(int32_t, rank)                          \
  X(std::string, source)                    \
  X(int64_t, steps)                         \
  X(int64_t, median_step_ns)                \
  X(double, slower_than_median_pct)         \
  X(int32_t, straggler)                     \
  X(int64_t, collectives)                   \
  X(int64_t, median_start_skew_ns)          \
  X(int64_t, max_start_skew_ns)             \
  X(double, last_to_start_pct)

DAMSCOPE_DEFINE_TABLE(StepResultTable, "steps", DAMSCOPE_STEP_COLUMNS)
DAMSCOPE_DEFINE_TABLE(BreakdownTable, "breakdown", DAMSCOPE_BREAKDOWN_COLUMNS)
DAMSCOPE_DEFINE_TABLE(GapTable, "gaps", DAMSCOPE_GAP_COLUMNS)
DAMSCOPE_DEFINE_TABLE(KernelCategoryTable, "kernel_categories", DAMSCOPE_KERNEL_CATEGORY_COLUMNS)
DAMSCOPE_DEFINE_TABLE(TopKernelTable, "top_kernels", DAMSCOPE_TOP_KERNEL_COLUMNS)
DAMSCOPE_DEFINE_TABLE(LaunchStatTable, "launch_stats", DAMSCOPE_LAUNCH_STAT_COLUMNS)
DAMSCOPE_DEFINE_TABLE(ScorecardTable, "scorecard", DAMSCOPE_SCORECARD_COLUMNS)
DAMSCOPE_DEFINE_TABLE(FindingTable, "findings", DAMSCOPE_FINDING_COLUMNS)
DAMSCOPE_DEFINE_TABLE(SummaryTable, "summary", DAMSCOPE_SUMMARY_COLUMNS)
DAMSCOPE_DEFINE_TABLE(NoteTable, "analysis_notes", DAMSCOPE_NOTE_COLUMNS)
DAMSCOPE_DEFINE_TABLE(RankComparisonTable, "rank_comparison", DAMSCOPE_RANK_COMPARISON_COLUMNS)

// Everything one `damscope analyze` stores for one rank. Written as a whole:
// storing replaces every earlier result (trace/analysis_store.h).
struct AnalysisTables {
  StepResultTable steps;
  BreakdownTable breakdown;
  GapTable gaps;
  KernelCategoryTable kernel_categories;
  TopKernelTable top_kernels;
  LaunchStatTable launch_stats;
  ScorecardTable scorecard;
  FindingTable findings;
  SummaryTable summary;
  NoteTable notes;
  RankComparisonTable rank_comparison;

  template <typename Visit>
  void forEachTable(Visit&& visit) {
    visit(steps), visit(breakdown), visit(gaps), visit(kernel_categories), visit(top_kernels);
    visit(launch_stats), visit(scorecard), visit(findings), visit(summary), visit(notes);
    visit(rank_comparison);
  }
  template <typename Visit>
  void forEachTable(Visit&& visit) const {
    visit(steps), visit(breakdown), visit(gaps), visit(kernel_categories), visit(top_kernels);
    visit(launch_stats), visit(scorecard), visit(findings), visit(summary), visit(notes);
    visit(rank_comparison);
  }

  // Summary rows by key: a number, a text, or both.
  void setValue(const std::string& key, double value) { summary.append({key, value, ""}); }
  void setText(const std::string& key, const std::string& text) {
    summary.append({key, nullValue<double>(), text});
  }
  // The summary row `key`, if there is one.
  std::optional<SummaryTable::Row> findSummary(const std::string& key) const {
    for (size_t i = 0; i < summary.size(); ++i) {
      if (summary.key[i] == key) return summary.row(i);
    }
    return std::nullopt;
  }
};

// Version of the analysis tables' layout, stored in meta as
// "analysis_schema_version" when results are written.
constexpr int kAnalysisSchemaVersion = 1;

}  // namespace damscope
