// The analysis tables: what `damscope analyze` stores beside the events in a
// run.db so that the GUI and the reports read results instead of recomputing
// them (DESIGN.md, "Trace store"), declared once, figure by figure.
//
// Each table is an X-macro list with the trace store's machinery
// (trace/tables.h); an entry is
//
//   X(type, column, null, doc, figure, json)
//
// - type, column: the stored column (its SQL type follows from the C++ type);
// - null: the column rule: its constraint, kNotNull or kNullable, and the
//   range the figure may hold: percent(...) 0..100, nonNegative(...) >= 0 for
//   durations, counts and sizes, flag(...) 0/1; the constraint alone for any
//   value of the type (times, ids, signed shares), a double always finite
//   (stored_figure.h, FigureRange). The reader refuses results with a figure
//   outside its range (result_rows.h);
// - doc: its line in the column reference (docs/analysis.md is generated from
//   these, with each table's doc; tests/schema_agreement_test.cc checks it);
// - figure: where the value lives in the result model (analysis_result.h),
//   as an expression of `x`, the element a row is of (RankResult for the
//   summary, a GapResult for a gaps row, ...): a field (`x.window.cut`),
//   DAMSCOPE_IN(x.memory, state_bytes) for a member of an optional part
//   (NULL while the part is absent), DAMSCOPE_KEY_OF(...) for the member
//   whose value says the part is there, presenceOf(x.memory) for a 0/1 flag
//   that says so, DAMSCOPE_DERIVED(expr) for a value computed from the model (written,
//   not read back: the model recomputes it), or kByCode where the table's code
//   in result_rows.cc maps the column (ids, a row's kind, the primary device);
// - json: where `damscope analyze --format json` shows the figure and how
//   (inJson(key, ..., form), analyzer/result/stored_figure.h), or kNoJson.
//
// From these follow the column vectors and rows, the CREATE statements
// (trace/table_schema.h), the write and read of the result model
// (result_rows.cc: toAnalysisTables, toRankResult) and the JSON of each
// declared figure (analyzer/report/result_json.cc). Adding a stored figure is
// one entry here, and its renderers.
//
// Conventions: the row index is the table's `id`; `step_id` names a steps.id
// and is NULL for figures about the whole analysis window (or the run);
// `*_id` columns that name event tables hold that table's id. Times are int64
// ns on the trace's clock; `*_pct` are percentages (0..100 where they are
// shares of a whole; those that can pass 100, like a model's memory of the
// device's, say so with nonNegative).
#pragma once

#include "analyzer/result/analysis_result.h"
#include "analyzer/result/stored_figure.h"
#include "trace/tables.h"

