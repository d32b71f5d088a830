// What-if on a recorded run: see what_if.h.
#include "analyzer/planner/what_if.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

namespace damscope {
namespace {

// The run as the what-ifs change it: the mean step split by axis, the FP32
// matrix time in it, and what MFU and the memory estimate rest on.
struct StepModel {
  std::array<double, kAxisCount> axis_ns{};
  double fp32_matrix_ns = 0;  // per step, kernel time (inside compute_bound)
  Precision precision = Precision::kFp32;
  std::optional<double> peak_flops_per_s;  // MFU's
  Checkpointing checkpointing = Checkpointing::kNone;
  std::optional<double> micro_batch;  // sequences; empty when the run does not say
  double flops_scale = 1;             // model FLOPs per step against the run's

  double& at(Axis axis) { return axis_ns[static_cast<size_t>(axis)]; }
  double step() const {
    double sum = 0;
    for (double v : axis_ns) sum += v;
    return sum;
  }
  double kernels() { return at(Axis::kComputeBound) + at(Axis::kMemoryBound); }
};

// What a what-if did to the model: applied, or why not; the assumption.
struct Applied {
  bool applied = false;
  std::string basis;
};

std::string percentText(double v) {
  return fmt::format("{:.1f} %", v);
}

// The device row MFU's peak came from: the table's row the user chose or the
// trace's device matched (device_peaks.h names it first in its description).
const DeviceSpec* deviceOf(const RankResult& run) {
  if (run.device_kind == DeviceKind::kCpu) return nullptr;
  const PeakSource source = run.mfu.peak_source;
  if (source != PeakSource::kUserDevice && source != PeakSource::kTraceDevice) return nullptr;
  for (const DeviceSpec& spec : deviceSpecs()) {
    const std::string prefix = std::string(spec.name) + " (";
    if (run.mfu.peak_device.starts_with(prefix)) return &spec;
  }
  return nullptr;
}

// Why the precision what-if has no device ratio (deviceOf found no row).
std::string noDeviceReason(const RankResult& run) {
  if (run.device_kind == DeviceKind::kCpu) {
    return "a CPU run: no tensor cores to move FP32 matrix math to";
  }
  switch (run.mfu.peak_source) {
    case PeakSource::kUser:
      return "the peak was given by hand: no device row with FP32 and tensor-core figures to "
             "take the ratio of (analyse with --gpu NAME)";
    case PeakSource::kAnnotation:
      return "the peak is the workload's own figure: no device row to take the ratio from";
    default:
      return "the device is not in damscope's device table (analyse with --gpu NAME)";
  }
}

// Bytes per GPU of the memory estimate's formulas (memory_estimate.cc) at
// another precision or checkpointing; empty without the model.
std::optional<double> memoryOf(const RankResult& run, const StepModel& s) {
  if (!run.memory || !run.mfu.model || !(run.mfu.model->params > 0)) return std::nullopt;
  const ModelShape& m = *run.mfu.model;
  double bytes = trainingState(m.params, s.precision, true).total();
  if (run.memory->activation_bytes && s.micro_batch && m.layers && m.d_model && m.seq_len &&
      m.heads) {
    const ActivationShape shape{.seq_len = static_cast<double>(*m.seq_len),
                                .micro_batch = *s.micro_batch,
                                .width = static_cast<double>(*m.d_model),
                                .heads = static_cast<double>(*m.heads),
                                .layers = static_cast<double>(*m.layers)};
    bytes += activationBytes(shape, s.precision, s.checkpointing, true);
  }
  return bytes;
}

Applied hideData(StepModel& s) {
  const double stall = s.at(Axis::kDataStall);
  s.at(Axis::kDataStall) = 0;
  return {true, fmt::format("the data stall ({:.1f} ms a step) goes: the loader keeps ahead of "
                            "compute (workers that prefetch); the device's work is unchanged",
                            stall / 1e6)};
}

Applied overlap(StepModel& s) {
  const double exposed = s.at(Axis::kExposedCommunication);
  const double hidden = std::min(exposed, s.kernels());
  s.at(Axis::kExposedCommunication) = exposed - hidden;
  return {true, fmt::format("exposed communication ({:.1f} ms a step) runs behind computation, "
                            "at most the step's kernel time ({:.1f} ms): {:.1f} ms hidden",
                            exposed / 1e6, s.kernels() / 1e6, hidden / 1e6)};
}

Applied changePrecision(StepModel& s, const RankResult& run, Precision target) {
  const DeviceSpec* device = deviceOf(run);
  if (!device) return {false, noDeviceReason(run)};
  const std::optional<double> fp32 = device->vector.fp32;
  const std::optional<double> peak = device->matrix.of(target);
  if (!fp32 || !peak) {
    return {false, fmt::format("the {} row has no {} figure", device->name,
                               fp32 ? fmt::format("{} tensor-core", toText(target)) : "FP32")};
  }
  const double ratio = *fp32 / *peak;
  const double saved = std::min(s.fp32_matrix_ns * (1 - ratio), s.at(Axis::kComputeBound));
  s.at(Axis::kComputeBound) -= saved;
  const double before = s.fp32_matrix_ns;
  s.fp32_matrix_ns = 0;
  // MFU is measured against the peak of the precision the run computes in.
  const bool new_peak = s.precision != target;
  if (new_peak) s.peak_flops_per_s = device->peakFlopsPerS(target);
  s.precision = target;
  return {
      true,
      fmt::format(
          "FP32 matrix kernels on CUDA cores ({:.1f} ms a step) run at the {} "
          "{} tensor-core peak, {:.0f} vs {:.1f} TFLOP/s FP32 (x{:.2f}); other "
          "kernels and stalls unchanged{}",
          before / 1e6, device->name, toText(target), *peak / 1e12, *fp32 / 1e12, 1 / ratio,
          new_peak ? fmt::format("; MFU then measured against the {} peak", toText(target)) : "")};
}

Applied checkpoint(StepModel& s, const RankResult& run, Checkpointing how) {
  double share = 1.0 / 3;
  std::string why =
      "the backward pass recomputes the forward: +2N of the 6N FLOPs per token, "
      "kernel time x4/3";
  if (how == Checkpointing::kSelective) {
    const std::optional<ModelShape>& m = run.mfu.model;
    if (!m || !m->d_model || !m->seq_len) {
      return {false,
              "selective recomputation's share needs the model's width and sequence "
              "length (analyse with --model NAME)"};
    }
    const auto h = static_cast<double>(*m->d_model);
    const auto seq = static_cast<double>(*m->seq_len);
    share = seq / (18 * h + 3 * seq);
    why = fmt::format(
        "the backward pass recomputes the attention scores: 4 b s^2 h of a layer's "
        "72 b s h^2 + 12 b s^2 h FLOPs, s/(18h+3s) = {} of kernel time",
        percentText(100 * share));
  }
  s.at(Axis::kComputeBound) *= 1 + share;
  s.at(Axis::kMemoryBound) *= 1 + share;
  s.checkpointing = how;
  return {true, why + "; stalls unchanged; the run is taken to have recomputed nothing"};
}

Applied changeBatch(StepModel& s, int64_t batch) {
  if (!s.micro_batch) {
    return {false,
            "the run's batch is unknown: no model annotation's batch, tokens or samples "
            "per step (analyse with --model NAME --tokens-per-step N)"};
  }
  const double scale = static_cast<double>(batch) / *s.micro_batch;
  const double kernels = s.kernels();
  s.at(Axis::kComputeBound) *= scale;
  s.at(Axis::kMemoryBound) *= scale;
  s.fp32_matrix_ns *= scale;
  s.flops_scale *= scale;
  std::string basis = fmt::format(
      "kernel time ({:.1f} ms a step) scales with the batch, {} -> {} sequences (x{:.2f}); the "
      "stalls stay as measured",
      kernels / 1e6, *s.micro_batch, batch, scale);
  if (scale > 1) basis += "; a device a small batch underfills runs a larger one faster than this";
  s.micro_batch = static_cast<double>(batch);
  return {true, basis};
}

Applied apply(StepModel& s, const RankResult& run, const WhatIf& w) {
  switch (w.kind) {
    case WhatIfKind::kHideData:
      return hideData(s);
    case WhatIfKind::kOverlap:
      return overlap(s);
    case WhatIfKind::kPrecision:
      return changePrecision(s, run, w.precision);
    case WhatIfKind::kCheckpointing:
      return checkpoint(s, run, w.checkpointing);
    case WhatIfKind::kBatch:
      return changeBatch(s, w.batch);
  }
  return {};
}

std::string labelOf(const WhatIf& w) {
  switch (w.kind) {
    case WhatIfKind::kHideData:
      return "remove the data stall";
    case WhatIfKind::kOverlap:
      return "overlap the exposed communication";
    case WhatIfKind::kPrecision:
      return fmt::format("FP32 matrix math on {} tensor cores", toText(w.precision));
    case WhatIfKind::kCheckpointing:
      return fmt::format("{} activation checkpointing", toText(w.checkpointing));
    case WhatIfKind::kBatch:
      return fmt::format("a micro-batch of {} sequences", w.batch);
  }
  return "";
}

StepModel measured(const RankResult& run) {
  StepModel s;
  const double step = *run.window.avg_step_ns;
  for (size_t i = 0; i < kAxisCount; ++i) {
    s.axis_ns[i] = step * run.scorecard->run.pct(static_cast<Axis>(i)) / 100;
  }
  s.fp32_matrix_ns = static_cast<double>(run.kernels.fp32_matrix_ns) /
                     static_cast<double>(std::max<int64_t>(1, run.window.step_count));
  s.precision = run.mfu.precision.precision;
  s.peak_flops_per_s = run.mfu.peak_flops_per_s;
  // The batch the memory estimate counted, else the samples a step counts.
  if (run.memory && run.memory->micro_batch > 0) {
    s.micro_batch = static_cast<double>(run.memory->micro_batch);
  } else if (run.samples_per_step && *run.samples_per_step > 0) {
    s.micro_batch = *run.samples_per_step;
  }
  return s;
}

// The estimate of `requests` applied in order to the measured step.
WhatIfEstimate estimate(const RankResult& run, const std::vector<WhatIf>& requests) {
  StepModel s = measured(run);
  WhatIfEstimate e;
  e.step_before_ns = s.step();
  e.mfu_before_pct = run.mfu.mfu_pct;
  if (run.memory) e.memory_before_bytes = run.memory->total_bytes;
  const std::optional<double> peak_before = s.peak_flops_per_s;
  std::vector<std::string> requests_text, labels, bases;
  for (const WhatIf& w : requests) {
    const Applied a = apply(s, run, w);
    requests_text.push_back(toText(w));
    labels.push_back(labelOf(w));
    bases.push_back(requests.size() > 1 ? toText(w) + ": " + a.basis : a.basis);
    e.estimated = e.estimated || a.applied;
  }
  e.request = fmt::format("{}", fmt::join(requests_text, " + "));
  e.label = fmt::format("{}", fmt::join(labels, ", then "));
  e.basis = fmt::format("{}", fmt::join(bases, "; "));
  e.step_after_ns = s.step();
  if (e.mfu_before_pct && peak_before && s.peak_flops_per_s && e.step_after_ns > 0) {
    const double mfu = *e.mfu_before_pct * s.flops_scale * (e.step_before_ns / e.step_after_ns) *
                       (*peak_before / *s.peak_flops_per_s);
    // Above 100 % is impossible (mfu.h never reports it): the run's model
    // FLOPs or peak are off by more than the step left to run them in.
    if (mfu <= 100) {
      e.mfu_after_pct = mfu;
    } else {
      e.basis += fmt::format(
          "; MFU after would be {:.0f} %, impossible: the run's model FLOPs or "
          "peak are likely wrong",
          mfu);
    }
  }
  if (e.memory_before_bytes) {
    const bool changed = s.precision != run.mfu.precision.precision ||
                         s.checkpointing != Checkpointing::kNone || s.flops_scale != 1;
    e.memory_after_bytes = changed ? memoryOf(run, s) : e.memory_before_bytes;
  }
  return e;
}

}  // namespace

std::string_view whatIfKeys() {
  return "data=hidden, overlap=on, precision=bf16|fp16|tf32, checkpointing=full|selective, "
         "batch=N";
}

Result<WhatIf> parseWhatIf(std::string_view text) {
  const size_t eq = text.find('=');
  const std::string_view key = text.substr(0, eq);
  const std::string_view value = eq == std::string_view::npos ? "" : text.substr(eq + 1);
  WhatIf w;
  if (key == "data" && value == "hidden") {
    w.kind = WhatIfKind::kHideData;
    return w;
  }
  if (key == "overlap" && value == "on") {
    w.kind = WhatIfKind::kOverlap;
    return w;
  }
  if (key == "precision") {
    const std::optional<Precision> p = precisionFromText(value);
    if (p == Precision::kBf16 || p == Precision::kFp16 || p == Precision::kTf32) {
      w.kind = WhatIfKind::kPrecision;
      w.precision = *p;
      return w;
    }
  }
  if (key == "checkpointing") {
    const std::optional<Checkpointing> c = checkpointingFromText(value);
    if (c && *c != Checkpointing::kNone) {
      w.kind = WhatIfKind::kCheckpointing;
      w.checkpointing = *c;
      return w;
    }
  }
  // Up to a million sequences: far past any published micro-batch, and the
  // figures stay finite.
  constexpr int64_t kMaxBatch = 1'000'000;
  if (key == "batch") {
    int64_t batch = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), batch);
    if (error == std::errc() && end == value.data() + value.size() && batch >= 1 &&
        batch <= kMaxBatch) {
      w.kind = WhatIfKind::kBatch;
      w.batch = batch;
      return w;
    }
  }
  return Error(fmt::format("--what-if \"{}\": expected one of {}", text, whatIfKeys()));
}

