// What a figure counts over (its scope), in words every panel shows: the
// same kernel must not read 135 runs in one view and 162 in another without
// the views saying why (issue 31 §1).
//
// Two scopes exist for one rank's whole run:
//   - the analysed steps: the window the diagnosis, the scorecard, the
//     charts and the roofline describe (analysis_window.h; by default HTA's,
//     which drops the last step because the profiler usually cuts it off);
//   - the whole trace: every event the file holds, as `nsys stats` counts.
// The statistics count the analysed steps by default, as everything beside
// them does, and can be switched to the whole trace. A time window a person
// selects (time_window.h) replaces both while it is set.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include <QString>

#include "analyzer/result/analysis_result.h"
#include "gui/models/time_window.h"

namespace damscope {

enum class FigureScope : uint8_t { kAnalysedSteps, kWholeTrace };

// The time range the statistics keep for `scope`: the analysed range
// (WindowResult::start_ns..end_ns: the analysed steps, widened to cover the
// GPU work launched in them) for the analysed steps; none (everything) for
// the whole trace, or where the analysis found no range.
std::optional<TimeWindow> scopeWindow(const RankResult& rank, FigureScope scope);

// "the 5 analysed steps (the 6th is cut off, as HTA does)", "the whole trace
// (6 steps)": what a header or tooltip names as its scope.
QString scopeWords(const RankResult& rank, FigureScope scope);
// "the 5 analysed steps": scopeWords without the cut's reason, for a title.
QString analysedStepsWords(const RankResult& rank);

// What a key figure of the diagnosis (result_words.h keyFigures, by its
// label) counts over, for its tooltip: "the wall time of the 5 analysed
// steps"; empty for a label it does not know.
QString keyFigureScope(const RankResult& rank, std::string_view label);

// The scorecard's scope: its shares are of the analysed steps' wall time
// (scorecard.h), each instant under one axis.
QString scorecardScope(const RankResult& rank);

}  // namespace damscope