namespace damscope {

#define DAMSCOPE_SUMMARY_COLUMNS(X)                                                                \
  X(std::string, source, kNullable, "the input the trace came from", x.source, inJson("source"))   \
  X(int32_t, rank, kNullable, "global rank, from the trace", x.rank, inJson("rank"))               \
  X(int32_t, world_size, nonNegative(kNullable), "ranks in the job, from the trace", x.world_size, \
    kNoJson)                                                                                       \
  X(int32_t, device, kNullable, "the primary device (most kernel time)", x.device,                 \
    inJson("device"))                                                                              \
  X(std::string, device_name, kNullable, "its name", x.device_name,                                \
    inJson("device_name", JsonForm::kTextOrNull))                                                  \
  X(std::string, device_kind, kNullable, "`gpu`, or `cpu` on a CPU run (see \"CPU runs\")",        \
    x.device_kind, inJson("device_kind"))                                                          \
  X(std::string, framework, kNullable,                                                             \
    "`pytorch`, `jax`, `cuda` (no framework) or `trainer` (the bundled GPT-2 trainer): whose "      \
    "words the recommendations use (Findings)",                                                    \
    x.framework, inJson("framework"))                                                              \
  X(std::string, verdict, kNotNull,                                                                \
    "`data-bound`, `host-bound`, `communication-bound`, `memory-bound`, `compute-bound`, "         \
    "`starved` (the largest stall is idle the trace does not explain), `none`",                    \
    DAMSCOPE_DERIVED(x.verdict()), inJson("verdict"))                                              \
  X(int32_t, verdict_may_be_off, flag(kNotNull),                                                   \
    "1: so many events were lost on the way in that the verdict may be wrong (Data loss)",         \
    x.verdict_may_be_off, inJson("verdict_may_be_off"))                                            \
  X(double, starved_threshold_pct, percent(kNullable),                                             \
    "the stall share from which the GPU counts as starved", x.starved_threshold_pct, kNoJson)      \
  X(int32_t, scorecard_device, kNullable, "the device the scorecard is about",                     \
    DAMSCOPE_DERIVED(x.scorecard ? x.scorecard->device : kNullInt32), kNoJson)                     \
  X(std::string, window_mode, kNotNull, "`hta` or `all`", x.window.mode, inJson("window"))         \
  X(int32_t, window_cut, flag(kNotNull), "1: HTA's cut of the last step was applied",              \
    x.window.cut, kNoJson)                                                                         \
  X(int64_t, window_cutoff_ns, kNullable, "CPU events start before this", x.window.cutoff_ns,      \
    kNoJson)                                                                                       \
  X(int64_t, window_gpu_ops, nonNegative(kNotNull), "GPU operations in the window",                \
    x.window.gpu_ops, kNoJson)                                                                     \
  X(int64_t, window_gpu_start_ns, kNullable, "the first start of those", x.window.gpu_start_ns,    \
    kNoJson)                                                                                       \
  X(int64_t, window_gpu_end_ns, kNullable, "the last end of those", x.window.gpu_end_ns, kNoJson)  \
  X(int64_t, window_start_ns, kNullable, "the analysed time range", x.window.start_ns, kNoJson)    \
  X(int64_t, window_end_ns, kNullable, "the analysed time range", x.window.end_ns, kNoJson)        \
  X(int64_t, first_step, nonNegative(kNotNull),                                                    \
    "steps `[first_step, first_step + steps_analysed)` are analysed", x.window.first_step,         \
    kNoJson)                                                                                       \
  X(int64_t, steps_analysed, nonNegative(kNotNull), "how many steps are analysed",                 \
    x.window.step_count, kNoJson)                                                                  \
  X(double, avg_step_ns, nonNegative(kNullable), "mean duration of the analysed steps",            \
    x.window.avg_step_ns, kNoJson)                                                                 \
  X(std::string, step_source, kNotNull, "`profiler_step`, `trainer`, `annotation` or `none`",      \
    x.step_source, inJson("step_source"))                                                          \
  X(double, tokens_per_step, nonNegative(kNullable), "from the options or the model annotation",   \
    x.tokens_per_step, kNoJson)                                                                    \
  X(double, samples_per_step, nonNegative(kNullable), "from the options or the model annotation",  \
    x.samples_per_step, kNoJson)                                                                   \
  X(std::string, throughput_source, kNullable, "`options` or `model annotation`",                  \
    x.throughput_source, kNoJson)                                                                  \
  X(int64_t, kernels, nonNegative(kNotNull), "kernels in the window", x.kernels.kernels, kNoJson)  \
  X(int64_t, kernel_ns, nonNegative(kNotNull), "their summed durations", x.kernels.total_ns,       \
    kNoJson)                                                                                       \
  X(int64_t, fp32_matrix_ns, nonNegative(kNotNull),                                                \
    "GEMM/convolution/attention time in FP32 on CUDA cores", x.kernels.fp32_matrix_ns, kNoJson)    \
  X(int64_t, tensor_core_ns, nonNegative(kNotNull), "the same on tensor cores",                    \
    x.kernels.tensor_core_ns, kNoJson)                                                             \
  X(int64_t, matrix_ns, nonNegative(kNotNull), "the same in all", x.kernels.matrix_ns, kNoJson)    \
  X(int64_t, launched_kernels, nonNegative(kNotNull), "kernels the launch statistics are over",    \
    x.launches.kernels, kNoJson)                                                                   \
  X(int64_t, kernels_with_launch, nonNegative(kNotNull), "those whose launch call is known",       \
    x.launches.kernels_with_launch, kNoJson)                                                       \
  X(int64_t, shorter_than_launch, nonNegative(kNotNull),                                           \
    "kernels shorter than their launch call (HTA)", x.launches.shorter_than_launch, kNoJson)       \
  X(int64_t, shorter_than_threshold, nonNegative(kNotNull), "kernels shorter than 10 µs",          \
    x.launches.shorter_than_threshold, kNoJson)                                                    \
  X(int64_t, runtime_outliers, nonNegative(kNotNull), "launch calls over 50 µs (HTA)",             \
    x.launches.runtime_outliers, kNoJson)                                                          \
  X(int64_t, launch_delay_outliers, nonNegative(kNotNull), "launch delays over 100 µs (HTA)",      \
    x.launches.launch_delay_outliers, kNoJson)                                                     \
  X(int64_t, utilization_steps, nonNegative(kNotNull),                                             \
    "steps the utilization figures are over; 0: the whole span", x.utilization.steps_used,         \
    kNoJson)                                                                                       \
  X(int64_t, overview_steps, nonNegative(kNotNull),                                                \
    "steps the TensorBoard overview averages are over", x.overview.steps, kNoJson)                 \
  X(int32_t, overview_whole_span, flag(kNotNull), "1: no steps, the whole span",                   \
    x.overview.whole_span, kNoJson)                                                                \
  X(double, overview_avg_step_ns, nonNegative(kNullable), "the plugin's average step time",        \
    x.overview.avg_step_ns, inJson("avg_step_us", JsonForm::kMicroseconds))                        \
  X(double, overview_kernel_ns, nonNegative(kNullable), "the plugin's average step split by role", \
    x.overview.avg_ns[size_t(OverviewRole::kKernel)], kNoJson)                                     \
  X(double, overview_memcpy_ns, nonNegative(kNullable), "the plugin's average step split by role", \
    x.overview.avg_ns[size_t(OverviewRole::kMemcpy)], kNoJson)                                     \
  X(double, overview_memset_ns, nonNegative(kNullable), "the plugin's average step split by role", \
    x.overview.avg_ns[size_t(OverviewRole::kMemset)], kNoJson)                                     \
  X(double, overview_runtime_ns, nonNegative(kNullable),                                           \
    "the plugin's average step split by role", x.overview.avg_ns[size_t(OverviewRole::kRuntime)],  \
    kNoJson)                                                                                       \
  X(double, overview_dataloader_ns, nonNegative(kNullable),                                        \
    "the plugin's average step split by role",                                                     \
    x.overview.avg_ns[size_t(OverviewRole::kDataLoader)], kNoJson)                                 \
  X(double, overview_cpu_exec_ns, nonNegative(kNullable),                                          \
    "the plugin's average step split by role", x.overview.avg_ns[size_t(OverviewRole::kCpuExec)],  \
    kNoJson)                                                                                       \
  X(double, overview_other_ns, nonNegative(kNullable), "the plugin's average step split by role",  \
    x.overview.avg_ns[size_t(OverviewRole::kOther)], kNoJson)                                      \
  X(int64_t, events, nonNegative(kNotNull), "events stored in the trace", x.data_loss.events,      \
    inJson("data_loss", "events"))                                                                 \
  X(int64_t, lost_events, nonNegative(kNotNull),                                                   \
    "lost on the way in, counted in `stats` (Data loss)", x.data_loss.lost,                        \
    inJson("data_loss", "lost"))                                                                   \
  X(int64_t, repaired_events, nonNegative(kNotNull), "repaired on the way in, counted in `stats`", \
    x.data_loss.repaired, inJson("data_loss", "repaired"))                                         \
  X(int64_t, clipped_events, nonNegative(kNotNull), "clipped on the way in, counted in `stats`",   \
    x.data_loss.clipped, inJson("data_loss", "clipped"))                                           \
  X(std::string, mfu_flops_source, kNotNull,                                                       \
    "where model FLOPs came from: `none`, `user_model`, `model_annotation`, `profiler_ops`, "      \
    "`op_shapes` (MFU)",                                                                           \
    x.mfu.flops_source, inJson("mfu", "flops_source"))                                             \
  X(std::string, model, kNullable, "the model MFU counts", DAMSCOPE_IN(x.mfu.model, name),         \
    inJson("mfu", "model", "name"))                                                                \
  X(double, model_params, nonNegative(kNullable), "its parameter count N; NULL: no model",         \
    DAMSCOPE_KEY_OF(x.mfu.model, params), inJson("mfu", "model", "params"))                        \
  X(int64_t, model_layers, nonNegative(kNullable), "its shape, where known",                       \
    DAMSCOPE_IN(x.mfu.model, layers), inJson("mfu", "model", "layers"))                            \
  X(int64_t, model_d_model, nonNegative(kNullable), "its shape, where known",                      \
    DAMSCOPE_IN(x.mfu.model, d_model), inJson("mfu", "model", "d_model"))                          \
  X(int64_t, model_heads, nonNegative(kNullable), "its shape, where known",                        \
    DAMSCOPE_IN(x.mfu.model, heads), inJson("mfu", "model", "heads"))                              \
  X(int64_t, model_seq_len, nonNegative(kNullable), "its shape, where known",                      \
    DAMSCOPE_IN(x.mfu.model, seq_len), inJson("mfu", "model", "seq_len"))                          \
  X(int64_t, model_vocab, nonNegative(kNullable), "its shape, where known",                        \
    DAMSCOPE_IN(x.mfu.model, vocab), inJson("mfu", "model", "vocab"))                              \
  X(double, flops_per_token, nonNegative(kNullable),                                               \
    "training FLOPs per token: 6 N, + 6 L d T with the shape", x.mfu.flops_per_token,              \
    inJson("mfu", "flops_per_token"))                                                              \
  X(std::string, precision, kNotNull,                                                              \
    "the precision the peak is taken at: `fp64`, `fp32`, `tf32`, `fp16`, `bf16`, `fp8`",           \
    x.mfu.precision.precision, inJson("mfu", "precision"))                                         \
  X(std::string, precision_source, kNotNull,                                                       \
    "`user`, `model_annotation`, `kernel_names`, `default`", x.mfu.precision.source,               \
    inJson("mfu", "precision_source"))                                                             \
  X(double, precision_share_pct, percent(kNullable),                                               \
    "with `kernel_names`: its share of the matrix kernels' time", x.mfu.precision.share_pct,       \
    kNoJson)                                                                                       \
  X(std::string, peak_source, kNotNull,                                                            \
    "`none`, `user`, `user_device`, `model_annotation`, `trace_device`", x.mfu.peak_source,        \
    inJson("mfu", "peak_source"))                                                                  \
  X(std::string, peak_device, kNullable, "what the peak is of, and how the device was matched",    \
    x.mfu.peak_device, inJson("mfu", "peak_device", JsonForm::kTextOrNull))                        \
  X(double, peak_flops_per_s, nonNegative(kNullable), "the peak at `precision`",                   \
    x.mfu.peak_flops_per_s, inJson("mfu", "peak_flops_per_s"))                                     \
  X(double, bandwidth_bytes_per_s, nonNegative(kNullable), "the device's memory bandwidth",        \
    x.roofline.bandwidth_bytes_per_s, inJson("roofline", "bandwidth_bytes_per_s"))                 \
  X(double, model_flops_per_step, nonNegative(kNullable), "mean over the analysed steps",          \
    x.mfu.model_flops_per_step, inJson("mfu", "model_flops_per_step"))                             \
  X(double, achieved_flops_per_s, nonNegative(kNullable),                                          \
    "model FLOPs over the analysed steps' time", x.mfu.achieved_flops_per_s,                       \
    inJson("mfu", "achieved_flops_per_s"))                                                         \
  X(double, mfu_pct, percent(kNullable),                                                           \
    "model FLOPs utilization; NULL when unknown or impossible", x.mfu.mfu_pct,                     \
    inJson("mfu", "mfu_pct", JsonForm::kPct))                                                      \
  X(double, mfu_impossible_pct, nonNegative(kNullable),                                            \
    "the MFU the inputs imply when above 100 % (an input is wrong)", x.mfu.impossible_pct,         \
    inJson("mfu", "impossible_pct", JsonForm::kPct))                                               \
  X(std::string, mfu_likely_wrong, kNullable, "which input, then", x.mfu.likely_wrong,             \
    inJson("mfu", "likely_wrong", JsonForm::kTextOrNull))                                          \
  X(double, hardware_flops_per_step, nonNegative(kNullable),                                       \
    "FLOPs the hardware counters measured, mean per step", x.mfu.hardware_flops_per_step,          \
    inJson("mfu", "hardware_flops_per_step"))                                                      \
  X(double, hardware_flops_window, nonNegative(kNullable),                                         \
    "FLOPs the counters measured in the window", x.mfu.hardware_flops_window,                      \
    inJson("mfu", "hardware_flops_window"))                                                        \
  X(double, hfu_pct, percent(kNullable), "hardware FLOPs utilization", x.mfu.hfu_pct,              \
    inJson("mfu", "hfu_pct", JsonForm::kPct))                                                      \
  X(double, op_shapes_coverage_pct, percent(kNullable),                                            \
    "the share of computation kernel time whose work op shapes gave, where they were tried",       \
    x.mfu.op_shapes_coverage_pct, inJson("mfu", "op_shapes_coverage_pct", JsonForm::kPct))         \
  X(int64_t, roofline_kernels, nonNegative(kNotNull), "window kernels with FLOPs or bytes",        \
    x.roofline.kernels_with_work, inJson("roofline", "kernels_with_work"))                         \
  X(double, roofline_time_pct, percent(kNullable),                                                 \
    "their share of the window's computation kernel time (collectives apart)",                     \
    x.roofline.time_with_work_pct, inJson("roofline", "time_with_work_pct", JsonForm::kPct))       \
  X(int64_t, measured_kernels, nonNegative(kNotNull), "of those, kernels whose work was measured", \
    x.roofline.kernels_by_source[size_t(MetricSource::kMeasured)], kNoJson)                        \
  X(int64_t, annotated_kernels, nonNegative(kNotNull), "... annotated by the workload",            \
    x.roofline.kernels_by_source[size_t(MetricSource::kAnnotated)], kNoJson)                       \
  X(int64_t, estimated_kernels, nonNegative(kNotNull), "... estimated from shapes",                \
    x.roofline.kernels_by_source[size_t(MetricSource::kEstimated)], kNoJson)                       \
  X(double, measured_time_pct, percent(kNullable),                                                 \
    "the share of computation kernel time measured",                                               \
    x.roofline.time_by_source_pct[size_t(MetricSource::kMeasured)],                                \
    inJson("roofline", "measured_time_pct", JsonForm::kPct))                                       \
  X(double, annotated_time_pct, percent(kNullable), "... annotated",                               \
    x.roofline.time_by_source_pct[size_t(MetricSource::kAnnotated)],                               \
    inJson("roofline", "annotated_time_pct", JsonForm::kPct))                                      \
  X(double, estimated_time_pct, percent(kNullable), "... estimated from shapes",                   \
    x.roofline.time_by_source_pct[size_t(MetricSource::kEstimated)],                               \
    inJson("roofline", "estimated_time_pct", JsonForm::kPct))                                      \
  X(int32_t, memory_estimated, flag(kNotNull), "1: the `memory_*` columns hold an estimate",       \
    presenceOf(x.memory), kNoJson)                                                                 \
  X(double, memory_state_bytes, nonNegative(kNullable), "weights, gradients and optimizer state",  \
    DAMSCOPE_IN(x.memory, state_bytes), inJson("memory", "state_bytes"))                           \
  X(double, memory_activation_bytes, nonNegative(kNullable), "activations (upper bound)",          \
    DAMSCOPE_IN(x.memory, activation_bytes), inJson("memory", "activation_bytes"))                 \
  X(double, memory_total_bytes, nonNegative(kNullable), "their sum",                               \
    DAMSCOPE_IN(x.memory, total_bytes), inJson("memory", "total_bytes"))                           \
  X(double, memory_device_bytes, nonNegative(kNullable), "the device's memory",                    \
    DAMSCOPE_IN(x.memory, device_bytes), inJson("memory", "device_bytes"))                         \
  X(double, memory_pct, nonNegative(kNullable), "the total, of the device's memory",               \
    DAMSCOPE_IN(x.memory, pct_of_device), inJson("memory", "pct_of_device", JsonForm::kPct))       \
  X(int64_t, memory_micro_batch, nonNegative(kNullable),                                           \
    "sequences per micro-batch the activations are for; 0: unknown",                               \
    DAMSCOPE_IN(x.memory, micro_batch), inJson("memory", "micro_batch", JsonForm::kPositive))      \
  X(int32_t, memory_micro_batch_from_tokens, flag(kNullable),                                      \
    "1: tokens per step / sequence length, not the annotation's",                                  \
    DAMSCOPE_IN(x.memory, micro_batch_from_tokens), inJson("memory", "micro_batch_from_tokens"))   \
  X(int32_t, memory_ranks, nonNegative(kNullable),                                                 \
    "data-parallel ranks the ZeRO figures shard over", DAMSCOPE_IN(x.memory, ranks),               \
    inJson("memory", "ranks"))                                                                     \
  X(double, memory_zero1_bytes, nonNegative(kNullable),                                            \
    "training state per GPU with ZeRO stage 1", DAMSCOPE_IN(x.memory, zero_state_bytes[0]),        \
    inJsonArray("memory", "zero_state_bytes", 0))                                                  \
  X(double, memory_zero2_bytes, nonNegative(kNullable),                                            \
    "training state per GPU with ZeRO stage 2", DAMSCOPE_IN(x.memory, zero_state_bytes[1]),        \
    inJsonArray("memory", "zero_state_bytes", 1))                                                  \
  X(double, memory_zero3_bytes, nonNegative(kNullable),                                            \
    "training state per GPU with ZeRO stage 3", DAMSCOPE_IN(x.memory, zero_state_bytes[2]),        \
    inJsonArray("memory", "zero_state_bytes", 2))

// x: a StepResult.
#define DAMSCOPE_STEP_COLUMNS(X)                                                                   \
  X(int64_t, number, kNotNull, "N of `ProfilerStep#N`, else the step's ordinal", x.number,         \
    inJson("number"))                                                                              \
  X(std::string, name, kNullable, "the step range's name", x.name, inJson("name"))                 \
  X(int64_t, range_id, kNullable, "`ranges.id` of the step range", x.range_id, kNoJson)            \
  X(int64_t, host_ts, kNotNull, "the host range", x.host_ts, inJson("host_start_ns"))              \
  X(int64_t, host_dur, nonNegative(kNotNull), "the host range", x.host_dur, inJson("host_dur_ns")) \
  X(int64_t, ts, kNotNull,                                                                         \
    "the step aligned to the GPU work it launched (TensorBoard plugin rule)", x.ts,                \
    inJson("start_ns"))                                                                            \
  X(int64_t, dur, nonNegative(kNotNull),                                                           \
    "the step aligned to the GPU work it launched (TensorBoard plugin rule)", x.dur,               \
    inJson("dur_ns"))                                                                              \
  X(int32_t, in_window, flag(kNotNull), "1: analysed by the analysis window", x.in_window,         \
    inJson("in_window"))                                                                           \
  X(int32_t, complete, flag(kNotNull), "0: the profiler probably cut its GPU work off",            \
    x.complete, inJson("complete"))                                                                \
  X(int64_t, gpu_launches, nonNegative(kNotNull),                                                  \
    "launch calls inside the step that ran GPU work", x.gpu_launches, kNoJson)                     \
  X(double, tokens_per_s, nonNegative(kNullable), "throughput over the aligned step",              \
    x.tokens_per_s, inJson("tokens_per_s"))                                                        \
  X(double, samples_per_s, nonNegative(kNullable), "throughput over the aligned step",             \
    x.samples_per_s, inJson("samples_per_s"))                                                      \
  X(int64_t, critical_path_ns, nonNegative(kNullable),                                             \
    "the step's critical path length (see Critical path); NULL: not an analysed step",            \
    DAMSCOPE_KEY_OF(x.critical_path, length_ns), inJson("critical_path", "length_ns")) \
  X(int64_t, path_cpu_ns, nonNegative(kNullable), "the critical path's time bounded by cpu",  \
    DAMSCOPE_IN(x.critical_path, bound_ns[size_t(PathBound::kCpu)]),                               \
    inJson("critical_path", "cpu_ns")) \
  X(int64_t, path_data_ns, nonNegative(kNullable), "the critical path's time bounded by data",  \
    DAMSCOPE_IN(x.critical_path, bound_ns[size_t(PathBound::kData)]),                               \
    inJson("critical_path", "data_ns")) \
  X(int64_t, path_kernel_ns, nonNegative(kNullable), "the critical path's time bounded by kernel",  \
    DAMSCOPE_IN(x.critical_path, bound_ns[size_t(PathBound::kKernel)]),                               \
    inJson("critical_path", "kernel_ns")) \
  X(int64_t, path_communication_ns, nonNegative(kNullable), "the critical path's time bounded by communication",  \
    DAMSCOPE_IN(x.critical_path, bound_ns[size_t(PathBound::kCommunication)]),                               \
    inJson("critical_path", "communication_ns")) \
  X(int64_t, path_launch_delay_ns, nonNegative(kNullable), "the critical path's time bounded by launch delay",  \
    DAMSCOPE_IN(x.critical_path, bound_ns[size_t(PathBound::kLaunchDelay)]),                               \
    inJson("critical_path", "launch_delay_ns")) \
  X(int64_t, path_kernel_gap_ns, nonNegative(kNullable), "the critical path's time bounded by kernel gap",  \
    DAMSCOPE_IN(x.critical_path, bound_ns[size_t(PathBound::kKernelGap)]),                               \
    inJson("critical_path", "kernel_gap_ns")) \
  X(int64_t, path_without_cpu_ns, nonNegative(kNullable),                                        \
    "the critical path's length with the cpu time free (its edges weighing 0)",    \
    DAMSCOPE_IN(x.critical_path, without_ns[size_t(PathBound::kCpu)]),                             \
    inJson("critical_path", "without_cpu_ns")) \
  X(int64_t, path_without_data_ns, nonNegative(kNullable),                                        \
    "the critical path's length with the data time free (its edges weighing 0)",    \
    DAMSCOPE_IN(x.critical_path, without_ns[size_t(PathBound::kData)]),                             \
    inJson("critical_path", "without_data_ns")) \
  X(int64_t, path_without_kernel_ns, nonNegative(kNullable),                                        \
    "the critical path's length with the kernel time free (its edges weighing 0)",    \
    DAMSCOPE_IN(x.critical_path, without_ns[size_t(PathBound::kKernel)]),                             \
    inJson("critical_path", "without_kernel_ns")) \
  X(int64_t, path_without_communication_ns, nonNegative(kNullable),                                        \
    "the critical path's length with the communication time free (its edges weighing 0)",    \
    DAMSCOPE_IN(x.critical_path, without_ns[size_t(PathBound::kCommunication)]),                             \
    inJson("critical_path", "without_communication_ns")) \
  X(int64_t, path_without_launch_delay_ns, nonNegative(kNullable),                                        \
    "the critical path's length with the launch delay time free (its edges weighing 0)",    \
    DAMSCOPE_IN(x.critical_path, without_ns[size_t(PathBound::kLaunchDelay)]),                             \
    inJson("critical_path", "without_launch_delay_ns")) \
  X(int64_t, path_without_kernel_gap_ns, nonNegative(kNullable),                                        \
    "the critical path's length with the kernel gap time free (its edges weighing 0)",    \
    DAMSCOPE_IN(x.critical_path, without_ns[size_t(PathBound::kKernelGap)]),                             \
    inJson("critical_path", "without_kernel_gap_ns"))

// x: a BreakdownFigures.
#define DAMSCOPE_BREAKDOWN_COLUMNS(X)                                                              \
  X(int64_t, step_id, kNullable, "`steps.id`; NULL: the analysis window (HTA's definition)",       \
    kByCode, kNoJson)                                                                              \
  X(int64_t, ts, kNotNull, "span: first GPU start to last GPU end (window), or the step", x.start, \
    kNoJson)                                                                                       \
  X(int64_t, dur, nonNegative(kNotNull),                                                           \
    "span: first GPU start to last GPU end (window), or the step", DAMSCOPE_DERIVED(x.span()),     \
    kNoJson)                                                                                       \
  X(int64_t, idle_ns, nonNegative(kNotNull), "as defined under Temporal breakdown", x.idle_ns,     \
    kNoJson)                                                                                       \
  X(int64_t, compute_ns, nonNegative(kNotNull), "as defined under Temporal breakdown",             \
    x.compute_ns, kNoJson)                                                                         \
  X(int64_t, non_compute_ns, nonNegative(kNotNull), "as defined under Temporal breakdown",         \
    x.non_compute_ns, kNoJson)                                                                     \
  X(int64_t, communication_ns, nonNegative(kNotNull), "\\|communication\\|", x.communication_ns,   \
    kNoJson)                                                                                       \
  X(int64_t, exposed_communication_ns, nonNegative(kNotNull), "\\|communication − computation\\|", \
    x.exposed_communication_ns, kNoJson)                                                           \
  X(int64_t, overlap_ns, nonNegative(kNotNull), "\\|computation ∩ communication\\|", x.overlap_ns, \
    kNoJson)                                                                                       \
  X(int64_t, memory_ns, nonNegative(kNotNull), "union of memcpys and memsets", x.memory_ns,        \
    kNoJson)                                                                                       \
  X(double, idle_pct, percent(kNullable), "of the span", DAMSCOPE_DERIVED(x.idlePct()), kNoJson)   \
  X(double, compute_pct, percent(kNullable), "of the span", DAMSCOPE_DERIVED(x.computePct()),      \
    kNoJson)                                                                                       \
  X(double, non_compute_pct, percent(kNullable), "of the span",                                    \
    DAMSCOPE_DERIVED(x.nonComputePct()), kNoJson)                                                  \
  X(double, overlap_pct, percent(kNullable),                                                       \
    "overlap / communication; NULL without communication",                                         \
    DAMSCOPE_DERIVED(x.hasCommunication() ? x.overlapPct() : nullValue<double>()), kNoJson)

// x: a GapResult.
#define DAMSCOPE_GAP_COLUMNS(X)                                                                  \
  X(int64_t, ts, kNotNull, "the idle interval", x.ts, kNoJson)                                   \
  X(int64_t, dur, nonNegative(kNotNull), "the idle interval", x.dur, kNoJson)                    \
  X(int32_t, device, kNotNull, "the device", x.device, kNoJson)                                  \
  X(int64_t, stream, kNullable,                                                                  \
    "NULL: the whole device was idle; else the stream's gap between two of its operations",      \
    x.stream, kNoJson)                                                                           \
  X(int64_t, step_id, kNullable, "`steps.id` of the step the gap starts in", x.step_id, kNoJson) \
  X(int32_t, in_window, flag(kNotNull), "1: inside the analysis window", x.in_window, kNoJson)   \
  X(std::string, cause, kNotNull,                                                                \
    "the largest share: `data_loading`, `host_launch`, `synchronization`, "                      \
    "`communication_wait` or `other`",                                                           \
    x.cause, kNoJson)                                                                            \
  X(int64_t, data_loading_ns, nonNegative(kNotNull), "the gap split by cause",                   \
    x.by_cause[size_t(GapCause::kDataLoading)], kNoJson)                                         \
  X(int64_t, host_launch_ns, nonNegative(kNotNull), "the gap split by cause",                    \
    x.by_cause[size_t(GapCause::kHostLaunch)], kNoJson)                                          \
  X(int64_t, synchronization_ns, nonNegative(kNotNull), "the gap split by cause",                \
    x.by_cause[size_t(GapCause::kSynchronization)], kNoJson)                                     \
  X(int64_t, communication_wait_ns, nonNegative(kNotNull), "the gap split by cause",             \
    x.by_cause[size_t(GapCause::kCommunicationWait)], kNoJson)                                   \
  X(int64_t, other_ns, nonNegative(kNotNull), "the gap split by cause",                          \
    x.by_cause[size_t(GapCause::kOther)], kNoJson)                                               \
  X(std::string, hta_category, kNullable,                                                        \
    "HTA's idle-time class of a stream gap: `host_wait`, `kernel_wait`, `other`; NULL for "      \
    "device gaps",                                                                               \
    x.hta, kNoJson)                                                                              \
  X(std::string, next_table, kNullable,                                                          \
    "`kernels`, `memcpys`, `memsets` or `syncs`: the operation that ended the gap", kByCode,     \
    kNoJson)                                                                                     \
  X(int64_t, next_id, kNullable, "its id in that table", x.next_id, kNoJson)                     \
  X(int64_t, launch_call_id, kNullable, "`api_calls.id` of its launch call", x.launch_call_id,   \
    kNoJson)                                                                                     \
  X(std::string, evidence_table, kNullable,                                                      \
    "`ranges`, `api_calls`, `kernels`, `memcpys`, `memsets` or `syncs`: the event that shows "   \
    "the cause; NULL: none",                                                                     \
    x.evidence_table, kNoJson)                                                                   \
  X(int64_t, evidence_id, kNullable, "its id in that table", x.evidence_id, kNoJson)

// x: a CategoryTime.
#define DAMSCOPE_KERNEL_CATEGORY_COLUMNS(X)                                             \
  X(std::string, category, kNotNull,                                                    \
    "`gemm`, `convolution`, `attention`, `normalization`, `elementwise`, `reduction`, " \
    "`optimizer`, `communication`, `memory`, `other`",                                  \
    x.category, kNoJson)                                                                \
  X(std::string, bound, kNotNull, "`compute`, `memory` or `communication`",             \
    DAMSCOPE_DERIVED(boundOf(x.category)), kNoJson)                                     \
  X(int64_t, kernels, nonNegative(kNotNull), "kernel executions", x.kernels, kNoJson)   \
  X(int64_t, total_ns, nonNegative(kNotNull), "their time", x.total_ns, kNoJson)        \
  X(double, pct, percent(kNullable), "of all kernel time in the window", x.pct, kNoJson)

// x: a TopKernelResult.
#define DAMSCOPE_TOP_KERNEL_COLUMNS(X)                                                             \
  X(std::string, name, kNullable, "kernel name", x.name, kNoJson)                                  \
  X(std::string, category, kNotNull, "as in `kernel_categories`", x.category, kNoJson)             \
  X(int64_t, kernels, nonNegative(kNotNull), "executions", x.kernels, kNoJson)                     \
  X(int64_t, total_ns, nonNegative(kNotNull), "their time", x.total_ns, kNoJson)                   \
  X(int64_t, mean_ns, nonNegative(kNotNull), "their time", x.mean_ns, kNoJson)                     \
  X(int64_t, min_ns, nonNegative(kNotNull), "their time", x.min_ns, kNoJson)                       \
  X(int64_t, max_ns, nonNegative(kNotNull), "their time", x.max_ns, kNoJson)                       \
  X(double, pct, percent(kNullable), "of all kernel time in the window", x.pct, kNoJson)           \
  X(int64_t, example_kernel_id, kNullable, "`kernels.id` of its longest run", x.example_kernel_id, \
    kNoJson)

// x: a Distribution; the metric names which.
#define DAMSCOPE_LAUNCH_STAT_COLUMNS(X)                                                           \
  X(std::string, metric, kNotNull, "`launch_delay_ns`, `launch_cost_ns` or `kernel_duration_ns`", \
    kByCode, kNoJson)                                                                             \
  X(int64_t, count, nonNegative(kNotNull), "values", x.count, kNoJson)                            \
  X(double, mean, nonNegative(kNullable), "the distribution, ns", x.mean, kNoJson)                \
  X(double, p50, nonNegative(kNullable), "the distribution, ns", x.p50, kNoJson)                  \
  X(double, p90, nonNegative(kNullable), "the distribution, ns", x.p90, kNoJson)                  \
  X(double, p99, nonNegative(kNullable), "the distribution, ns", x.p99, kNoJson)                  \
  X(double, max, nonNegative(kNullable), "the distribution, ns", x.max, kNoJson)

// x: a QueueDepth.
#define DAMSCOPE_LAUNCH_QUEUE_COLUMNS(X)                                                          \
  X(int32_t, device, kNotNull, "the stream", x.device, kNoJson)                                   \
  X(int64_t, stream, kNotNull, "the stream", x.stream, kNoJson)                                   \
  X(int64_t, operations, nonNegative(kNotNull), "GPU operations on it", x.operations, kNoJson)    \
  X(int64_t, count, nonNegative(kNotNull), "depth samples", x.depth.count, kNoJson)               \
  X(double, mean, nonNegative(kNullable), "the depth, time-weighted over the stream's busy span", \
    x.depth.mean, kNoJson)                                                                        \
  X(double, p50, nonNegative(kNullable), "the depth, time-weighted over the stream's busy span",  \
    x.depth.p50, kNoJson)                                                                         \
  X(double, p90, nonNegative(kNullable), "the depth, time-weighted over the stream's busy span",  \
    x.depth.p90, kNoJson)                                                                         \
  X(double, p99, nonNegative(kNullable), "the depth, time-weighted over the stream's busy span",  \
    x.depth.p99, kNoJson)                                                                         \
  X(double, max, nonNegative(kNullable), "the depth, time-weighted over the stream's busy span",  \
    x.depth.max, kNoJson)                                                                         \
  X(double, empty_pct, percent(kNullable), "share of that span with nothing queued", x.empty_pct, \
    kNoJson)

// x: a DeviceUtilization.
#define DAMSCOPE_DEVICE_UTILIZATION_COLUMNS(X)                                                   \
  X(int32_t, device, kNotNull, "the device", x.device, kNoJson)                                  \
  X(int64_t, ts, kNotNull, "the range the figures are over (the plugin's steps)", x.start,       \
    kNoJson)                                                                                     \
  X(int64_t, dur, nonNegative(kNotNull), "the range the figures are over (the plugin's steps)",  \
    DAMSCOPE_DERIVED(x.end - x.start), kNoJson)                                                  \
  X(int64_t, kernel_ns, nonNegative(kNotNull), "union of the device's kernels in the range",     \
    x.kernel_ns, kNoJson)                                                                        \
  X(double, gpu_util_pct, percent(kNullable), "GPU utilization", x.gpu_util_pct, kNoJson)        \
  X(double, sm_efficiency_pct, percent(kNullable),                                               \
    "est. SM efficiency; NULL without grid sizes or SM count", x.sm_efficiency_pct, kNoJson)     \
  X(double, occupancy_pct, percent(kNullable),                                                   \
    "est. achieved occupancy; NULL when the trace reports none", x.occupancy_pct, kNoJson)       \
  X(int64_t, kernels_without_grid, nonNegative(kNotNull), "kernels in the range without a grid", \
    x.kernels_without_grid, kNoJson)                                                             \
  X(int64_t, kernels_with_occupancy, nonNegative(kNotNull),                                      \
    "kernels in the range with an occupancy", x.kernels_with_occupancy, kNoJson)                 \
  X(int32_t, primary_device, flag(kNotNull), "1: the device the headline figures are about",     \
    kByCode, kNoJson)

// x: a Scorecard.
#define DAMSCOPE_SCORECARD_COLUMNS(X)                                                        \
  X(int64_t, step_id, kNullable, "`steps.id`; NULL: the run (every analysed step)", kByCode, \
    kNoJson)                                                                                 \
  X(int64_t, ts, kNotNull, "the time the axes split", x.start, kNoJson)                      \
  X(int64_t, dur, nonNegative(kNotNull), "the time the axes split",                          \
    DAMSCOPE_DERIVED(x.end - x.start), kNoJson)                                              \
  X(std::string, verdict, kNotNull,                                                          \
    "`data-bound`, `host-bound`, `communication-bound`, `memory-bound`, `compute-bound`, "   \
    "`starved` (the largest stall is idle the trace does not explain), `none`",              \
    x.verdict, kNoJson)                                                                      \
  X(std::string, deciding_axis, kNotNull, "the axis the verdict rests on", x.deciding_axis,  \
    kNoJson)                                                                                 \
  X(int64_t, data_stall_ns, nonNegative(kNotNull), "time on each axis",                      \
    x.ns[size_t(Axis::kDataStall)], kNoJson)                                                 \
  X(int64_t, host_stall_ns, nonNegative(kNotNull), "time on each axis",                      \
    x.ns[size_t(Axis::kHostStall)], kNoJson)                                                 \
  X(int64_t, sync_stall_ns, nonNegative(kNotNull), "time on each axis",                      \
    x.ns[size_t(Axis::kSyncStall)], kNoJson)                                                 \
  X(int64_t, exposed_communication_ns, nonNegative(kNotNull), "time on each axis",           \
    x.ns[size_t(Axis::kExposedCommunication)], kNoJson)                                      \
  X(int64_t, memory_bound_ns, nonNegative(kNotNull), "time on each axis",                    \
    x.ns[size_t(Axis::kMemoryBound)], kNoJson)                                               \
  X(int64_t, compute_bound_ns, nonNegative(kNotNull), "time on each axis",                   \
    x.ns[size_t(Axis::kComputeBound)], kNoJson)                                              \
  X(int64_t, other_idle_ns, nonNegative(kNotNull), "time on each axis",                      \
    x.ns[size_t(Axis::kOtherIdle)], kNoJson)                                                 \
  X(double, data_stall_pct, percent(kNullable), "the same, in percent of `dur`",             \
    DAMSCOPE_DERIVED(x.pct(Axis::kDataStall)), kNoJson)                                      \
  X(double, host_stall_pct, percent(kNullable), "the same, in percent of `dur`",             \
    DAMSCOPE_DERIVED(x.pct(Axis::kHostStall)), kNoJson)                                      \
  X(double, sync_stall_pct, percent(kNullable), "the same, in percent of `dur`",             \
    DAMSCOPE_DERIVED(x.pct(Axis::kSyncStall)), kNoJson)                                      \
  X(double, exposed_communication_pct, percent(kNullable), "the same, in percent of `dur`",  \
    DAMSCOPE_DERIVED(x.pct(Axis::kExposedCommunication)), kNoJson)                           \
  X(double, memory_bound_pct, percent(kNullable), "the same, in percent of `dur`",           \
    DAMSCOPE_DERIVED(x.pct(Axis::kMemoryBound)), kNoJson)                                    \
  X(double, compute_bound_pct, percent(kNullable), "the same, in percent of `dur`",          \
    DAMSCOPE_DERIVED(x.pct(Axis::kComputeBound)), kNoJson)                                   \
  X(double, other_idle_pct, percent(kNullable), "the same, in percent of `dur`",             \
    DAMSCOPE_DERIVED(x.pct(Axis::kOtherIdle)), kNoJson)

// x: a Finding.
#define DAMSCOPE_FINDING_COLUMNS(X)                                                               \
  X(std::string, rule, kNotNull, "the rule's name", x.rule, inJson("rule"))                       \
  X(std::string, kind, kNotNull,                                                                  \
    "`performance`, or `trace_quality` for a warning about the trace", x.kind, inJson("kind"))    \
  X(std::string, severity, kNotNull, "`high`, `medium` or `low`", x.severity, inJson("severity")) \
  X(std::string, title, kNotNull, "one line", x.title, inJson("title"))                           \
  X(std::string, metric, kNotNull, "the metric the rule read", x.metric, inJson("metric"))        \
  X(double, value, kNullable, "its value", x.value, inJson("value", JsonForm::kPct))              \
  X(double, threshold, kNullable, "the threshold it crossed", x.threshold, inJson("threshold"))   \
  X(std::string, recommendation, kNotNull, "what to change", x.recommendation,                    \
    inJson("recommendation"))                                                                     \
  X(double, max_gain_pct, percent(kNullable),                                                     \
    "the most the step can shorten by fixing it; NULL: no bound can be stated", x.max_gain_pct,   \
    inJson("max_gain_pct", JsonForm::kPct))                                                       \
  X(double, critical_path_pct, percent(kNullable),                                                \
    "a data, host or communication stall's share of the analysed steps' critical paths; NULL: "   \
    "another kind of finding, or none of it on the paths",                                        \
    DAMSCOPE_KEY_OF(x.projection, on_path_pct), inJson("critical_path", "pct", JsonForm::kPct))      \
  X(int64_t, step_ns, nonNegative(kNullable), "the median analysed step it is projected from",      \
    DAMSCOPE_IN(x.projection, step_ns), inJson("critical_path", "step_ns"))                                        \
  X(int64_t, projected_step_ns, nonNegative(kNullable),                                           \
    "the median analysed step with that time free: each step less what freeing it takes off its " \
    "critical path",                                                                              \
    DAMSCOPE_IN(x.projection, projected_step_ns), inJson("critical_path", "projected_step_ns"))

// x: an EvidenceItem.
#define DAMSCOPE_FINDING_EVIDENCE_COLUMNS(X)                                                      \
  X(int64_t, finding_id, kNotNull, "`findings.id`", kByCode, kNoJson)                             \
  X(std::string, event_table, kNotNull,                                                           \
    "`gaps` (the analysis table), `kernels`, `ranges`, `memcpys`, `api_calls`, `counters` or "    \
    "`stats`",                                                                                    \
    x.source, kNoJson)                                                                            \
  X(int64_t, event_id, kNotNull, "the row's id in that table", x.id, kNoJson)                     \
  X(int64_t, ts, kNullable, "its time (NULL for stats rows), so a viewer can zoom to it", x.ts,   \
    kNoJson)                                                                                      \
  X(int64_t, dur, kNullable, "its time (NULL for stats rows), so a viewer can zoom to it", x.dur, \
    kNoJson)                                                                                      \
  X(std::string, label, kNullable,                                                                \
    "the event's name (kernels, ranges, calls, counters), the stat's name; NULL for gaps and "    \
    "copies",                                                                                     \
    x.label, kNoJson)                                                                             \
  X(std::string, detail, kNullable,                                                               \
    "what the rule read in it where the event alone does not say (a kernel lint's waves, "        \
    "shape or chain, e.g. `1.03 waves: 33 blocks on 32 SMs x 1 block per SM`); NULL otherwise",   \
    x.detail, kNoJson)                                                                            \
  X(std::string, op, kNullable,                                                                   \
    "a kernel's, copy's or call's framework op: the innermost op holding its launch, as "         \
    "`damscope ops --by leaf-op` charges it; NULL: none recorded",                                \
    x.op, kNoJson)                                                                                \
  X(std::string, module, kNullable,                                                               \
    "its nn.Module, as `damscope ops --by module` charges it (backward work: the forward op's); " \
    "NULL: none recorded",                                                                        \
    x.module, kNoJson)

// Rows of Metrics::values that are known: the code maps them.
#define DAMSCOPE_METRIC_COLUMNS(X)                                          \
  X(std::string, name, kNotNull, "e.g. `data_stall_pct`", kByCode, kNoJson) \
  X(double, value, kNullable, "its value", kByCode, kNoJson)

// x: a LossCount.
#define DAMSCOPE_DATA_LOSS_COLUMNS(X)                                                       \
  X(int64_t, stats_id, kNotNull, "`stats.id`", x.stats_row, kNoJson)                        \
  X(std::string, stat, kNotNull, "its name", x.stat, inJson("stat"))                        \
  X(std::string, kind, kNotNull, "`lost`, `repaired` or `clipped`", x.kind, inJson("kind")) \
  X(int64_t, events, nonNegative(kNotNull), "how many", x.events, inJson("events"))

// x: an AnalysisNote.
#define DAMSCOPE_NOTE_COLUMNS(X)                                                             \
  X(std::string, analysis, kNullable, "the analysis that noted it", x.analysis,              \
    inJson("analysis"))                                                                      \
  X(std::string, message, kNullable, "one sentence", x.message, inJson("message"))           \
  X(std::string, remedy, kNullable,                                                          \
    "what the user can supply: `device` (the device or its peak), `model`, `tokens`; NULL: " \
    "nothing",                                                                               \
    x.remedy, kNoJson)

// x: a RankComparison; the JSON places are inside the rank's `cross_rank`.
#define DAMSCOPE_RANK_COMPARISON_COLUMNS(X)                                                       \
  X(int32_t, rank, kNullable, "global rank", x.rank, kNoJson)                                     \
  X(std::string, source, kNullable, "the file it came from", x.source, kNoJson)                   \
  X(int64_t, steps, nonNegative(kNotNull), "steps matched across ranks", x.steps,                 \
    inJson("matched_steps"))                                                                      \
  X(int64_t, median_step_ns, nonNegative(kNotNull), "the median step time over them",             \
    x.median_step_ns, inJson("median_step_us", JsonForm::kMicroseconds))                          \
  X(double, slower_than_median_pct, kNullable, "median over the matched steps of its slowdown",   \
    x.slower_than_median_pct, inJson("slower_than_median_pct", JsonForm::kPct))                   \
  X(int32_t, straggler, flag(kNotNull), "1: a straggler", x.straggler, inJson("straggler"))       \
  X(int64_t, collectives, nonNegative(kNotNull), "collectives matched across ranks",              \
    x.collectives, inJson("collectives"))                                                         \
  X(int64_t, median_start_skew_ns, nonNegative(kNotNull),                                         \
    "over the matched collectives (the same for every rank)", x.median_start_skew_ns,             \
    inJson("median_start_skew_us", JsonForm::kMicroseconds))                                      \
  X(int64_t, max_start_skew_ns, nonNegative(kNotNull),                                            \
    "over the matched collectives (the same for every rank)", x.max_start_skew_ns,                \
    inJson("max_start_skew_us", JsonForm::kMicroseconds))                                         \
  X(double, last_to_start_pct, percent(kNullable), "share of collectives this rank entered last", \
    x.last_to_start_pct, inJson("last_to_start_pct", JsonForm::kPct))                             \
  X(int64_t, peer_wait_ns, nonNegative(kNotNull),                                                 \
    "summed over the matched collectives: the last rank's start minus this rank's (its wait for " \
    "peers)",                                                                                     \
    x.peer_wait_ns, inJson("peer_wait_us", JsonForm::kMicroseconds))                              \
  X(double, waiting_pct, percent(kNotNull),                                                       \
    "of its exposed communication, the wait for peers, % of its analysed steps' time",            \
    x.waiting_pct, inJson("waiting_pct", JsonForm::kPct))                                         \
  X(double, transfer_pct, percent(kNotNull),                                                      \
    "the rest of its exposed communication: transfer, % of its analysed steps' time",             \
    x.transfer_pct, inJson("transfer_pct", JsonForm::kPct))                                       \
  X(int32_t, this_rank, flag(kNotNull), "1: the rank this file holds", kByCode, kNoJson)

// x: a StepMfu.
#define DAMSCOPE_MFU_STEP_COLUMNS(X)                                                             \
  X(int64_t, step_id, kNotNull, "`steps.id`", kByCode, kNoJson)                                  \
  X(double, model_flops, nonNegative(kNullable), "the model's FLOPs in the step", x.model_flops, \
    kNoJson)                                                                                     \
  X(double, mfu_pct, percent(kNullable), "NULL when unknown or above 100 %", x.mfu_pct, kNoJson) \
  X(double, hardware_flops, nonNegative(kNullable), "measured FLOPs of the step's kernels",      \
    x.hardware_flops, kNoJson)                                                                   \
  X(double, hfu_pct, percent(kNullable), "NULL when unknown or above 100 %", x.hfu_pct, kNoJson)

// x: a RooflinePoint; the kind says which list it is in.
#define DAMSCOPE_ROOFLINE_COLUMNS(X)                                                               \
  X(std::string, kind, kNotNull, "`kernel` or `class`", kByCode, kNoJson)                          \
  X(std::string, name, kNullable, "the kernel's name, or the class", x.name, inJson("name"))       \
  X(std::string, category, kNotNull, "as in `kernel_categories`", x.category, inJson("category"))  \
  X(std::string, precision, kNotNull, "the kernel's precision by name, else the run's",            \
    x.precision, inJson("precision"))                                                              \
  X(std::string, source, kNotNull,                                                                 \
    "`measured`, `annotated`, `estimated`: the least trusted of its runs", x.source,               \
    inJson("source"))                                                                              \
  X(int64_t, kernels, nonNegative(kNotNull), "runs with FLOPs or bytes", x.kernels,                \
    inJson("kernels"))                                                                             \
  X(int64_t, time_ns, nonNegative(kNotNull), "their time", x.time_ns, inJson("time_ns"))           \
  X(double, flops, nonNegative(kNullable), "their FLOPs", x.flops, inJson("flops"))                \
  X(double, bytes, nonNegative(kNullable), "their DRAM bytes; NULL when unknown", x.bytes,         \
    inJson("bytes"))                                                                               \
  X(double, intensity, nonNegative(kNullable), "FLOP/byte; NULL without bytes", x.intensity,       \
    inJson("intensity"))                                                                           \
  X(double, achieved_flops_per_s, nonNegative(kNullable), "FLOPs / time", x.achieved_flops_per_s,  \
    inJson("achieved_flops_per_s"))                                                                \
  X(double, ceiling_flops_per_s, nonNegative(kNullable), "min(peak, bandwidth x intensity)",       \
    x.ceiling_flops_per_s, inJson("ceiling_flops_per_s"))                                          \
  X(double, pct_of_ceiling, nonNegative(kNullable), "achieved, of the ceiling", x.pct_of_ceiling,  \
    inJson("pct_of_ceiling", JsonForm::kPct))                                                      \
  X(int32_t, memory_bound, flag(kNullable),                                                        \
    "1: below the ridge point; NULL: no intensity or no ridge", x.memory_bound,                    \
    inJson("memory_bound"))                                                                        \
  X(int64_t, example_kernel_id, kNullable, "`kernels.id` of its longest run", x.example_kernel_id, \
    kNoJson)

// x: an OpRow of the leaf-op grouping (op_breakdown.h).
#define DAMSCOPE_TOP_OP_COLUMNS(X)                                                                \
  X(std::string, name, kNotNull, "the framework op that launched the GPU work (innermost op)",    \
    x.name, inJson("name"))                                                                       \
  X(int64_t, calls, nonNegative(kNotNull), "its calls in the window", x.calls, inJson("calls"))   \
  X(int64_t, gpu_ops, nonNegative(kNotNull), "GPU operations it launched", x.gpu_ops,             \
    inJson("gpu_ops"))                                                                            \
  X(std::string, shapes, kNullable, "its \"Input Dims\", when the rows are per shape", x.shapes,  \
    kNoJson)                                                                                      \
  X(int64_t, gpu_ns, nonNegative(kNotNull), "their summed durations", x.gpu_total_ns,             \
    inJson("gpu_ns"))                                                                             \
  X(int64_t, gpu_self_ns, nonNegative(kNotNull),                                                  \
    "the same (a leaf op launches all its work itself)", x.gpu_self_ns, kNoJson)                  \
  X(double, gpu_pct, nonNegative(kNotNull), "of the analysed window", x.gpu_total_pct,            \
    inJson("gpu_pct", JsonForm::kPct))                                                            \
  X(double, cpu_pct, nonNegative(kNotNull), "host time inside its calls, of the analysed window", \
    x.cpu_total_pct, inJson("cpu_pct", JsonForm::kPct))                                           \
  X(int64_t, cpu_total_ns, nonNegative(kNullable), "host time inside its calls", x.cpu_total_ns,  \
    inJson("cpu_total_ns"))                                                                       \
  X(int64_t, cpu_self_ns, nonNegative(kNullable), "less the ops it called", x.cpu_self_ns,        \
    inJson("cpu_self_ns"))                                                                        \
  X(double, flops, nonNegative(kNullable), "FLOPs of its kernels (kernel work)", x.flops,         \
    inJson("flops"))                                                                              \
  X(int64_t, flop_time_ns, nonNegative(kNotNull), "the time of those of its kernels with FLOPs",  \
    x.flop_time_ns, kNoJson)                                                                      \
  X(int64_t, unplaced_ns, nonNegative(kNotNull),                                                  \
    "the time of its computation kernels with neither FLOPs nor bytes (off the roofline)",        \
    x.unplaced_ns, inJson("unplaced_ns"))                                                         \
  X(double, achieved_flops_per_s, nonNegative(kNullable), "their FLOPs over their time",          \
    x.achieved_flops_per_s, inJson("achieved_flops_per_s"))                                       \
  X(double, intensity, nonNegative(kNullable), "FLOP/byte", x.intensity, inJson("intensity"))     \
  X(double, ceiling_flops_per_s, nonNegative(kNullable), "min(peak, bandwidth x intensity)",      \
    x.ceiling_flops_per_s, inJson("ceiling_flops_per_s"))                                         \
  X(double, pct_of_ceiling, nonNegative(kNullable), "achieved, of the roofline ceiling",          \
    x.pct_of_ceiling, inJson("pct_of_ceiling", JsonForm::kPct))                                   \
  X(int32_t, memory_bound, flag(kNullable), "1: below the ridge point", x.memory_bound,           \
    inJson("memory_bound"))

// x: a RooflineCeiling.
#define DAMSCOPE_ROOFLINE_CEILING_COLUMNS(X)                                             \
  X(std::string, precision, kNotNull, "the precision", x.precision, inJson("precision")) \
  X(double, peak_flops_per_s, nonNegative(kNullable), "the device's dense peak at it",   \
    x.peak_flops_per_s, inJson("peak_flops_per_s"))                                      \
  X(double, ridge_flops_per_byte, nonNegative(kNullable), "peak / memory bandwidth",     \
    x.ridge_flops_per_byte, inJson("ridge_flops_per_byte"))

// x: a CollectivePoint.
#define DAMSCOPE_COLLECTIVE_COLUMNS(X)                                                             \
  X(std::string, name, kNotNull, "`allreduce`, `allgather`, `reducescatter`, ...", x.name,         \
    inJson("name"))                                                                                \
  X(int64_t, kernels, nonNegative(kNotNull), "their kernels in the window", x.kernels,             \
    inJson("kernels"))                                                                             \
  X(int64_t, time_ns, nonNegative(kNotNull), "their time", x.time_ns, inJson("time_ns"))           \
  X(double, bus_bytes, nonNegative(kNullable), "NCCL bus bytes moved (nccl-tests PERFORMANCE.md)", \
    x.bus_bytes, inJson("bus_bytes"))                                                              \
  X(double, achieved_bytes_per_s, nonNegative(kNullable), "bus bytes / time",                      \
    x.achieved_bytes_per_s, inJson("achieved_bytes_per_s"))                                        \
  X(double, link_bytes_per_s, nonNegative(kNullable), "the device's peer link, per direction",     \
    x.link_bytes_per_s, inJson("link_bytes_per_s"))                                                \
  X(double, pct_of_link, nonNegative(kNullable), "achieved, of the link", x.pct_of_link,           \
    inJson("pct_of_link", JsonForm::kPct))

// x: a RankCollective; its name is looked up in RankResult::collective_names.
#define DAMSCOPE_COLLECTIVE_START_COLUMNS(X)                                          \
  X(std::string, name, kNotNull, "the communication kernel's name", kByCode, kNoJson) \
  X(int64_t, ts, kNotNull, "its start; the rows are in time order", x.start_ns, kNoJson)

DAMSCOPE_DEFINE_DECLARED_TABLE(SummaryTable, "summary", "The rank's headline figures, one row.",
                               DAMSCOPE_SUMMARY_COLUMNS)
DAMSCOPE_DEFINE_DECLARED_TABLE(StepResultTable, "steps",
                               "One row per training step found (see Steps above).",
                               DAMSCOPE_STEP_COLUMNS)
DAMSCOPE_DEFINE_DECLARED_TABLE(BreakdownTable, "breakdown",
                               "The HTA temporal breakdown of the analysis window (`step_id` NULL) "
                               "and of each step.",
                               DAMSCOPE_BREAKDOWN_COLUMNS)
// No index on gaps.ts: damscope reads the table whole, and building one cost
// a quarter of storing a first analysis' results (issue 26).
DAMSCOPE_DEFINE_DECLARED_TABLE(GapTable, "gaps",
                               "Idle intervals (see Gaps above): device gaps first, then stream "
                               "gaps.",
                               DAMSCOPE_GAP_COLUMNS)
DAMSCOPE_DEFINE_DECLARED_TABLE(KernelCategoryTable, "kernel_categories",
                               "Kernel time by category inside the analysis window.",
                               DAMSCOPE_KERNEL_CATEGORY_COLUMNS)
DAMSCOPE_DEFINE_DECLARED_TABLE(TopKernelTable, "top_kernels",
                               "The kernels that took the most GPU time, by name, largest first.",
                               DAMSCOPE_TOP_KERNEL_COLUMNS)
DAMSCOPE_DEFINE_DECLARED_TABLE(LaunchStatTable, "launch_stats",
                               "Distributions over the window's kernels.",
                               DAMSCOPE_LAUNCH_STAT_COLUMNS)
DAMSCOPE_DEFINE_DECLARED_TABLE(LaunchQueueTable, "launch_queues",
                               "The launch queue of each stream: operations launched and not yet "
                               "finished.",
                               DAMSCOPE_LAUNCH_QUEUE_COLUMNS)
DAMSCOPE_DEFINE_DECLARED_TABLE(DeviceUtilizationTable, "device_utilization",
                               "The TensorBoard plugin's figures, per device that ran kernels.",
                               DAMSCOPE_DEVICE_UTILIZATION_COLUMNS)
DAMSCOPE_DEFINE_DECLARED_TABLE(ScorecardTable, "scorecard",
                               "The D·A·M scorecard, one row per step and one for the run "
                               "(`step_id` NULL): the axes of a row sum to `dur` (and to 100 %).",
                               DAMSCOPE_SCORECARD_COLUMNS)
DAMSCOPE_DEFINE_DECLARED_TABLE(FindingTable, "findings",
                               "Findings of the rule engine (see Findings above), most important "
                               "first.",
                               DAMSCOPE_FINDING_COLUMNS)
DAMSCOPE_DEFINE_DECLARED_TABLE(FindingEvidenceTable, "finding_evidence",
                               "The evidence of each finding, in the order the finding lists it "
                               "(grouped by table: gaps, kernels, ranges, memcpys, api_calls, "
                               "counters, stats).",
                               DAMSCOPE_FINDING_EVIDENCE_COLUMNS,
                               {"finding_evidence_by_finding", "finding_id"})
DAMSCOPE_DEFINE_DECLARED_TABLE(MetricTable, "metrics",
                               "Every metric the finding rules read (Findings above) that the "
                               "trace gives.",
                               DAMSCOPE_METRIC_COLUMNS)
DAMSCOPE_DEFINE_DECLARED_TABLE(DataLossTable, "data_loss",
                               "The `stats` rows that count loss (Data loss above).",
                               DAMSCOPE_DATA_LOSS_COLUMNS)
DAMSCOPE_DEFINE_DECLARED_TABLE(NoteTable, "analysis_notes",
                               "What could not be computed, and why (no GPU events, no "
                               "correlation ids, ...).",
                               DAMSCOPE_NOTE_COLUMNS)
DAMSCOPE_DEFINE_DECLARED_TABLE(RankComparisonTable, "rank_comparison",
                               "Cross-rank comparison, one row per rank analysed together with "
                               "this one.",
                               DAMSCOPE_RANK_COMPARISON_COLUMNS)
DAMSCOPE_DEFINE_DECLARED_TABLE(MfuStepTable, "mfu_steps",
                               "MFU and HFU of each step (the run's are in `summary`).",
                               DAMSCOPE_MFU_STEP_COLUMNS)
DAMSCOPE_DEFINE_DECLARED_TABLE(RooflineTable, "roofline",
                               "Roofline points over the analysis window: one per kernel name "
                               "(`kind` kernel, the names with the most time) and one per kernel "
                               "class (`kind` class).",
                               DAMSCOPE_ROOFLINE_COLUMNS)
DAMSCOPE_DEFINE_DECLARED_TABLE(RooflineCeilingTable, "roofline_ceilings",
                               "The roofs: each precision the points use.",
                               DAMSCOPE_ROOFLINE_CEILING_COLUMNS)
DAMSCOPE_DEFINE_DECLARED_TABLE(CollectiveTable, "collectives",
                               "Collectives against the network ceiling.",
                               DAMSCOPE_COLLECTIVE_COLUMNS)
DAMSCOPE_DEFINE_DECLARED_TABLE(TopOpTable, "top_ops",
                               "The framework ops whose GPU work took the most time in the "
                               "analysis window, largest first (`damscope ops --by leaf-op`, "
                               "docs/ops.md).",
                               DAMSCOPE_TOP_OP_COLUMNS)
DAMSCOPE_DEFINE_DECLARED_TABLE(CollectiveStartTable, "collective_starts",
                               "The rank's communication kernels in the analysis window, in time "
                               "order: what the cross-rank analysis compares across ranks "
                               "(matched by order and name), stored so that ranks analysed one by "
                               "one are compared later from their run.db files without reading "
                               "their events (the multi-node workflow in the README).",
                               DAMSCOPE_COLLECTIVE_START_COLUMNS)

// Every analysis table, in the order they are stored (and created).
#define DAMSCOPE_ANALYSIS_TABLES(T)             \
  T(SummaryTable, summary)                      \
  T(StepResultTable, steps)                     \
  T(BreakdownTable, breakdown)                  \
  T(GapTable, gaps)                             \
  T(KernelCategoryTable, kernel_categories)     \
  T(TopKernelTable, top_kernels)                \
  T(LaunchStatTable, launch_stats)              \
  T(LaunchQueueTable, launch_queues)            \
  T(DeviceUtilizationTable, device_utilization) \
  T(ScorecardTable, scorecard)                  \
  T(FindingTable, findings)                     \
  T(FindingEvidenceTable, finding_evidence)     \
  T(MetricTable, metrics)                       \
  T(DataLossTable, data_loss)                   \
  T(NoteTable, notes)                           \
  T(RankComparisonTable, rank_comparison)       \
  T(MfuStepTable, mfu_steps)                    \
  T(RooflineTable, roofline)                    \
  T(RooflineCeilingTable, roofline_ceilings)    \
  T(CollectiveTable, collectives)               \
  T(TopOpTable, top_ops)                        \
  T(CollectiveStartTable, collective_starts)

#define DAMSCOPE_ANALYSIS_TABLE_MEMBER(Struct, member) Struct member;
#define DAMSCOPE_VISIT_ANALYSIS_TABLE(Struct, member) visit(member);

// Everything one `damscope analyze` stores for one rank. Written as a whole:
// storing replaces every earlier result (analysis_store.h). The result model
// is what these rows serialize (result_rows.h).
struct AnalysisTables {
  DAMSCOPE_ANALYSIS_TABLES(DAMSCOPE_ANALYSIS_TABLE_MEMBER)

