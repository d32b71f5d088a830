// Every rank of a job in one timeline: under the step band, a skew lane (per
// matched collective, a bar from the first rank's start to the last rank's:
// how late the last rank joined), then one group per rank, in input order,
// each a header row ("rank 1 — rank1.json") above that rank's rows as
// buildTimelineRows makes them, its times moved onto the view's clock
// (rank_alignment.h says which clock and how it is chosen). The step band is
// the first rank's. A pure function of the run, built off the UI thread as
// buildTimelineData is: one rank's rows per rank, then the level-of-detail
// aggregates over them all, so N ranks cost about N times one.
#pragma once

#include <memory>
#include <vector>

#include "gui/timeline/timeline_painter.h"

namespace damscope {

// The stacked rows of every rank of `run` on `alignment`'s clock; `progress`
// hears how many ranks are done.
TimelineRows stackRanks(const AnalysedRun& run, const RankAlignment& alignment,
                        const Progress& progress = {});

// alignRanks, stackRanks and their aggregates. Pure: safe off the UI thread.
std::shared_ptr<const TimelineData> buildJobTimelineData(const AnalysedRun& run,
                                                         const Progress& progress = {});

// The header of a rank's group: "rank 1 — rank1.json", and its offset when
// its times were moved.
std::string rankGroupLabel(const AnalysedRun& run, const RankGroup& group);

}  // namespace damscope
