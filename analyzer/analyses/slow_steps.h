// Slow steps: the analysed steps that take much longer than the typical one,
// whether they recur every Nth step (checkpointing, evaluation, logging,
// garbage collection, recompilation), and what they spend the extra time on.
// An average over the steps hides them; users of HTA and Nsight find them by
// eye on the timeline (issue 29 §2; MegaScale, NSDI 2024, §5 on transient
// slowdowns found from step-time outliers).
//
// Outliers by a robust rule: a step is slow when its duration exceeds
//   median + kMadFactor x 1.4826 x MAD
// of the analysed steps' durations (MAD: the median absolute deviation;
// 1.4826 makes it a consistent estimate of the standard deviation for
// normal data, and 3 is the "very conservative" cut of Leys et al.,
// "Detecting outliers: do not use standard deviation around the mean, use
// absolute deviation around the median", J. Exp. Soc. Psych. 49, 2013), and
// also by at least kMinSlowdown of the median, so that a run whose steps
// agree to the microsecond does not call 2 % of jitter slow. The run's first
// step (number 0: ProfilerStep#0, the trainer's step 0, the first unnumbered
// step range) is left out, as it pays for warm-up (allocator growth, cuDNN
// autotuning, compilation), and at least kMinSteps analysed steps are needed.
//
// Periodic: three or more slow steps whose step numbers lie a whole number of
// periods apart, the period (the smallest distance, at least 2) occurring at
// least twice: "every 10th step" survives one slow step that was not.
//
// What differs from the median step, over the slow steps together:
//   the scorecard axis whose time grew most against the median of the other
//   analysed steps' axis times (scorecard.h), and the host range name whose
//   summed time per step grew most (ranges that start inside the step on a
//   host thread, the step ranges themselves left out; nested ranges count
//   each in their own name, so the outermost range that grew wins a tie).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/analyses/analysis_input.h"
#include "analyzer/analyses/analysis_window.h"
#include "analyzer/analyses/scorecard.h"
#include "analyzer/analyses/steps.h"

namespace damscope {

constexpr double kMadFactor = 3.0;
constexpr double kMinSlowdown = 1.2;  // x the median step
constexpr size_t kMinSteps = 5;

struct SlowStep {
  size_t step = 0;       // index into StepReport::steps
  int64_t extra_ns = 0;  // its duration minus the median step's
  double ratio = 0;      // its duration over the median step's
  // The instance of SlowStepReport::grown_range in this step that lasted
  // longest (ranges row), or kNullInt.
  int64_t grown_range_row = kNullInt;
  bool operator==(const SlowStep&) const = default;
};

struct SlowStepReport {
  size_t steps_judged = 0;  // analysed steps the rule looked at (0: too few to judge)
  int64_t median_ns = 0;
  int64_t mad_ns = 0;
  int64_t threshold_ns = 0;  // a step longer than this is slow
  std::vector<SlowStep> slow;
  std::optional<int64_t> period;  // slow every `period` steps
  // Their excess over the median step, % of the analysed steps' time.
  double extra_pct = 0;
  // What grew, per slow step on average against the median other step.
  std::optional<Axis> grown_axis;
  int64_t grown_axis_ns = 0;
  std::string grown_range;  // a host range name, or "" when none grew
  int64_t grown_range_ns = 0;
  bool operator==(const SlowStepReport&) const = default;
};

SlowStepReport computeSlowSteps(const AnalysisInput& input, const StepReport& steps,
                                const WindowReport& window, const ScorecardReport& scorecard);

// "Steps 10, 20 and 30 take 2.9x the median step (every 10th step); the extra
// time is mostly host stall, and `checkpoint` takes 38.2 ms more per slow
// step": the finding's title. Empty without slow steps.
std::string slowStepWords(const SlowStepReport& report, const StepReport& steps);

}  // namespace damscope
