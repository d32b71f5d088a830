// Steps: see steps.h.
#include "analyzer/analyses/steps.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "analyzer/analyses/name_patterns.h"

namespace damscope {
namespace {

struct Candidate {
  int64_t row;
  StepSource source;
  int64_t number;  // kNullInt: none in the name
};

// The TensorBoard plugin's step alignment (see steps.h for the reference).
void alignToGpuWork(const AnalysisInput& input, const StepOptions& options, StepReport& report) {
  const ApiCallTable& api = input.tables().api_calls;
  // Last GPU end of each launch call that ran GPU work (INT64_MIN: none).
  std::vector<int64_t> call_gpu_end(api.size(), INT64_MIN);
  bool any_launch = false;
  for (const GpuOp& op : input.gpu()) {
    if (op.launch < 0 || op.kind == GpuOpKind::kSync) continue;
    int64_t& end = call_gpu_end[static_cast<size_t>(op.launch)];
    end = std::max(end, op.end);
    any_launch = true;
  }
  if (!any_launch) return;
  std::vector<int64_t> calls(api.size());
  for (size_t i = 0; i < calls.size(); ++i) calls[i] = static_cast<int64_t>(i);
  auto by_start = [&](int64_t a, int64_t b) { return api.ts[a] < api.ts[b]; };
  if (!std::is_sorted(calls.begin(), calls.end(), by_start)) {
    std::stable_sort(calls.begin(), calls.end(), by_start);
  }

  std::vector<Step>& steps = report.steps;
  const size_t n = steps.size();
  std::vector<int64_t> gpu_end(n, INT64_MIN);
  bool any_gpu = false;
  int64_t first_gpu_step_start = 0;
  // Two-way merge of steps and launch calls, as _find_device_steps does:
  // calls that start before a step or straddle its end are skipped.
  size_t s = 0, c = 0;
  while (s < n && c < calls.size()) {
    const int64_t call = calls[c];
    const int64_t call_start = api.ts[call];
    const int64_t call_end = call_start + std::max<int64_t>(api.dur[call], 0);
    if (call_start < steps[s].host_start) {
      ++c;
    } else if (call_end <= steps[s].host_end) {
      if (call_gpu_end[static_cast<size_t>(call)] != INT64_MIN) {
        gpu_end[s] = std::max(gpu_end[s], call_gpu_end[static_cast<size_t>(call)]);
        ++steps[s].gpu_launches;
        if (!any_gpu) first_gpu_step_start = steps[s].host_start;
        any_gpu = true;
      }
      ++c;
    } else if (call_start < steps[s].host_end) {
      ++c;
    } else {
      ++s;
    }
  }
  if (!any_gpu) return;
  report.aligned_to_gpu = true;
  int64_t previous_end = first_gpu_step_start;
  for (size_t i = 0; i < n; ++i) {
    Step& step = steps[i];
    step.start = std::max(previous_end, step.host_start);
    step.end = gpu_end[i] == INT64_MIN ? std::max(step.host_end, step.start)
                                       : std::max(step.host_end, gpu_end[i]);
    previous_end = step.end;
  }
  // Tail steps the profiler may have cut off (_update_steps_duration).
  if (n > 1) {
    int64_t last = static_cast<int64_t>(n) - 1;
    while (last >= 0 && steps[static_cast<size_t>(last)].gpu_launches == 0) --last;
    if (last >= 0) {
      size_t keep = static_cast<size_t>(last) + 1;
      if (last > 0 && static_cast<double>(steps[static_cast<size_t>(last) - 1].gpu_launches) *
                              options.tail_launch_ratio >
                          static_cast<double>(steps[static_cast<size_t>(last)].gpu_launches)) {
        keep = static_cast<size_t>(last);
      }
      for (size_t i = keep; i < n; ++i) steps[i].complete = false;
      if (keep < n) {
        report.notes.push_back(std::to_string(n - keep) +
                               " trailing step(s) marked incomplete: the profiler may not have "
                               "captured all the GPU work they launched");
      }
    }
  }
}

}  // namespace

std::string_view toText(StepSource source) {
  switch (source) {
    case StepSource::kNone:
      return "none";
    case StepSource::kProfilerStep:
      return "profiler_step";
    case StepSource::kTrainer:
      return "trainer";
    case StepSource::kAnnotation:
      return "annotation";
  }
  return "none";
}

int64_t StepReport::stepAt(int64_t t) const {
  auto it = std::upper_bound(steps.begin(), steps.end(), t,
                             [](int64_t value, const Step& s) { return value < s.start; });
  if (it == steps.begin()) return -1;
  --it;
  return t < it->end ? static_cast<int64_t>(it - steps.begin()) : -1;
}

size_t StepReport::completeCount() const {
  return static_cast<size_t>(
      std::count_if(steps.begin(), steps.end(), [](const Step& s) { return s.complete; }));
}

StepReport computeSteps(const AnalysisInput& input, const StepOptions& options) {
  const TraceTables& t = input.tables();
  const RangeTable& r = t.ranges;
  StepReport report;
  report.tokens_per_step = options.tokens_per_step;
  report.samples_per_step = options.samples_per_step;
  if (!std::isnan(options.tokens_per_step) || !std::isnan(options.samples_per_step)) {
    report.throughput_source = "options";
  }
  // What the caller does not give, the workload's model annotation may.
  const ModelAnnotation& model = input.model();
  if (std::isnan(report.tokens_per_step) && model.tokens_per_step) {
    report.tokens_per_step = *model.tokens_per_step;
    report.throughput_source = "model annotation";
  }
  if (std::isnan(report.samples_per_step) && model.samples_per_step) {
    report.samples_per_step = *model.samples_per_step;
    report.throughput_source = "model annotation";
  }

  // Classify each distinct range name once.
  const StringId damscope = t.strings.find("damscope");
  std::unordered_map<int32_t, std::pair<StepSource, int64_t>> by_name;
  std::vector<Candidate> candidates;
  for (size_t i = 0; i < r.size(); ++i) {
    if (isNull(r.thread_id[i]) || !r.name[i].valid()) continue;  // host ranges only
    auto [it, inserted] = by_name.try_emplace(r.name[i].value, StepSource::kNone, kNullInt);
    if (inserted) {
      const std::string_view name = t.strings.get(r.name[i]);
      std::optional<int64_t> number;
      if (auto n = profilerStepNumber(name)) {
        it->second = {StepSource::kProfilerStep, *n};
      } else if (isStepAnnotationName(name, &number)) {
        it->second = {StepSource::kAnnotation, number ? *number : kNullInt};
      }
    }
    StepSource source = it->second.first;
    if (source == StepSource::kNone) continue;
    if (source == StepSource::kAnnotation && damscope.valid() && r.domain[i] == damscope) {
      source = StepSource::kTrainer;
    }
    candidates.push_back({static_cast<int64_t>(i), source, it->second.second});
  }
  if (candidates.empty()) {
    report.notes.push_back(
        "no steps found (no ProfilerStep#N, trainer step or step/iteration ranges): the whole "
        "trace is analysed as one span");
    return report;
  }
  // Preference order: profiler steps, trainer steps, user annotations.
  StepSource best = StepSource::kAnnotation;
  for (const Candidate& c : candidates) {
    if (c.source == StepSource::kProfilerStep) best = StepSource::kProfilerStep;
    if (c.source == StepSource::kTrainer && best == StepSource::kAnnotation) {
      best = StepSource::kTrainer;
    }
  }
  std::erase_if(candidates, [&](const Candidate& c) { return c.source != best; });
  // The thread with the most step ranges.
  std::unordered_map<int64_t, int64_t> per_thread;
  for (const Candidate& c : candidates) ++per_thread[r.thread_id[c.row]];
  int64_t thread = -1, most = 0;
  for (const auto& [id, count] : per_thread) {
    if (count > most || (count == most && id < thread)) thread = id, most = count;
  }
  std::erase_if(candidates, [&](const Candidate& c) { return r.thread_id[c.row] != thread; });
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](const Candidate& a, const Candidate& b) {
                     if (r.ts[a.row] != r.ts[b.row]) return r.ts[a.row] < r.ts[b.row];
                     return r.dur[a.row] > r.dur[b.row];
                   });

  int64_t zero_length = 0, nested = 0, overlapping = 0;
  for (const Candidate& c : candidates) {
    const int64_t start = r.ts[c.row];
    const int64_t end = start + std::max<int64_t>(r.dur[c.row], 0);
    if (end <= start) {
      ++zero_length;
      continue;
    }
    if (!report.steps.empty()) {
      Step& previous = report.steps.back();
      if (end <= previous.host_end) {  // inside the previous step: not a step of its own
        ++nested;
        continue;
      }
      if (start < previous.host_end) {  // overlaps: the previous step ends where this starts
        ++overlapping;
        previous.host_end = start;
        previous.end = start;
      }
    }
    Step step;
    step.number = isNull(c.number) ? static_cast<int64_t>(report.steps.size()) : c.number;
    step.name = r.name[c.row];
    step.range_id = c.row;
    step.host_start = step.start = start;
    step.host_end = step.end = end;
    report.steps.push_back(step);
  }
  // Clipping may have emptied a step.
  std::erase_if(report.steps, [](const Step& s) { return s.host_end <= s.host_start; });
  report.source = report.steps.empty() ? StepSource::kNone : best;
  if (zero_length > 0) {
    report.notes.push_back(std::to_string(zero_length) + " zero-length step range(s) ignored");
  }
  if (nested > 0) {
    report.notes.push_back(std::to_string(nested) +
                           " step range(s) nested inside another step ignored");
  }
  if (overlapping > 0) {
    report.notes.push_back(std::to_string(overlapping) +
                           " overlapping step range(s): each step was cut where the next begins");
  }
  if (report.steps.empty()) {
    report.notes.push_back("no usable step ranges: the whole trace is analysed as one span");
    return report;
  }
  alignToGpuWork(input, options, report);
  // A CPU run's ops lie inside the host steps already: nothing to align.
  if (!report.aligned_to_gpu && !input.gpu().empty() && !input.cpuRun()) {
    report.notes.push_back(
        "no launch call inside a step could be matched to GPU work (missing correlation ids?): "
        "steps keep their host extent");
  }
  return report;
}

}  // namespace damscope
