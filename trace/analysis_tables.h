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

#include "trace/tables.h"

namespace damscope {

// One row per training step found (ProfilerStep#N, an NVTX/annotation range
// named like a step, the trainer's step ranges). host_* is the host range;
// ts/dur the step aligned to the GPU work it launched (TensorBoard plugin
// rule: a step ends when its last kernel ends). in_window: analysed by the
// analysis window; complete: 0 when the profiler probably cut the step's GPU
// work off.
#define DAMSCOPE_STEP_COLUMNS(X) \
  X(int64_t, number)             \
  X(std::string, name)           \
  X(int64_t, range_id)           \
  X(int64_t, host_ts)            \
  X(int64_t, host_dur)           \
  X(int64_t, ts)                 \
  X(int64_t, dur)                \
  X(int32_t, in_window)          \
  X(int32_t, complete)           \
  X(int64_t, gpu_launches)       \
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
  X(int32_t, in_window)             \
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

// Distributions over the window's kernels: launch delay, launch (runtime
// call) cost and kernel duration, in ns.
#define DAMSCOPE_LAUNCH_STAT_COLUMNS(X) \
  X(std::string, metric)                \
  X(int64_t, count)                     \
  X(double, mean)                       \
  X(double, p50)                        \
  X(double, p90)                        \
  X(double, p99)                        \
  X(double, max)

// Launch queue depth per stream, time-weighted over the stream's busy span,
// and the share of that span with nothing queued.
#define DAMSCOPE_LAUNCH_QUEUE_COLUMNS(X) \
  X(int32_t, device)                     \
  X(int64_t, stream)                     \
  X(int64_t, operations)                 \
  X(int64_t, count)                      \
  X(double, mean)                        \
  X(double, p50)                         \
  X(double, p90)                         \
  X(double, p99)                         \
  X(double, max)                         \
  X(double, empty_pct)

// GPU utilization, est. SM efficiency and est. occupancy per device (the
// TensorBoard plugin's definitions) over [ts, ts + dur); primary = 1 on the
// device the headline figures are about.
#define DAMSCOPE_DEVICE_UTILIZATION_COLUMNS(X) \
  X(int32_t, device)                           \
  X(int64_t, ts)                               \
  X(int64_t, dur)                              \
  X(int64_t, kernel_ns)                        \
  X(double, gpu_util_pct)                      \
  X(double, sm_efficiency_pct)                 \
  X(double, occupancy_pct)                     \
  X(int64_t, kernels_without_grid)             \
  X(int64_t, kernels_with_occupancy)           \
  X(int32_t, primary_device)

// The D·A·M scorecard: step time split by axis, one row per step and one for
// the run (step_id NULL). The *_ns of a row sum to dur; *_pct to 100.
// deciding_axis: the axis the verdict rests on.
#define DAMSCOPE_SCORECARD_COLUMNS(X)  \
  X(int64_t, step_id)                  \
  X(int64_t, ts)                       \
  X(int64_t, dur)                      \
  X(std::string, verdict)              \
  X(std::string, deciding_axis)        \
  X(int64_t, data_stall_ns)            \
  X(int64_t, host_stall_ns)            \
  X(int64_t, sync_stall_ns)            \
  X(int64_t, exposed_communication_ns) \
  X(int64_t, memory_bound_ns)          \
  X(int64_t, compute_bound_ns)         \
  X(int64_t, other_idle_ns)            \
  X(double, data_stall_pct)            \
  X(double, host_stall_pct)            \
  X(double, sync_stall_pct)            \
  X(double, exposed_communication_pct) \
  X(double, memory_bound_pct)          \
  X(double, compute_bound_pct)         \
  X(double, other_idle_pct)

// Findings of the rule engine, most important first. kind: performance or
// trace_quality. max_gain_pct: the most the step can shorten by fixing it
// (NULL: unknown).
#define DAMSCOPE_FINDING_COLUMNS(X) \
  X(std::string, rule)              \
  X(std::string, kind)              \
  X(std::string, severity)          \
  X(std::string, title)             \
  X(std::string, metric)            \
  X(double, value)                  \
  X(double, threshold)              \
  X(std::string, recommendation)    \
  X(double, max_gain_pct)

// The evidence of each finding, in order: a row of the gaps table or of an
// event table (event_table, event_id), with its time and a label.
#define DAMSCOPE_FINDING_EVIDENCE_COLUMNS(X) \
  X(int64_t, finding_id)                     \
  X(std::string, event_table)                \
  X(int64_t, event_id)                       \
  X(int64_t, ts)                             \
  X(int64_t, dur)                            \
  X(std::string, label)

// Every metric the finding rules read that the trace gives.
#define DAMSCOPE_METRIC_COLUMNS(X) \
  X(std::string, name)             \
  X(double, value)

// What the trace's stats table counts as lost, repaired or clipped.
#define DAMSCOPE_DATA_LOSS_COLUMNS(X) \
  X(int64_t, stats_id)                \
  X(std::string, stat)                \
  X(std::string, kind)                \
  X(int64_t, events)

// The headline figures of the rank: one row.
#define DAMSCOPE_SUMMARY_COLUMNS(X)  \
  X(std::string, source)             \
  X(int32_t, rank)                   \
  X(int32_t, world_size)             \
  X(int32_t, device)                 \
  X(std::string, device_name)        \
  X(std::string, device_kind)        \
  X(std::string, verdict)            \
  X(int32_t, verdict_may_be_off)     \
  X(double, starved_threshold_pct)   \
  X(int32_t, scorecard_device)       \
  X(std::string, window_mode)        \
  X(int32_t, window_cut)             \
  X(int64_t, window_cutoff_ns)       \
  X(int64_t, window_gpu_ops)         \
  X(int64_t, window_gpu_start_ns)    \
  X(int64_t, window_gpu_end_ns)      \
  X(int64_t, window_start_ns)        \
  X(int64_t, window_end_ns)          \
  X(int64_t, first_step)             \
  X(int64_t, steps_analysed)         \
  X(double, avg_step_ns)             \
  X(std::string, step_source)        \
  X(double, tokens_per_step)         \
  X(double, samples_per_step)        \
  X(std::string, throughput_source)  \
  X(int64_t, kernels)                \
  X(int64_t, kernel_ns)              \
  X(int64_t, fp32_matrix_ns)         \
  X(int64_t, tensor_core_ns)         \
  X(int64_t, matrix_ns)              \
  X(int64_t, launched_kernels)       \
  X(int64_t, kernels_with_launch)    \
  X(int64_t, shorter_than_launch)    \
  X(int64_t, shorter_than_threshold) \
  X(int64_t, runtime_outliers)       \
  X(int64_t, launch_delay_outliers)  \
  X(int64_t, utilization_steps)      \
  X(int64_t, overview_steps)         \
  X(int32_t, overview_whole_span)    \
  X(double, overview_avg_step_ns)    \
  X(double, overview_kernel_ns)      \
  X(double, overview_memcpy_ns)      \
  X(double, overview_memset_ns)      \
  X(double, overview_runtime_ns)     \
  X(double, overview_dataloader_ns)  \
  X(double, overview_cpu_exec_ns)    \
  X(double, overview_other_ns)       \
  X(int64_t, events)                 \
  X(int64_t, lost_events)            \
  X(int64_t, repaired_events)        \
  X(int64_t, clipped_events)               \
  X(std::string, mfu_flops_source)         \
  X(std::string, model)                    \
  X(double, model_params)                  \
  X(int64_t, model_layers)                 \
  X(int64_t, model_d_model)                \
  X(int64_t, model_heads)                  \
  X(int64_t, model_seq_len)                \
  X(int64_t, model_vocab)                  \
  X(double, flops_per_token)               \
  X(std::string, precision)                \
  X(std::string, precision_source)         \
  X(double, precision_share_pct)           \
  X(std::string, peak_source)              \
  X(std::string, peak_device)              \
  X(double, peak_flops_per_s)              \
  X(double, bandwidth_bytes_per_s)         \
  X(double, model_flops_per_step)          \
  X(double, achieved_flops_per_s)          \
  X(double, mfu_pct)                       \
  X(double, mfu_impossible_pct)            \
  X(std::string, mfu_likely_wrong)         \
  X(double, hardware_flops_per_step)       \
  X(double, hfu_pct)                       \
  X(int64_t, roofline_kernels)             \
  X(double, roofline_time_pct)             \
  X(int64_t, measured_kernels)             \
  X(int64_t, annotated_kernels)            \
  X(int64_t, estimated_kernels)            \
  X(int32_t, memory_estimated)             \
  X(double, memory_state_bytes)            \
  X(double, memory_activation_bytes)       \
  X(double, memory_total_bytes)            \
  X(double, memory_device_bytes)           \
  X(double, memory_pct)                    \
  X(int64_t, memory_micro_batch)           \
  X(int32_t, memory_micro_batch_from_tokens)\
  X(int32_t, memory_ranks)                 \
  X(double, memory_zero1_bytes)            \
  X(double, memory_zero2_bytes)            \
  X(double, memory_zero3_bytes)

// What could not be computed, and why (no GPU events, no correlation ids, ...).
#define DAMSCOPE_NOTE_COLUMNS(X) \
  X(std::string, analysis)       \
  X(std::string, message)        \
  X(std::string, remedy)

// MFU and HFU per step (the run's figures are in summary).
#define DAMSCOPE_MFU_STEP_COLUMNS(X) \
  X(int64_t, step_id)                \
  X(double, model_flops)             \
  X(double, mfu_pct)                 \
  X(double, hardware_flops)          \
  X(double, hfu_pct)

// Roofline points: one per kernel name (kind "kernel") and per kernel class
// (kind "class"), over the analysis window.
#define DAMSCOPE_ROOFLINE_COLUMNS(X) \
  X(std::string, kind)               \
  X(std::string, name)               \
  X(std::string, category)           \
  X(std::string, precision)          \
  X(std::string, source)             \
  X(int64_t, kernels)                \
  X(int64_t, time_ns)                \
  X(double, flops)                   \
  X(double, bytes)                   \
  X(double, intensity)               \
  X(double, achieved_flops_per_s)    \
  X(double, ceiling_flops_per_s)     \
  X(double, pct_of_ceiling)          \
  X(int32_t, memory_bound)           \
  X(int64_t, example_kernel_id)

// The roofline's roofs: the peak of each precision the points use, and its
// ridge point (peak / memory bandwidth).
#define DAMSCOPE_ROOFLINE_CEILING_COLUMNS(X) \
  X(std::string, precision)                  \
  X(double, peak_flops_per_s)                \
  X(double, ridge_flops_per_byte)

// Collectives against the link: NCCL bus bytes over their kernels' time.
#define DAMSCOPE_COLLECTIVE_COLUMNS(X) \
  X(std::string, name)                 \
  X(int64_t, kernels)                  \
  X(int64_t, time_ns)                  \
  X(double, bus_bytes)                 \
  X(double, achieved_bytes_per_s)      \
  X(double, link_bytes_per_s)          \
  X(double, pct_of_link)

// The rank's communication kernels in the analysis window, in time order:
// what the cross-rank analysis compares across ranks (analyzer/analyses/
// cross_rank.h), stored so that ranks analysed on their own can be compared
// later without reading their events.
#define DAMSCOPE_COLLECTIVE_START_COLUMNS(X) \
  X(std::string, name)                       \
  X(int64_t, ts)

// Cross-rank comparison, one row per rank analysed together with this one;
// this_rank = 1 on the row of the file's own rank.
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
  X(double, last_to_start_pct)              \
  X(int32_t, this_rank)

DAMSCOPE_DEFINE_TABLE(StepResultTable, "steps", DAMSCOPE_STEP_COLUMNS)
DAMSCOPE_DEFINE_TABLE(BreakdownTable, "breakdown", DAMSCOPE_BREAKDOWN_COLUMNS)
DAMSCOPE_DEFINE_TABLE(GapTable, "gaps", DAMSCOPE_GAP_COLUMNS)
DAMSCOPE_DEFINE_TABLE(KernelCategoryTable, "kernel_categories", DAMSCOPE_KERNEL_CATEGORY_COLUMNS)
DAMSCOPE_DEFINE_TABLE(TopKernelTable, "top_kernels", DAMSCOPE_TOP_KERNEL_COLUMNS)
DAMSCOPE_DEFINE_TABLE(LaunchStatTable, "launch_stats", DAMSCOPE_LAUNCH_STAT_COLUMNS)
DAMSCOPE_DEFINE_TABLE(LaunchQueueTable, "launch_queues", DAMSCOPE_LAUNCH_QUEUE_COLUMNS)
DAMSCOPE_DEFINE_TABLE(DeviceUtilizationTable, "device_utilization",
                      DAMSCOPE_DEVICE_UTILIZATION_COLUMNS)
DAMSCOPE_DEFINE_TABLE(ScorecardTable, "scorecard", DAMSCOPE_SCORECARD_COLUMNS)
DAMSCOPE_DEFINE_TABLE(FindingTable, "findings", DAMSCOPE_FINDING_COLUMNS)
DAMSCOPE_DEFINE_TABLE(FindingEvidenceTable, "finding_evidence", DAMSCOPE_FINDING_EVIDENCE_COLUMNS)
DAMSCOPE_DEFINE_TABLE(MetricTable, "metrics", DAMSCOPE_METRIC_COLUMNS)
DAMSCOPE_DEFINE_TABLE(DataLossTable, "data_loss", DAMSCOPE_DATA_LOSS_COLUMNS)
DAMSCOPE_DEFINE_TABLE(SummaryTable, "summary", DAMSCOPE_SUMMARY_COLUMNS)
DAMSCOPE_DEFINE_TABLE(NoteTable, "analysis_notes", DAMSCOPE_NOTE_COLUMNS)
DAMSCOPE_DEFINE_TABLE(RankComparisonTable, "rank_comparison", DAMSCOPE_RANK_COMPARISON_COLUMNS)
DAMSCOPE_DEFINE_TABLE(MfuStepTable, "mfu_steps", DAMSCOPE_MFU_STEP_COLUMNS)
DAMSCOPE_DEFINE_TABLE(RooflineTable, "roofline", DAMSCOPE_ROOFLINE_COLUMNS)
DAMSCOPE_DEFINE_TABLE(RooflineCeilingTable, "roofline_ceilings", DAMSCOPE_ROOFLINE_CEILING_COLUMNS)
DAMSCOPE_DEFINE_TABLE(CollectiveTable, "collectives", DAMSCOPE_COLLECTIVE_COLUMNS)
DAMSCOPE_DEFINE_TABLE(CollectiveStartTable, "collective_starts", DAMSCOPE_COLLECTIVE_START_COLUMNS)

// Everything one `damscope analyze` stores for one rank. Written as a whole:
// storing replaces every earlier result (trace/analysis_store.h). The
// analyzer's result model (analyzer/result/analysis_result.h) is what these
// rows serialize (analyzer/report/result_rows.h).
struct AnalysisTables {
  SummaryTable summary;
  StepResultTable steps;
  BreakdownTable breakdown;
  GapTable gaps;
  KernelCategoryTable kernel_categories;
  TopKernelTable top_kernels;
  LaunchStatTable launch_stats;
  LaunchQueueTable launch_queues;
  DeviceUtilizationTable device_utilization;
  ScorecardTable scorecard;
  FindingTable findings;
  FindingEvidenceTable finding_evidence;
  MetricTable metrics;
  DataLossTable data_loss;
  NoteTable notes;
  RankComparisonTable rank_comparison;
  MfuStepTable mfu_steps;
  RooflineTable roofline;
  RooflineCeilingTable roofline_ceilings;
  CollectiveTable collectives;
  CollectiveStartTable collective_starts;

