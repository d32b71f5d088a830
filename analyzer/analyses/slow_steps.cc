// Slow steps: see slow_steps.h.
#include "analyzer/analyses/slow_steps.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "base/median.h"

namespace damscope {
namespace {

// The median of durations, in whole ns.
int64_t medianOf(const std::vector<int64_t>& v) {
  return static_cast<int64_t>(median(v));
}

// The smallest distance between consecutive slow step numbers, when every
// distance is a whole number of it and it occurs at least twice.
std::optional<int64_t> periodOf(const std::vector<int64_t>& numbers) {
  if (numbers.size() < 3) return std::nullopt;
  std::vector<int64_t> gaps;
  for (size_t i = 1; i < numbers.size(); ++i) gaps.push_back(numbers[i] - numbers[i - 1]);
  const int64_t period = *std::min_element(gaps.begin(), gaps.end());
  if (period < 2) return std::nullopt;
  const auto exact = std::count(gaps.begin(), gaps.end(), period);
  const bool whole =
      std::all_of(gaps.begin(), gaps.end(), [&](int64_t g) { return g % period == 0; });
  return whole && exact >= 2 ? std::optional<int64_t>(period) : std::nullopt;
}

// Per host range name, its summed time in each judged step; and per slow
// step, each name's longest instance. Only names that occur in a slow step.
struct RangeTimes {
  std::unordered_map<int32_t, std::vector<int64_t>> per_step;  // name -> ns per judged step
  std::unordered_map<int32_t, std::vector<int64_t>> longest;   // name -> row per slow step
};

RangeTimes rangeTimes(const TraceTables& t, const StepReport& steps,
                      const std::vector<size_t>& judged, const std::vector<char>& is_slow,
                      const std::vector<size_t>& slow_position) {
  const RangeTable& r = t.ranges;
  std::vector<char> step_range(r.size(), 0);
  for (const Step& s : steps.steps) {
    if (s.range_id >= 0 && static_cast<size_t>(s.range_id) < r.size()) {
      step_range[static_cast<size_t>(s.range_id)] = 1;
    }
  }
  // The judged steps' host intervals, in time order (steps do not overlap).
  auto judgedAt = [&](int64_t ts) -> std::optional<size_t> {
    auto it = std::upper_bound(judged.begin(), judged.end(), ts, [&](int64_t time, size_t j) {
      return time < steps.steps[j].host_start;
    });
    if (it == judged.begin()) return std::nullopt;
    const size_t j = static_cast<size_t>(it - judged.begin()) - 1;
    if (ts >= steps.steps[judged[j]].host_end) return std::nullopt;
    return j;
  };
  RangeTimes out;
  // Two passes: the names of the slow steps first, then their times everywhere.
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t i = 0; i < r.size(); ++i) {
      if (step_range[i] || isNull(r.thread_id[i]) || !r.name[i].valid() || r.dur[i] <= 0) continue;
      const std::optional<size_t> j = judgedAt(r.ts[i]);
      if (!j) continue;
      const int32_t name = r.name[i].value;
      if (pass == 0) {
        if (!is_slow[*j]) continue;
        out.per_step.try_emplace(name, judged.size(), 0);
        auto [it, inserted] = out.longest.try_emplace(name);
        if (inserted) it->second.assign(slow_position.size(), kNullInt);
        int64_t& longest = it->second[slow_position[*j]];
        if (isNull(longest) || r.dur[i] > r.dur[static_cast<size_t>(longest)]) {
          longest = static_cast<int64_t>(i);
        }
        continue;
      }
      auto it = out.per_step.find(name);
      if (it != out.per_step.end()) it->second[*j] += r.dur[i];
    }
  }
  return out;
}

}  // namespace

