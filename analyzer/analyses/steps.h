// Steps: the training iterations of a trace, with their wall time.
//
// Found, in this order of preference (the first kind present wins):
//   1. PyTorch profiler steps, host ranges named "ProfilerStep#N";
//   2. the damscope trainer's step ranges (NVTX domain "damscope", named
//      "step"), see DESIGN.md "Workload annotations";
//   3. user annotations named like a step ("step", "train_step",
//      "iteration 12", ...), see name_patterns.h.
// Only the outermost such ranges of the thread that has the most of them
// count. When none is found the report says so and analyses use the whole
// span.
//
// Each step also gets the interval it occupies once its GPU work is counted,
// by the TensorBoard profiler plugin's rule (kineto tb_plugin @041e7ce9,
// torch_tb_profiler/profiler/event_parser.py, _find_device_steps and
// _update_steps_duration): the launch calls that lie entirely inside the host
// step and ran GPU work give the step's last GPU end; the aligned step starts
// where the previous aligned step ended (or at its host start, if later) and
// ends at the later of its host end and that GPU end. Trailing steps whose
// launches ran no GPU work, and a last step with fewer than 80 % of the
// previous step's launches, are marked incomplete (the plugin drops them:
// "the profiler may fail to capture all the kernels launched by these steps").
//
// Tokens and samples per step come from StepOptions (what the user says) or
// else from the workload's model annotation (model_annotation.h).
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "analyzer/analyses/analysis_input.h"
#include "base/result.h"

namespace damscope {

enum class StepSource : uint8_t { kNone, kProfilerStep, kTrainer, kAnnotation };
constexpr size_t kStepSourceCount = 4;
std::string_view toText(StepSource source);

struct Step {
  int64_t number = 0;  // N of ProfilerStep#N or of "step N", else the ordinal
  StringId name;
  int64_t range_id = -1;  // ranges row
  int64_t host_start = 0;
  int64_t host_end = 0;
  int64_t start = 0;  // aligned to the GPU work (== host_* without GPU work)
  int64_t end = 0;
  int64_t gpu_launches = 0;  // launch calls inside the host step that ran GPU work
  bool complete = true;
  int64_t duration() const { return end - start; }
};

struct StepOptions {
  // Work per step for throughput; NaN: take it from the trace if it says.
  double tokens_per_step = std::numeric_limits<double>::quiet_NaN();
  double samples_per_step = std::numeric_limits<double>::quiet_NaN();
  // TensorBoard plugin's rule: the last step is incomplete when it has fewer
  // than this fraction of the previous step's GPU launches.
  double tail_launch_ratio = 0.8;
};

struct StepReport {
  StepSource source = StepSource::kNone;
  std::vector<Step> steps;  // in time order, non-overlapping
  bool aligned_to_gpu = false;
  double tokens_per_step = std::numeric_limits<double>::quiet_NaN();
  double samples_per_step = std::numeric_limits<double>::quiet_NaN();
  std::string throughput_source;  // "options", "model annotation", or ""
  std::vector<std::string> notes;

  // Index of the step containing `t` (by aligned interval), or -1.
  int64_t stepAt(int64_t t) const;
  // The complete steps, as the TensorBoard plugin keeps them.
  size_t completeCount() const;
};

StepReport computeSteps(const AnalysisInput& input, const StepOptions& options);

}  // namespace damscope
