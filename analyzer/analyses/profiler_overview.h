// The PyTorch profiler's step-time overview: each step's time split by what
// the process was doing, by priority, and averaged over the steps, as the
// TensorBoard plugin's Overview page shows it (kineto tb_plugin @041e7ce9,
// torch_tb_profiler/profiler/overall_parser.py, OverallParser.aggregate and
// Statistics.create_from_range). Every moment of a step goes to the first of
//   Kernel, Memcpy, Memset, Runtime, DataLoader, CPU Exec, Other
// that is active then: a GPU kernel (any device), a copy, a memset, a CUDA
// runtime/driver call, a DataLoader range (name starting
// "enumerate(DataLoader)#" and ending ".__next__", the plugin's rule), any
// other host range except the ProfilerStep ranges themselves (the plugin
// parses those as steps, not ops), or nothing. The plugin's steps are used (steps.h: aligned to
// GPU work, incomplete tail steps left out); without steps, the whole span.
//
// This is the figure users compare with the plugin ("DataLoader 33 % of the
// step"); damscope's own diagnosis is the D·A·M scorecard.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "analyzer/analyses/analysis_input.h"
#include "analyzer/analyses/steps.h"
#include "base/result.h"

namespace damscope {

enum class OverviewRole : uint8_t {
  kKernel,
  kMemcpy,
  kMemset,
  kRuntime,
  kDataLoader,
  kCpuExec,
  kOther
};
constexpr size_t kOverviewRoleCount = 7;
std::string_view toText(OverviewRole role);

struct OverviewStep {
  int64_t start = 0;
  int64_t end = 0;
  std::array<int64_t, kOverviewRoleCount> ns{};
};

struct ProfilerOverviewOptions {};

struct ProfilerOverviewReport {
  std::vector<OverviewStep> steps;  // the steps the averages are over
  double avg_step_ns = 0;
  std::array<double, kOverviewRoleCount> avg_ns{};
  bool whole_span = false;  // no steps: one span

  double avgPct(OverviewRole role) const {
    return avg_step_ns > 0 ? 100.0 * avg_ns[static_cast<size_t>(role)] / avg_step_ns : 0.0;
  }
};

ProfilerOverviewReport computeProfilerOverview(const AnalysisInput& input, const StepReport& steps,
                                               const ProfilerOverviewOptions& options);

}  // namespace damscope