  template <typename Visit>
  void forEachTable(Visit&& visit) {
    visit(summary), visit(steps), visit(breakdown), visit(gaps), visit(kernel_categories);
    visit(top_kernels), visit(launch_stats), visit(launch_queues), visit(device_utilization);
    visit(scorecard), visit(findings), visit(finding_evidence), visit(metrics), visit(data_loss);
    visit(notes), visit(rank_comparison), visit(mfu_steps), visit(roofline);
    visit(roofline_ceilings), visit(collectives), visit(collective_starts);
  }
  template <typename Visit>
  void forEachTable(Visit&& visit) const {
    visit(summary), visit(steps), visit(breakdown), visit(gaps), visit(kernel_categories);
    visit(top_kernels), visit(launch_stats), visit(launch_queues), visit(device_utilization);
    visit(scorecard), visit(findings), visit(finding_evidence), visit(metrics), visit(data_loss);
    visit(notes), visit(rank_comparison), visit(mfu_steps), visit(roofline);
    visit(roofline_ceilings), visit(collectives), visit(collective_starts);
  }
};

// Version of the stored results, in meta as "analysis_schema_version": of
// the analysis tables' layout, and of what the analyses put in them. Bump it
// when either changes, so that results an older damscope stored are computed
// again instead of shown (the GUI and the report read any stored results of
// this version). 5: the kernels_below_roof finding and the FP32 reading of
// cuBLAS's FFMA kernels.
constexpr int kAnalysisSchemaVersion = 5;

}  // namespace damscope
