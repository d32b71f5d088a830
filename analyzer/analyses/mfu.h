// Model FLOPs utilization (MFU): how much of the hardware's peak a run turns
// into model progress, per step and for the analysed steps together
// (DESIGN.md "Analyses"; PaLM, Chowdhery et al. 2022, appendix B):
//
//   MFU = model FLOPs per step / (peak FLOP/s x step time)
//   HFU = FLOPs the hardware measured per step / (peak FLOP/s x step time)
//
// Model FLOPs per step, from the first source that gives them:
//   1. the user's model (a preset, or its parameter count and shape) and
//      tokens per step: trainingFlopsPerToken x tokens (model_flops.h);
//   2. the workload's model annotation, the same way;
//   3. the profiler's per-op FLOPs (PyTorch with_flops=True: Kineto's `flops`
//      argument, stored as estimated kernel_metrics of ranges), summed over
//      the ops that start in the step, the outermost op of a nest only;
//   4. the recorded op shapes (op_shapes.h): the matrix, convolution and
//      attention FLOPs of the forward and backward ops whose kernels start
//      in the step (kernel_work.h model_math; recomputed forward ops are not
//      model math), when ops with shapes cover at least 80 % of the window's
//      computation kernel time. Below that the sum would be a fraction of the
//      model, not an estimate of it.
// MFU counts the FLOPs the model needs, whatever the implementation runs
// (activation recomputation is not counted); HFU counts what ran, and exists
// only where hardware counters measured FLOPs (kernel_work.h, measured).
//
// The peak is the device's at the run's precision (device_peaks.h,
// kernel_precision.h runPrecision: the user's, the annotation's, the matrix
// kernels', else FP32) — the report says which, since a FP32 peak makes a
// tensor-core run look 8-16x better than it is.
//
// An MFU above 100 % is impossible: some input is wrong (tokens counted over
// every rank, parameters with the embeddings of a model that excludes them,
// the wrong device or precision). It is never reported as a figure; the
// report says it is impossible and which input is most likely wrong.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analyzer/analyses/analysis_input.h"
#include "analyzer/analyses/analysis_note.h"
#include "analyzer/analyses/analysis_window.h"
#include "analyzer/analyses/device_peaks.h"
#include "analyzer/analyses/kernel_precision.h"
#include "analyzer/analyses/kernel_work.h"
#include "analyzer/analyses/model_flops.h"
#include "analyzer/analyses/steps.h"

namespace damscope {

enum class FlopsSource : uint8_t { kNone, kUserModel, kAnnotation, kProfilerOps, kOpShapes };
constexpr size_t kFlopsSourceCount = 5;

// The least share of computation kernel time op shapes must cover for their
// FLOPs to stand for the model's (source 4).
constexpr double kOpShapesMinCoveragePct = 80;
std::string_view toText(FlopsSource source);

struct MfuOptions {
  std::optional<ModelShape> model;  // the user's; empty: the annotation's
};

struct StepMfu {
  std::optional<double> model_flops;
  std::optional<double> mfu_pct;
  std::optional<double> hardware_flops;
  std::optional<double> hfu_pct;
  bool operator==(const StepMfu&) const = default;
};

// The figures, with what they rest on: the model, the precision, the peak and
// where each came from. The result model holds this as it is
// (analysis_result.h, RankResult::mfu).
struct MfuReport {
  FlopsSource flops_source = FlopsSource::kNone;
  std::optional<ModelShape> model;        // sources 1 and 2
  std::optional<double> flops_per_token;  // sources 1 and 2
  // The share of the window's computation kernel time whose work came from
  // op shapes; set when source 4 was tried.
  std::optional<double> op_shapes_coverage_pct;
  RunPrecision precision;
  PeakSource peak_source = PeakSource::kNone;
  std::string peak_device;  // "A100 SXM4 40GB (matched by board name PG509-200)"
  std::optional<double> peak_flops_per_s;
  std::optional<double> model_flops_per_step;  // mean over the analysed steps
  std::optional<double> achieved_flops_per_s;  // model FLOPs / analysed time
  std::optional<double> mfu_pct;               // empty when unknown or impossible
  std::optional<double> impossible_pct;        // the ratio, when above 100 %
  std::string likely_wrong;                    // with impossible_pct: which input
  std::optional<double> hardware_flops_per_step;
  // FLOPs the counters measured on the window's kernels; with no steps, HFU
  // is over the window (unless the kernels' times are placeholders).
  std::optional<double> hardware_flops_window;
  std::optional<double> hfu_pct;
  std::vector<StepMfu> steps;  // one per StepReport step
  bool operator==(const MfuReport&) const = default;
};

// What computeMfu finds: the figures, and what MFU lacks with the remedy.
struct MfuAnalysis {
  MfuReport report;
  std::vector<AnalysisNote> notes;
};

// What an MFU figure means, in the bands the low-MFU finding explains
// (finding_rules.cc: under 30 % an addressable bottleneck; well-tuned
// large-model training at 40-55 %, PaLM 540B 46.2 %, Megatron-LM GPT-3 175B
// 52 %; 55-65 % a practical ceiling). Above 65 % on a real model is rare
// enough that the inputs deserve a second look.
enum class MfuBand : uint8_t { kAddressable, kRoomToGrow, kWellTuned, kNearCeiling, kAboveCeiling };
MfuBand mfuBand(double mfu_pct);
std::string_view mfuBandLabel(MfuBand band);  // "an addressable bottleneck (under 30 %)"

MfuAnalysis computeMfu(const AnalysisInput& input, const StepReport& steps,
                       const WindowReport& window, const KernelWorkReport& work,
                       const DevicePeaks& peaks, const RunPrecision& precision,
                       const MfuOptions& options);

}  // namespace damscope
