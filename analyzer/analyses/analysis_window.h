// The analysis window: which GPU work and which steps the run-level figures
// are about.
//
// Default (WindowMode::kHta), HolisticTraceAnalysis's definition
// (HolisticTraceAnalysis @f4d0062c, hta/common/trace.py,
// Trace._filter_irrelevant_gpu_kernels; ../shared/traces/README.md): with two
// or more steps, keep the CPU events that start before the last step's start
// and the GPU operations whose correlation id matches one of them. The last
// step is usually cut off by the profiler, so its GPU work would distort the
// figures. HTA applies this to ProfilerStep#N; damscope applies it to
// whichever steps were found. With fewer than two steps nothing is cut.
// WindowMode::kAll keeps everything (`damscope analyze --window all`).
//
// If the GPU operations carry no correlation ids the window cannot be drawn
// by launch; it then keeps the GPU operations that start before the last
// step's start, and says so.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/analyses/analysis_input.h"
#include "analyzer/analyses/steps.h"
#include "base/result.h"

namespace damscope {

enum class WindowMode : uint8_t { kHta, kAll };
constexpr size_t kWindowModeCount = 2;
std::string_view toText(WindowMode mode);

struct WindowOptions {
  WindowMode mode = WindowMode::kHta;
};

struct WindowReport {
  WindowMode mode = WindowMode::kHta;
  bool cut = false;                // the HTA cut was applied
  int64_t cutoff_ns = kNullInt;    // CPU events start before this (the last step's start)
  std::vector<uint8_t> in_window;  // per AnalysisInput::gpu() op: 1 if analysed
  int64_t gpu_ops = 0;             // ops in the window (syncs included)
  int64_t gpu_start = kNullInt;    // first start and last end of those ops
  int64_t gpu_end = kNullInt;
  size_t first_step = 0;  // steps [first_step, first_step + step_count) are analysed
  size_t step_count = 0;
  int64_t start = kNullInt;  // analysed time range: the analysed steps, widened to
  int64_t end = kNullInt;    // cover the window's GPU ops; the GPU span without steps
  std::vector<std::string> notes;

  bool hasGpuWork() const { return gpu_ops > 0; }
  bool stepInWindow(size_t step) const {
    return step >= first_step && step < first_step + step_count;
  }
};

WindowReport computeWindow(const AnalysisInput& input, const StepReport& steps,
                           const WindowOptions& options);

}  // namespace damscope
