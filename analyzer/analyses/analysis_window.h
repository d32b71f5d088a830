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
// WindowMode::kRange is a time range a person chose (the GUI's Shift-drag on
// the timeline, as Perfetto's area selection and Nsight Systems' "analyze
// range" do), [range_start, range_end) in ns on the trace's clock:
//   - GPU operations (kernels, copies, memsets, syncs) are in the window
//     when they start inside the range; one that starts inside and ends after
//     it is kept whole (as HTA keeps work launched before its cut), one that
//     started before the range is not.
//   - Steps are in the window when they lie wholly inside the range. A step
//     that straddles an edge is not analysed as a step: its time, MFU and
//     scorecard would be those of part of a step. Its GPU work that starts
//     inside the range still counts, and a note names it.
//   - The analysed time range (start, end) is the range itself, so with no
//     whole step inside it the run-level scorecard is that of the range.
//   - No HTA cut: the person chose the range, the last step included.
// An empty or inverted range holds nothing.
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

enum class WindowMode : uint8_t { kHta, kAll, kRange };
constexpr size_t kWindowModeCount = 3;
std::string_view toText(WindowMode mode);

struct WindowOptions {
  WindowMode mode = WindowMode::kHta;
  int64_t range_start = 0;  // ns, kRange only: [range_start, range_end)
  int64_t range_end = 0;
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
