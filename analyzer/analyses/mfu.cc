// Model FLOPs utilization: see mfu.h.
#include "analyzer/analyses/mfu.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "base/duration_sum.h"

namespace damscope {
namespace {

// FLOPs of the profiler's own per-op counts (estimated kernel_metrics of
// ranges), summed per step over the ops that start in the step's host range,
// outermost op of a nest only (an op's count includes what it calls).
std::vector<std::optional<double>> profilerOpFlops(const TraceTables& t, const StepReport& steps) {
  std::vector<std::optional<double>> per_step(steps.steps.size());
  const KernelMetricTable& km = t.kernel_metrics;
  std::vector<double> flops(t.ranges.size(), 0);
  bool any = false;
  for (size_t i = 0; i < km.size(); ++i) {
    if (isNull(km.range_id[i]) || km.source[i] != MetricSource::kEstimated) continue;
    if (!(km.flops[i] > 0) || !std::isfinite(km.flops[i])) continue;
    flops[static_cast<size_t>(km.range_id[i])] += km.flops[i];
    any = true;
  }
  if (!any) return per_step;
  for (size_t r = 0; r < t.ranges.size(); ++r) {
    if (flops[r] <= 0) continue;
    bool nested = false;
    for (int64_t p = t.ranges.parent_id[r]; !isNull(p) && !nested; p = t.ranges.parent_id[p]) {
      nested = flops[static_cast<size_t>(p)] > 0;
    }
    if (nested) continue;
    // Steps are in time order and do not overlap: the last one starting at
    // or before the op is the only candidate.
    const int64_t ts = t.ranges.ts[r];
    auto it = std::upper_bound(steps.steps.begin(), steps.steps.end(), ts,
                               [](int64_t v, const Step& step) { return v < step.host_start; });
    if (it == steps.steps.begin() || ts >= std::prev(it)->host_end) continue;
    const size_t s = static_cast<size_t>(std::prev(it) - steps.steps.begin());
    per_step[s] = per_step[s].value_or(0) + flops[r];
  }
  return per_step;
}

// FLOPs the hardware measured per step: measured kernel work of the kernels
// that start in the step.
std::vector<std::optional<double>> measuredFlops(const AnalysisInput& in, const StepReport& steps,
                                                 const KernelWorkReport& work) {
  std::vector<std::optional<double>> per_step(steps.steps.size());
  const KernelTable& k = in.tables().kernels;
  for (const KernelWork& w : work.kernels) {
    if (w.source != MetricSource::kMeasured || w.flops <= 0) continue;
    const int64_t s = steps.stepAt(k.ts[static_cast<size_t>(w.kernel)]);
    if (s >= 0)
      per_step[static_cast<size_t>(s)] = per_step[static_cast<size_t>(s)].value_or(0) + w.flops;
  }
  return per_step;
}

// Model FLOPs from the recorded op shapes (source 4): the model math of the
// kernels that start in each step, and the share of the window's
// computation kernel time that op shapes cover.
struct OpShapeFlops {
  std::vector<std::optional<double>> per_step;
  double coverage_pct = 0;
};

OpShapeFlops opShapeFlops(const AnalysisInput& in, const StepReport& steps,
                          const WindowReport& window, const KernelWorkReport& work) {
  OpShapeFlops out;
  out.per_step.resize(steps.steps.size());
  const TraceTables& t = in.tables();
  std::vector<const KernelWork*> by_kernel(t.kernels.size(), nullptr);
  for (const KernelWork& w : work.kernels) {
    // Shapes' counts come from a range; PyTorch's own per-op FLOPs are source 3.
    if (w.source == MetricSource::kEstimated && !isNull(w.range)) {
      by_kernel[static_cast<size_t>(w.kernel)] = &w;
    }
  }
  int64_t kernel_time = 0, covered = 0;
  const std::vector<GpuOp>& gpu = in.gpu();
  for (size_t g = 0; g < gpu.size(); ++g) {
    const GpuOp& op = gpu[g];
    if (op.kind != GpuOpKind::kKernel || op.work == GpuWork::kCommunication) continue;
    const KernelWork* w = by_kernel[static_cast<size_t>(op.row)];
    if (window.in_window[g]) {
      accumulateDuration(kernel_time, op.end - op.ts);
      if (w) accumulateDuration(covered, op.end - op.ts);
    }
    if (!w || !w->model_math || !(w->flops > 0)) continue;
    const int64_t s = steps.stepAt(op.ts);
    if (s < 0) continue;
    std::optional<double>& f = out.per_step[static_cast<size_t>(s)];
    f = f.value_or(0) + w->flops;
  }
  if (kernel_time > 0) {
    out.coverage_pct = 100.0 * static_cast<double>(covered) / static_cast<double>(kernel_time);
  }
  return out;
}

// FLOPs the counters measured on the window's kernels, if any.
std::optional<double> windowMeasuredFlops(const AnalysisInput& in, const WindowReport& window,
                                          const KernelWorkReport& work) {
  std::vector<double> measured(in.tables().kernels.size(), 0);
  bool any = false;
  for (const KernelWork& w : work.kernels) {
    if (w.source == MetricSource::kMeasured && w.flops > 0) {
      measured[static_cast<size_t>(w.kernel)] = w.flops, any = true;
    }
  }
  if (!any) return std::nullopt;
  double sum = 0;
  for (size_t g = 0; g < in.gpu().size(); ++g) {
    const GpuOp& op = in.gpu()[g];
    if (op.kind == GpuOpKind::kKernel && window.in_window[g])
      sum += measured[static_cast<size_t>(op.row)];
  }
  return sum > 0 ? std::optional<double>(sum) : std::nullopt;
}

// The input an impossible MFU most likely got wrong.
std::string likelyWrong(const AnalysisInput& in, const MfuReport& r, double ratio_pct) {
  int32_t world = 0;
  for (int32_t w : in.tables().processes.world_size) {
    if (!isNull(w) && w > world) world = w;
  }
  if (world > 1 &&
      (r.flops_source == FlopsSource::kUserModel || r.flops_source == FlopsSource::kAnnotation) &&
      ratio_pct / world <= 100) {
    return "the tokens per step are probably those of all " + std::to_string(world) +
           " ranks: MFU needs this rank's own";
  }
  if (r.precision.precision == Precision::kFp32 &&
      r.precision.source == PrecisionSource::kDefault) {
    return "the peak is the FP32 one because no precision is known: a run on tensor cores "
           "needs its precision";
  }
  return "the model FLOPs per step (tokens per step, parameter count) or the peak (the device, "
         "the precision) are wrong";
}

}  // namespace

std::string_view toText(FlopsSource source) {
  switch (source) {
    case FlopsSource::kNone:
      return "none";
    case FlopsSource::kUserModel:
      return "user_model";
    case FlopsSource::kAnnotation:
      return "model_annotation";
    case FlopsSource::kProfilerOps:
      return "profiler_ops";
    case FlopsSource::kOpShapes:
      return "op_shapes";
  }
  return "none";
}

MfuBand mfuBand(double mfu_pct) {
  if (mfu_pct < 30) return MfuBand::kAddressable;
  if (mfu_pct < 40) return MfuBand::kRoomToGrow;
  if (mfu_pct < 55) return MfuBand::kWellTuned;
  if (mfu_pct <= 65) return MfuBand::kNearCeiling;
  return MfuBand::kAboveCeiling;
}

std::string_view mfuBandLabel(MfuBand band) {
  switch (band) {
    case MfuBand::kAddressable:
      return "under 30 %: an addressable bottleneck";
    case MfuBand::kRoomToGrow:
      return "30-40 %: below well-tuned training (40-55 %)";
    case MfuBand::kWellTuned:
      return "40-55 %: well-tuned large-model training";
    case MfuBand::kNearCeiling:
      return "55-65 %: the practical ceiling";
    case MfuBand::kAboveCeiling:
      return "above 65 %: beyond the usual ceiling; check the model and the peak";
  }
  return "";
}

MfuAnalysis computeMfu(const AnalysisInput& in, const StepReport& steps, const WindowReport& window,
                       const KernelWorkReport& work, const DevicePeaks& peaks,
                       const RunPrecision& precision, const MfuOptions& options) {
  MfuAnalysis out;
  MfuReport& r = out.report;
  std::vector<AnalysisNote>& notes = out.notes;
  r.steps.resize(steps.steps.size());
  const ModelAnnotation& annotation = in.model();

  r.precision = precision;
  r.peak_source = peaks.source;
  r.peak_device = peaks.description;
  r.peak_flops_per_s = peaks.peakFlopsPerS(precision.precision);
  if (peaks.source != PeakSource::kNone && !r.peak_flops_per_s) {
    notes.push_back({"mfu",
                     peaks.device + " has no " + std::string(toText(precision.precision)) +
                         " peak in the device table: no MFU",
                     Remedy::kDevice});
  }

  // Model FLOPs per step.
  std::vector<std::optional<double>> model_flops(steps.steps.size());
  if (options.model) {
    r.flops_source = FlopsSource::kUserModel, r.model = options.model;
  } else if (annotation.params) {
    ModelShape m;
    m.name = annotation.model.value_or("");
    m.params = *annotation.params;
    m.layers = annotation.layers, m.d_model = annotation.d_model, m.heads = annotation.heads;
    m.seq_len = annotation.seq_len, m.vocab = annotation.vocab;
    r.flops_source = FlopsSource::kAnnotation, r.model = m;
  }
  if (r.model) {
    r.flops_per_token = trainingFlopsPerToken(*r.model);
    if (std::isnan(steps.tokens_per_step)) {
      notes.push_back(
          {"mfu", "the model is known but not the tokens per step: no MFU", Remedy::kTokens});
    } else {
      for (auto& f : model_flops) f = *r.flops_per_token * steps.tokens_per_step;
    }
    if (!hasAttentionTerm(*r.model)) {
      notes.push_back({"mfu",
                       "model FLOPs count 6 x parameters per token only: without layers, width "
                       "and sequence length the attention term is left out",
                       Remedy::kModel});
    }
  } else {
    model_flops = profilerOpFlops(in.tables(), steps);
    bool any = false;
    for (const auto& f : model_flops) any = any || f.has_value();
    if (any) {
      r.flops_source = FlopsSource::kProfilerOps;
    } else {
      OpShapeFlops shapes = opShapeFlops(in, steps, window, work);
      for (const auto& f : shapes.per_step) any = any || f.has_value();
      if (any) r.op_shapes_coverage_pct = shapes.coverage_pct;
      if (any && shapes.coverage_pct >= kOpShapesMinCoveragePct) {
        r.flops_source = FlopsSource::kOpShapes;
        model_flops = std::move(shapes.per_step);
      } else if (any) {
        notes.push_back(
            {"mfu",
             fmt::format("the recorded op shapes cover {:.1f} % of the computation kernel time "
                         "(under {:.0f} %): too little to stand for the model's FLOPs; no MFU",
                         shapes.coverage_pct, kOpShapesMinCoveragePct),
             Remedy::kModel});
      } else {
        notes.push_back({"mfu",
                         "the trace does not say what model it trains (no model annotation, no "
                         "per-op FLOPs, no matrix op shapes): no MFU",
                         Remedy::kModel});
      }
    }
  }
  const std::vector<std::optional<double>> hardware = measuredFlops(in, steps, work);

  // Per step, and over the analysed steps.
  double model_sum = 0, hardware_sum = 0, seconds_sum = 0;
  size_t model_steps = 0, hardware_steps = 0;
  for (size_t s = 0; s < steps.steps.size(); ++s) {
    const double seconds = static_cast<double>(steps.steps[s].duration()) * 1e-9;
    StepMfu& m = r.steps[s];
    m.model_flops = model_flops[s];
    m.hardware_flops = hardware[s];
    if (seconds > 0 && r.peak_flops_per_s) {
      if (m.model_flops) m.mfu_pct = 100.0 * *m.model_flops / (*r.peak_flops_per_s * seconds);
      if (m.hardware_flops) m.hfu_pct = 100.0 * *m.hardware_flops / (*r.peak_flops_per_s * seconds);
      // An impossible figure is no figure.
      if (m.mfu_pct && *m.mfu_pct > 100) m.mfu_pct.reset();
      if (m.hfu_pct && *m.hfu_pct > 100) m.hfu_pct.reset();
    }
    if (!window.stepInWindow(s)) continue;
    seconds_sum += seconds;
    if (model_flops[s]) model_sum += *model_flops[s], ++model_steps;
    if (hardware[s]) hardware_sum += *hardware[s], ++hardware_steps;
  }
  if (window.step_count == 0 && r.flops_source != FlopsSource::kNone) {
    notes.push_back({"mfu", "no steps were found: MFU is a figure per step", Remedy::kNone});
  }
  if (model_steps > 0) r.model_flops_per_step = model_sum / static_cast<double>(model_steps);
  if (hardware_steps > 0) {
    r.hardware_flops_per_step = hardware_sum / static_cast<double>(hardware_steps);
  }
  if (seconds_sum > 0 && model_steps == window.step_count && model_steps > 0) {
    r.achieved_flops_per_s = model_sum / seconds_sum;
    if (r.peak_flops_per_s) {
      const double pct = 100.0 * *r.achieved_flops_per_s / *r.peak_flops_per_s;
      if (pct > 100) {
        r.impossible_pct = pct;
        r.likely_wrong = likelyWrong(in, r, pct);
      } else {
        r.mfu_pct = pct;
      }
    }
  }
  if (seconds_sum > 0 && hardware_steps == window.step_count && hardware_steps > 0 &&
      r.peak_flops_per_s) {
    const double pct = 100.0 * hardware_sum / seconds_sum / *r.peak_flops_per_s;
    if (pct <= 100) r.hfu_pct = pct;
  }
  r.hardware_flops_window = windowMeasuredFlops(in, window, work);
  // Without steps, the run's HFU is over the window, when its times are real.
  const bool real_times = in.tables().getMeta("kernel_times") != "placeholders";
  if (window.step_count == 0 && r.hardware_flops_window && real_times && r.peak_flops_per_s &&
      !isNull(window.start) && window.end > window.start) {
    const double seconds = static_cast<double>(window.end - window.start) * 1e-9;
    const double pct = 100.0 * *r.hardware_flops_window / seconds / *r.peak_flops_per_s;
    if (pct <= 100) r.hfu_pct = pct;
  }
  return out;
}

}  // namespace damscope
