// The analysis window: see analysis_window.h.
#include "analyzer/analyses/analysis_window.h"

#include <algorithm>

namespace damscope {

std::string_view toText(WindowMode mode) {
  switch (mode) {
    case WindowMode::kHta:
      return "hta";
    case WindowMode::kAll:
      return "all";
    case WindowMode::kRange:
      return "range";
  }
  return "hta";
}

namespace {

std::string stepWord(const Step& step) {
  return "step " + std::to_string(step.number);
}

// kRange: the GPU operations that start inside the range and the steps that
// lie wholly inside it (analysis_window.h).
void selectRange(const AnalysisInput& input, const StepReport& steps, const WindowOptions& options,
                 WindowReport& w) {
  const int64_t t0 = options.range_start;
  const int64_t t1 = options.range_end;
  const std::vector<GpuOp>& gpu = input.gpu();
  for (size_t i = 0; i < gpu.size(); ++i) w.in_window[i] = gpu[i].ts >= t0 && gpu[i].ts < t1;
  w.first_step = 0;
  w.step_count = 0;
  for (size_t s = 0; s < steps.steps.size(); ++s) {
    const Step& step = steps.steps[s];
    if (step.start >= t0 && step.end <= t1) {
      if (w.step_count == 0) w.first_step = s;
      ++w.step_count;
    } else if (step.start < t1 && step.end > t0) {
      w.notes.push_back(stepWord(step) + " straddles an edge of the range: not analysed as a step");
    }
  }
  if (t1 > t0) {
    w.start = t0;
    w.end = t1;
  }
}

}  // namespace

WindowReport computeWindow(const AnalysisInput& input, const StepReport& steps,
                           const WindowOptions& options) {
  WindowReport w;
  w.mode = options.mode;
  const std::vector<GpuOp>& gpu = input.gpu();
  const ApiCallTable& api = input.tables().api_calls;
  w.in_window.assign(gpu.size(), 1);
  w.first_step = 0;
  w.step_count = steps.steps.size();

  if (options.mode == WindowMode::kRange) {
    selectRange(input, steps, options, w);
  } else if (options.mode == WindowMode::kHta && steps.steps.size() >= 2) {
    w.cut = true;
    w.cutoff_ns = steps.steps.back().host_start;
    w.step_count = steps.steps.size() - 1;
    if (input.opsWithLaunch() > 0) {
      int64_t dropped_unlinked = 0;
      for (size_t i = 0; i < gpu.size(); ++i) {
        const int64_t launch = gpu[i].launch;
        const bool keep = launch >= 0 && api.ts[static_cast<size_t>(launch)] < w.cutoff_ns;
        w.in_window[i] = keep ? 1 : 0;
        if (launch < 0 && gpu[i].kind != GpuOpKind::kSync) ++dropped_unlinked;
      }
      if (dropped_unlinked > 0) {
        w.notes.push_back(std::to_string(dropped_unlinked) +
                          " GPU operation(s) without a launch call (no correlation id) are "
                          "outside the window, as in HTA");
      }
    } else {
      for (size_t i = 0; i < gpu.size(); ++i) w.in_window[i] = gpu[i].ts < w.cutoff_ns ? 1 : 0;
      // A CPU run's ops are never launched: starting before the last step is
      // the rule for them, not a fallback.
      if (!gpu.empty() && !input.cpuRun()) {
        w.notes.push_back(
            "GPU operations carry no correlation ids: the window keeps GPU work that starts "
            "before the last step instead of the work launched before it");
      }
    }
  } else if (options.mode == WindowMode::kHta && steps.steps.size() == 1) {
    w.notes.push_back(
        "only one step: nothing is cut from the window (HTA cuts the last of two "
        "or more steps)");
  }

  for (size_t i = 0; i < gpu.size(); ++i) {
    if (!w.in_window[i]) continue;
    ++w.gpu_ops;
    w.gpu_start = isNull(w.gpu_start) ? gpu[i].ts : std::min(w.gpu_start, gpu[i].ts);
    w.gpu_end = isNull(w.gpu_end) ? gpu[i].end : std::max(w.gpu_end, gpu[i].end);
  }
  // kRange's extent is the range itself (selectRange).
  if (options.mode != WindowMode::kRange && w.step_count > 0) {
    w.start = steps.steps[w.first_step].start;
    w.end = steps.steps[w.first_step + w.step_count - 1].end;
    if (w.hasGpuWork()) {
      w.start = std::min(w.start, w.gpu_start);
      w.end = std::max(w.end, w.gpu_end);
    }
  } else if (options.mode != WindowMode::kRange && w.hasGpuWork()) {
    w.start = w.gpu_start;
    w.end = w.gpu_end;
  }
  if (gpu.empty()) {
    w.notes.push_back("no GPU operations in the trace (no kernels, copies or memsets)");
  } else if (!w.hasGpuWork()) {
    w.notes.push_back("no GPU operation falls in the analysis window");
  }
  return w;
}

}  // namespace damscope