  template <typename Visit>
  void forEachTable(Visit&& visit) {
    DAMSCOPE_ANALYSIS_TABLES(DAMSCOPE_VISIT_ANALYSIS_TABLE)
  }
  template <typename Visit>
  void forEachTable(Visit&& visit) const {
    DAMSCOPE_ANALYSIS_TABLES(DAMSCOPE_VISIT_ANALYSIS_TABLE)
  }
};

// Version of the stored results, in meta as "analysis_schema_version": of
// the analysis tables' layout, and of what the analyses put in them. Bump it
// when either changes, so that results an older damscope stored are computed
// again instead of shown (the GUI and the report read any stored results of
// this version). 5: the kernels_below_roof finding and the FP32 reading of
// cuBLAS's FFMA kernels. 6: op formulas for every common ATen family, the
// roofline's share per source of computation kernel time, MFU from op shapes,
// the top ops. 7: the starved verdict (unexplained idle is no longer charged
// to the host). 8: the kernel lints (wave quantization, tensor-core
// alignment, materialised attention, elementwise chains: their metrics and
// findings) and finding_evidence.detail. 9: finding_evidence.op and .module.
// Remake fuzz/seeds/rundb/kineto_analysed_current.sql with a new version
// (docs/fuzzing.md).
constexpr int kAnalysisSchemaVersion = 10;

}  // namespace damscope
