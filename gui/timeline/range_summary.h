// What a stretch of one rank's timeline holds, as Perfetto's area selection
// and Nsight Systems' range summary say it: the busy time of each row, the
// kernel time by class and the bubble time by cause inside [start, end). A
// pure function of the timeline's rows and the run, tested headless; the
// Event dock shows it for the window selected with Shift+drag, and the row
// headers show each row's busy share of the whole trace.
//
// Every event counts the part of it inside the window (an event across an
// edge counts in part). Busy is the union of a row's events, so nested ranges
// and overlapping calls count once:
//   - a stream: its kernels, copies and memsets (the device-work lane);
//   - a host thread: its ranges and runtime calls (time the thread spent in
//     annotated or traced code);
//   - bubbles and counter rows: none (bubbles are idle time: they count by
//     cause below, from the device-wide bubbles row only, so a stream's
//     gaps inside a device gap are not counted twice).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gui/models/time_window.h"
#include "gui/timeline/timeline_rows.h"

namespace damscope {

struct RangeSummary {
  TimeWindow window;
  // Per TimelineRows::rows index; -1 for a row with no busy time to speak of
  // (bubbles, counters).
  std::vector<int64_t> row_busy_ns;
  std::array<int64_t, kKernelCategoryCount> kernel_ns{};  // by KernelCategory
  std::array<int64_t, kKernelCategoryCount> kernels{};    // how many, in part or whole
  std::array<int64_t, kGapCauseCount> bubble_ns{};        // by GapCause

  bool operator==(const RangeSummary&) const = default;
};

RangeSummary summarizeRange(const TimelineRows& rows, const AnalysedRun& run,
                            const TimeWindow& window);

// A row's busy share of the summary's window as its header shows it ("37 %",
// "4.2 %", "0 %"); empty for a row with no busy time to speak of.
std::string busyShareText(const RangeSummary& summary, size_t row);

// The summary as the Event dock lists it (label, value): the window, the
// kernel time by class and the bubbles by cause (largest first, with their
// share of the window), then each row's busy time and share; classes, causes
// and rows with nothing inside are left out.
std::vector<std::pair<std::string, std::string>> rangeSummaryLines(const RangeSummary& summary,
                                                                   const TimelineRows& rows);

}  // namespace damscope