SlowStepReport computeSlowSteps(const AnalysisInput& input, const StepReport& steps,
                                const WindowReport& window, const ScorecardReport& scorecard) {
  SlowStepReport report;
  std::vector<size_t> judged;  // StepReport indexes, in time order
  for (size_t s = 0; s < steps.steps.size(); ++s) {
    const Step& step = steps.steps[s];
    if (step.number != 0 && window.stepInWindow(s) && step.duration() > 0) judged.push_back(s);
  }
  if (judged.size() < kMinSteps) return report;
  report.steps_judged = judged.size();

  std::vector<int64_t> durations;
  durations.reserve(judged.size());
  for (size_t s : judged) durations.push_back(steps.steps[s].duration());
  report.median_ns = medianOf(durations);
  std::vector<int64_t> deviations;
  deviations.reserve(durations.size());
  for (int64_t d : durations)
    deviations.push_back(d > report.median_ns ? d - report.median_ns : report.median_ns - d);
  report.mad_ns = medianOf(deviations);
  const auto typical = static_cast<double>(report.median_ns);
  report.threshold_ns = static_cast<int64_t>(std::max(
      typical + kMadFactor * 1.4826 * static_cast<double>(report.mad_ns), typical * kMinSlowdown));

  std::vector<char> is_slow(judged.size(), 0);
  std::vector<size_t> slow_position(judged.size(), 0);
  std::vector<int64_t> slow_numbers;
  int64_t total = 0, extra = 0;
  for (size_t j = 0; j < judged.size(); ++j) {
    const Step& step = steps.steps[judged[j]];
    total += step.duration();
    if (step.duration() <= report.threshold_ns) continue;
    is_slow[j] = 1;
    slow_position[j] = report.slow.size();
    SlowStep slow;
    slow.step = judged[j];
    slow.extra_ns = step.duration() - report.median_ns;
    slow.ratio = typical > 0 ? static_cast<double>(step.duration()) / typical : 0;
    report.slow.push_back(slow);
    slow_numbers.push_back(step.number);
    extra += slow.extra_ns;
  }
  if (report.slow.empty()) return report;
  report.period = periodOf(slow_numbers);
  report.extra_pct =
      total > 0 ? 100.0 * static_cast<double>(extra) / static_cast<double>(total) : 0;
  const auto slow_count = static_cast<int64_t>(report.slow.size());

  // The axis that grew most: the slow steps' mean against the others' median.
  if (scorecard.valid && scorecard.steps.size() == steps.steps.size()) {
    for (size_t a = 0; a < kAxisCount; ++a) {
      std::vector<int64_t> others;
      int64_t slow_sum = 0;
      for (size_t j = 0; j < judged.size(); ++j) {
        const int64_t ns = scorecard.steps[judged[j]].ns[a];
        if (is_slow[j]) {
          slow_sum += ns;
        } else {
          others.push_back(ns);
        }
      }
      const int64_t grew = slow_sum / slow_count - medianOf(others);
      if (grew > report.grown_axis_ns) {
        report.grown_axis = static_cast<Axis>(a);
        report.grown_axis_ns = grew;
      }
    }
  }

  // The host range name that grew most, the same way.
  const TraceTables& t = input.tables();
  const RangeTimes times = rangeTimes(t, steps, judged, is_slow, slow_position);
  int32_t grown = -1;
  for (const auto& [name, per_step] : times.per_step) {
    std::vector<int64_t> others;
    int64_t slow_sum = 0;
    for (size_t j = 0; j < judged.size(); ++j) {
      if (is_slow[j]) {
        slow_sum += per_step[j];
      } else {
        others.push_back(per_step[j]);
      }
    }
    const int64_t grew = slow_sum / slow_count - medianOf(others);
    // Ties go to the name that sorts first, so that the result is the same
    // whatever the map's order.
    const bool better = grew > report.grown_range_ns ||
                        (grew == report.grown_range_ns && grew > 0 && grown >= 0 &&
                         t.strings.get(StringId{name}) < t.strings.get(StringId{grown}));
    if (better) {
      grown = name;
      report.grown_range_ns = grew;
    }
  }
  if (grown >= 0) {
    report.grown_range = std::string(t.strings.get(StringId{grown}));
    const std::vector<int64_t>& rows = times.longest.at(grown);
    for (size_t i = 0; i < report.slow.size(); ++i) report.slow[i].grown_range_row = rows[i];
  }
  return report;
}

std::string slowStepWords(const SlowStepReport& r, const StepReport& steps) {
  if (r.slow.empty()) return "";
  std::string list;
  const size_t shown = std::min<size_t>(r.slow.size(), 5);
  for (size_t i = 0; i < shown; ++i) {
    if (i > 0) list += i + 1 == r.slow.size() ? " and " : ", ";
    list += std::to_string(steps.steps[r.slow[i].step].number);
  }
  if (r.slow.size() > shown) list += fmt::format(" and {} more", r.slow.size() - shown);
  double ratio = 0;
  for (const SlowStep& s : r.slow) ratio += s.ratio;
  ratio /= static_cast<double>(r.slow.size());
  std::string out =
      fmt::format("{} {} take{} {:.1f}x the median step", r.slow.size() == 1 ? "Step" : "Steps",
                  list, r.slow.size() == 1 ? "s" : "", ratio);
  if (r.period) out += fmt::format(" (every {} steps)", *r.period);
  if (r.grown_axis) {
    out += fmt::format("; the extra time is mostly {}", axisLabel(*r.grown_axis));
  }
  if (!r.grown_range.empty()) {
    out += fmt::format("{} `{}` takes {:.1f} ms more per slow step", r.grown_axis ? ", and" : ";",
                       r.grown_range, static_cast<double>(r.grown_range_ns) * 1e-6);
  }
  return out;
}

}  // namespace damscope