std::string toText(const WhatIf& what_if) {
  switch (what_if.kind) {
    case WhatIfKind::kHideData:
      return "data=hidden";
    case WhatIfKind::kOverlap:
      return "overlap=on";
    case WhatIfKind::kPrecision:
      return fmt::format("precision={}", toText(what_if.precision));
    case WhatIfKind::kCheckpointing:
      return fmt::format("checkpointing={}", toText(what_if.checkpointing));
    case WhatIfKind::kBatch:
      return fmt::format("batch={}", what_if.batch);
  }
  return "";
}

double WhatIfEstimate::changePct() const {
  return step_before_ns > 0 ? 100 * (step_after_ns - step_before_ns) / step_before_ns : 0;
}

Result<WhatIfReport> estimateWhatIfs(const RankResult& run, const std::vector<WhatIf>& requests) {
  const std::string source = run.store.empty() ? run.source : run.store;
  if (!run.scorecard || !run.window.avg_step_ns || !(*run.window.avg_step_ns > 0) ||
      !std::isfinite(*run.window.avg_step_ns) || run.scorecard->run.total() <= 0) {
    return Error(source +
                 ": no analysed steps with device work: nothing measured to estimate from");
  }
  WhatIfReport r;
  r.source = source;
  r.device = run.mfu.peak_device.empty() ? run.device_name : run.mfu.peak_device;
  r.step_ns = *run.window.avg_step_ns;
  r.steps = run.window.step_count;
  for (const WhatIf& w : requests) {
    r.each.push_back(estimate(run, {w}));
  }
  if (requests.size() > 1) r.combined = estimate(run, requests);
  return r;
}

std::vector<WhatIf> applicableWhatIfs(const RankResult& run) {
  std::vector<WhatIf> out;
  if (!run.scorecard || !run.window.avg_step_ns) return out;
  const Scorecard& card = run.scorecard->run;
  if (card.ns[static_cast<size_t>(Axis::kDataStall)] > 0) out.push_back({WhatIfKind::kHideData});
  if (card.ns[static_cast<size_t>(Axis::kExposedCommunication)] > 0) {
    out.push_back({WhatIfKind::kOverlap});
  }
  const DeviceSpec* device = deviceOf(run);
  if (run.kernels.fp32_matrix_ns > 0 && device && device->vector.fp32) {
    for (Precision p : {Precision::kBf16, Precision::kFp16}) {
      if (device->matrix.of(p)) {
        out.push_back({.kind = WhatIfKind::kPrecision, .precision = p});
        break;
      }
    }
  }
  return out;
}

}  // namespace damscope
