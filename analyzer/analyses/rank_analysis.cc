// Runs every analysis of one rank: see rank_analysis.h.
#include "analyzer/analyses/rank_analysis.h"

namespace damscope {
namespace {

void addNotes(RankAnalysis& a, const char* analysis, const std::vector<std::string>& notes) {
  for (const std::string& n : notes) a.notes.push_back({analysis, n});
}

// The device memory the estimate is compared with: the matched device's, else
// what the trace says the primary device has.
std::optional<double> deviceMemory(const RankAnalysis& a) {
  if (a.peaks.spec && a.peaks.spec->memory_bytes > 0) {
    return static_cast<double>(a.peaks.spec->memory_bytes);
  }
  const DeviceUtilization* primary = a.utilization.primaryDevice();
  const TraceTables& t = *a.tables;
  for (size_t d = 0; primary && d < t.devices.size(); ++d) {
    if (t.devices.device[d] == primary->device && !isNull(t.devices.memory_bytes[d]) &&
        t.devices.memory_bytes[d] > 0) {
      return static_cast<double>(t.devices.memory_bytes[d]);
    }
  }
  return std::nullopt;
}

// The analyses in order, for progress; cancellation is checked before each.
constexpr int kStages = 13;

}  // namespace

Result<RankAnalysis> analyzeRank(const TraceTables& tables, const AnalysisOptions& options,
                                 const Progress& progress) {
  int stage = 0;
  auto next = [&]() -> Status {
    progress.report(static_cast<double>(stage++) / kStages);
    return progress.checkCancelled();
  };
  RankAnalysis a;
  a.tables = &tables;
  DAMSCOPE_RETURN_IF_ERROR(next());
  a.input = std::make_unique<AnalysisInput>(AnalysisInput::build(tables));
  const AnalysisInput& in = *a.input;
  addNotes(a, "model", in.model().notes);
  if (in.negativeDurations() > 0) {
    a.notes.push_back({"input", std::to_string(in.negativeDurations()) +
                                    " GPU operation(s) with a negative duration were read as "
                                    "zero-length"});
  }
  if (in.opsWithoutLaunch() > 0 && in.opsWithLaunch() == 0) {
    a.notes.push_back({"input",
                       "no GPU operation carries a correlation id that matches a launch call: "
                       "launch delays and launch-based gap causes cannot be computed"});
  }
  if (tables.getMeta("kernel_times") == "placeholders") {
    a.notes.push_back({"input",
                       "the kernels are known only from CUPTI counter ranges, whose times are the "
                       "profiler's placeholders (it replays each kernel for its counters): their "
                       "counters are measured, their times and what is computed from them are not"});
  }
  a.loss = computeDataLoss(tables);
  DAMSCOPE_RETURN_IF_ERROR(next());
  a.steps = computeSteps(in, options.steps);
  addNotes(a, "steps", a.steps.notes);
  a.window = computeWindow(in, a.steps, options.window);
  addNotes(a, "window", a.window.notes);
  GpuUtilizationOptions utilization = options.utilization;
  if (options.window.mode == WindowMode::kRange) {
    // A chosen window: utilization over it, not over the run's steps.
    utilization.range_start = options.window.range_start;
    utilization.range_end = options.window.range_end;
  }
  a.utilization = computeGpuUtilization(in, a.steps, utilization);
  addNotes(a, "utilization", a.utilization.notes);
  DAMSCOPE_RETURN_IF_ERROR(next());
  a.work = computeKernelWork(in);
  a.precision = runPrecision(in, a.window, options.precision);
  const DeviceUtilization* primary = a.utilization.primaryDevice();
  a.peaks = resolveDevicePeaks(in, primary ? primary->device : 0, options.device);
  for (const AnalysisNote& n : a.peaks.notes) a.notes.push_back(n);
  RooflineAnalysis roofline =
      computeRoofline(in, a.window, a.work, a.peaks, a.precision.precision, options.roofline);
  a.roofline = std::move(roofline.report);
  a.ops = computeOpBreakdown(in, a.window, a.work,
                             {a.peaks.peakFlopsPerS(a.precision.precision),
                              a.peaks.bandwidth_bytes_per_s},
                             options.ops);
  if (options.ops.grouping == OpGrouping::kLeafOp) {
    if (auto note = unplacedOpsNote(a.ops)) a.notes.push_back(*note);
  }
  // Kernels with a roofline point are compute- or memory-bound by it, from
  // here on (the scorecard and the findings read GpuOp::work).
  a.input->applyBoundOverrides(roofline.bound_overrides);
  DAMSCOPE_RETURN_IF_ERROR(next());
  MfuAnalysis mfu = computeMfu(in, a.steps, a.window, a.work, a.peaks, a.precision, options.mfu);
  a.mfu = std::move(mfu.report);
  for (const AnalysisNote& n : mfu.notes) a.notes.push_back(n);
  a.memory = estimateTrainingMemory(in, a.mfu.model, a.precision.precision, a.steps.tokens_per_step,
                                    deviceMemory(a));
  DAMSCOPE_RETURN_IF_ERROR(next());
  a.breakdown = computeTemporalBreakdown(in, a.steps, a.window, options.breakdown);
  if (!a.breakdown.valid) {
    a.notes.push_back({"breakdown", "no GPU work in the window: no temporal breakdown"});
  }
  DAMSCOPE_RETURN_IF_ERROR(next());
  a.gaps = computeGaps(in, a.steps, a.window, options.gaps);
  DAMSCOPE_RETURN_IF_ERROR(next());
  a.kernels = computeKernelBreakdown(in, a.window, options.kernels);
  DAMSCOPE_RETURN_IF_ERROR(next());
  a.launches = computeLaunchStatistics(in, a.window, options.launches);
  DAMSCOPE_RETURN_IF_ERROR(next());
  a.overview = computeProfilerOverview(in, a.steps, options.overview);
  DAMSCOPE_RETURN_IF_ERROR(next());
  a.scorecard = computeScorecard(in, a.steps, a.window, a.gaps, options.scorecard);
  addNotes(a, "scorecard", a.scorecard.notes);
  DAMSCOPE_RETURN_IF_ERROR(next());
  a.lints = computeKernelLints(in, a.window, a.work, a.scorecard.device, options.lints);
  addNotes(a, "lints", a.lints.notes);
  a.slow_steps = computeSlowSteps(in, a.steps, a.window, a.scorecard);
  DAMSCOPE_RETURN_IF_ERROR(next());
  a.critical_paths = computeStepCriticalPaths(in, a.steps, a.window);
  a.framework = detectFramework(in);
  const FindingInputs inputs{in,         a.framework.framework,
                             a.steps,    a.window,
                             a.gaps,     a.kernels,
                             a.launches, a.utilization,
                             a.scorecard, a.loss,
                             a.mfu,      a.memory,
                             a.roofline, a.lints,
                             a.slow_steps, a.critical_paths};
  a.findings = computeFindings(inputs, options.findings);
  DAMSCOPE_RETURN_IF_ERROR(next());
  progress.report(1.0);
  return a;
}

std::vector<RankCollective> collectiveStarts(const RankAnalysis& a, CollectiveNames& names) {
  std::vector<RankCollective> out;
  const TraceTables& t = *a.tables;
  std::unordered_map<int32_t, int32_t> id_of;  // string id -> job-wide name id
  const std::vector<GpuOp>& gpu = a.input->gpu();
  for (size_t g = 0; g < gpu.size(); ++g) {
    if (gpu[g].kind != GpuOpKind::kKernel || gpu[g].work != GpuWork::kCommunication ||
        !a.window.in_window[g]) {
      continue;
    }
    const StringId name = t.kernels.name[static_cast<size_t>(gpu[g].row)];
    auto [it, inserted] = id_of.try_emplace(name.value, 0);
    if (inserted) {
      auto [named, added] =
          names.try_emplace(std::string(t.strings.get(name)), static_cast<int32_t>(names.size()));
      it->second = named->second;
    }
    out.push_back({it->second, gpu[g].ts});
  }
  return out;
}

}  // namespace damscope
