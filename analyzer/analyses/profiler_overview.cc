// The TensorBoard plugin's step-time overview: see profiler_overview.h.
#include "analyzer/analyses/profiler_overview.h"

#include <algorithm>

#include "analyzer/analyses/intervals.h"
#include "analyzer/analyses/name_patterns.h"

namespace damscope {
namespace {

bool isPluginDataLoader(std::string_view name) {
  constexpr std::string_view kPrefix = "enumerate(DataLoader)#";
  constexpr std::string_view kSuffix = ".__next__";
  return name.size() >= kPrefix.size() + kSuffix.size() &&
         name.substr(0, kPrefix.size()) == kPrefix &&
         name.substr(name.size() - kSuffix.size()) == kSuffix;
}

}  // namespace

std::string_view toText(OverviewRole role) {
  switch (role) {
    case OverviewRole::kKernel:
      return "kernel";
    case OverviewRole::kMemcpy:
      return "memcpy";
    case OverviewRole::kMemset:
      return "memset";
    case OverviewRole::kRuntime:
      return "runtime";
    case OverviewRole::kDataLoader:
      return "dataloader";
    case OverviewRole::kCpuExec:
      return "cpu_exec";
    case OverviewRole::kOther:
      return "other";
  }
  return "other";
}

ProfilerOverviewReport computeProfilerOverview(const AnalysisInput& input, const StepReport& steps,
                                               const ProfilerOverviewOptions&) {
  ProfilerOverviewReport report;
  const TraceTables& t = input.tables();
  std::array<Intervals, kOverviewRoleCount - 1> roles;
  for (const GpuOp& op : input.gpu()) {
    switch (op.kind) {
      case GpuOpKind::kKernel:
        roles[0].push_back({op.ts, op.end});
        break;
      case GpuOpKind::kMemcpy:
        roles[1].push_back({op.ts, op.end});
        break;
      case GpuOpKind::kMemset:
        roles[2].push_back({op.ts, op.end});
        break;
      case GpuOpKind::kSync:
        break;
    }
  }
  for (size_t i = 0; i < t.api_calls.size(); ++i) {
    roles[3].push_back(
        {t.api_calls.ts[i], t.api_calls.ts[i] + std::max<int64_t>(t.api_calls.dur[i], 0)});
  }
  std::vector<int8_t> dataloader(t.strings.size() + 1, -1);
  for (size_t i = 0; i < t.ranges.size(); ++i) {
    if (isNull(t.ranges.thread_id[i])) continue;  // host ranges only
    const Interval span{t.ranges.ts[i], t.ranges.ts[i] + std::max<int64_t>(t.ranges.dur[i], 0)};
    const StringId name = t.ranges.name[i];
    int8_t& is_loader =
        dataloader[name.valid() ? static_cast<size_t>(name.value) : t.strings.size()];
    // 1 DataLoader, 0 CPU exec, 2 a step range (the plugin's steps, not an op).
    if (is_loader < 0) {
      const std::string_view text = t.strings.get(name);
      is_loader = isPluginDataLoader(text) ? 1 : profilerStepNumber(text) ? 2 : 0;
    }
    if (is_loader == 2) continue;
    roles[is_loader ? 4 : 5].push_back(span);
  }
  for (Intervals& r : roles) mergeIntervals(r);

  Intervals step_spans;
  for (const Step& s : steps.steps) {
    if (s.complete) step_spans.push_back({s.start, s.end});
  }
  if (step_spans.empty()) {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (const Intervals& r : roles) {
      if (!r.empty()) lo = std::min(lo, r.front().start), hi = std::max(hi, r.back().end);
    }
    if (lo >= hi) return report;
    step_spans.push_back({lo, hi});
    report.whole_span = true;
  }

  // Statistics.create_from_range: each role takes what higher roles left.
  // Note the plugin does not clip the kernel role to the steps before
  // subtracting; per-step intersection below makes that irrelevant.
  Intervals slots = step_spans;
  mergeIntervals(slots);
  std::array<Intervals, kOverviewRoleCount> costs;
  for (size_t r = 0; r < roles.size(); ++r) {
    costs[r] = intersectIntervals(slots, roles[r]);
    slots = subtractIntervals(slots, costs[r]);
  }
  costs[kOverviewRoleCount - 1] = slots;

  for (const Interval& span : step_spans) {
    OverviewStep step;
    step.start = span.start;
    step.end = span.end;
    for (size_t r = 0; r < kOverviewRoleCount; ++r) {
      step.ns[r] = totalLength(clipIntervals(costs[r], span.start, span.end));
      report.avg_ns[r] += static_cast<double>(step.ns[r]);
    }
    report.avg_step_ns += static_cast<double>(span.length());
    report.steps.push_back(step);
  }
  const double n = static_cast<double>(report.steps.size());
  report.avg_step_ns /= n;
  for (double& v : report.avg_ns) v /= n;
  return report;
}

}  // namespace damscope
