// The report's timeline strip: one representative step of one rank, as the
// GPU saw it — each stream's kernels, copies and memsets coloured by kind of
// work, and the device's bubbles coloured by cause. The step is the analysed
// step of median duration (a typical step, not the warm-up or the slowest).
//
// Built from the rank's events (for the spans) and its result (for the steps
// and the gaps, which the analysis already classified). Spans closer than
// the strip can draw apart are merged, so a step of 100 k kernels becomes a
// few thousand spans and the report stays small.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/result/analysis_result.h"
#include "trace/tables.h"

namespace damscope {

struct StripSpan {
  int64_t ts = 0;  // ns from the step's start
  int64_t dur = 0;
  KernelCategory category = KernelCategory::kOther;
  int64_t events = 1;  // events merged into this span
  std::string name;    // the longest event's name
};

struct StripRow {
  int64_t stream = 0;
  std::vector<StripSpan> spans;
};

struct StripBubble {
  int64_t ts = 0;  // ns from the step's start, clipped to the step
  int64_t dur = 0;
  GapCause cause = GapCause::kOther;
};

struct StepStrip {
  int64_t step_number = 0;
  std::string step_name;
  int64_t dur = 0;
  int32_t device = 0;
  int64_t steps_considered = 0;  // the analysed steps the median was taken over
  std::vector<StripRow> rows;    // by stream
  std::string lane = "stream";   // what a row is: a stream, or a CPU's compute "thread"
  std::vector<StripBubble> bubbles;
};

// Empty when the rank has no analysed step with GPU work on its primary
// device. `resolution` is how many spans fit across the strip.
std::optional<StepStrip> buildStepStrip(const TraceTables& tables, const RankResult& result,
                                        int resolution = 800);

}  // namespace damscope
