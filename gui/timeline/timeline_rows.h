// The timeline's rows for one rank: what the widget draws, built once per
// (run, rank) as a pure function of the AnalysedRun, so it can be built off
// the UI thread. Rows by kind (style rule 12):
//   - a device stream: its kernels, memcpys and memsets on one lane; GPU-side
//     ranges by depth and stream syncs on lanes of their own below it;
//   - a device's bubbles: the rank's gaps (RankResult::gaps), the whole-device
//     gaps on one lane; a stream's gaps go on a bubbles lane in its stream row;
//   - a host thread: ranges (NVTX, cpu_op, user annotations) on one lane per
//     nesting depth (ranges.depth), then runtime API calls and syncs on lanes
//     of their own, so neither covers the other;
//   - a counter (counters grouped by name, device and thread): an area plot;
//     per-thread series busiest first, the quiet threads of a counter summed
//     into one row;
// and the steps (RankResult::steps, aligned ts/dur) as a band across the top.
// Several ranks stacked in one view (stacked_rows.h) reuse these rows, each
// rank's under a header row of its group, with a skew lane above them.
//
// A lane holds its events sorted by start in one flat array of 32-byte
// records (start, end, row id, kind): no object per event. Events that may
// overlap on one lane (API calls, syncs) are packed greedily onto as many
// lanes as needed, the first lane where the previous event has ended.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/pipeline/pipeline.h"
#include "base/progress.h"
#include "gui/models/event_ref.h"
#include "gui/models/lost_records.h"
#include "gui/timeline/rank_alignment.h"

namespace damscope {

struct LaneEvent {
  int64_t start = 0;  // ns
  int64_t end = 0;    // ns, >= start
  int64_t id = 0;     // row of the table `kind` names (EventRef::id)
  EventKind kind = EventKind::kKernel;
};

// kRankHeader: a stacked rank's header (no events); kSkew: the stacked view's
// collective skew, an event per matched collective (id: its index in
// TimelineRows::collectives).
enum class LaneKind : uint8_t {
  kDeviceWork,
  kBubbles,
  kRanges,
  kApiCalls,
  kSyncs,
  kCounter,
  kRankHeader,
  kSkew
};

struct Lane {
  LaneKind kind = LaneKind::kDeviceWork;
  int row = 0;       // index into TimelineRows::rows
  int32_t rank = 0;  // the events' rank (EventRef::rank: an index into AnalysedRun::tables)
  std::vector<LaneEvent> events;
  // kCounter only: the sample value of each event (a sample lasts until the
  // next one), and the largest value, which scales the plot.
  std::vector<double> values;
  double max_value = 0;
};

enum class RowKind : uint8_t { kStream, kBubbles, kThread, kCounter, kRankHeader, kSkew };

struct TimelineRow {
  RowKind kind = RowKind::kStream;
  std::string label;   // "GPU 0 · stream 7", "GPU 0 · bubbles", "thread 1234 (python)"
  int first_lane = 0;  // lanes [first_lane, first_lane + lane_count) of TimelineRows::lanes
  int lane_count = 0;
  int group = -1;  // its RankGroup in a stacked view; -1 in one rank's rows and the skew row
};

// One rank of a stacked view: its header row, then its rows, its times moved
// by offset_ns onto the view's clock (rank_alignment.h).
struct RankGroup {
  int32_t rank = 0;  // index into AnalysedRun::tables
  int64_t offset_ns = 0;
  int header_row = 0;  // its rows are [header_row + 1, end_row)
  int end_row = 0;
  int first_lane = 0;                         // its lane_of's lanes count from here
  std::vector<std::vector<int32_t>> lane_of;  // as TimelineRows::lane_of, for this rank
};

struct StepBandItem {
  int64_t ts = 0;  // aligned to the GPU work the step launched
  int64_t dur = 0;
  int64_t number = 0;
  std::string name;
};

struct TimelineRows {
  int32_t rank = 0;   // one rank's rows; -1 when groups stack several
  int64_t start = 0;  // the earliest event start, ns
  int64_t end = 0;    // the latest event end, ns
  std::vector<TimelineRow> rows;
  std::vector<Lane> lanes;
  std::vector<StepBandItem> steps;
  std::vector<LostBand> lost;  // by start
  // kernels.name string id -> KernelCategory, classified once per distinct
  // name; in a stacked view, per group (by_rank_categories[group]).
  std::vector<KernelCategory> kernel_categories;
  std::vector<std::vector<KernelCategory>> by_rank_categories;

  // A stacked view's ranks, the skew lane's collectives and how the clocks
  // were aligned (rank_alignment.h); empty for one rank's rows.
  std::vector<RankGroup> groups;
  std::vector<CollectiveSkew> collectives;
  std::string alignment;

  // The lane holding `ref`, or -1 (another rank, a stale id, a counter).
  int laneOf(const EventRef& ref) const;
  // What to add to the times of `rank` (EventRef::rank) to place them on
  // these rows' clock: 0 but in a stacked view aligned on collectives.
  int64_t offsetOf(int32_t rank) const;
  // The kernel categories of `rank`'s string ids.
  const std::vector<KernelCategory>& categoriesOf(int32_t rank) const;
  bool empty() const { return lanes.empty(); }
  // Bytes held (the lanes' arrays and the lookups), for the memory budget.
  size_t bytes() const;

  // lane_of[kind][id]: the lane of each event, so a selected or requested
  // event is found without a search.
  std::vector<std::vector<int32_t>> lane_of;
};

// The lost band under time `ts`, or within `slack_ns` of it (so a band
// narrower than a pixel can be pointed at), the nearest first; nullptr when none.
const LostBand* lostBandAt(const TimelineRows& rows, int64_t ts, int64_t slack_ns);

// A counter lane's value at `ts`: the last sample at or before it, which
// holds until the next; nothing before the first sample or after the last
// one ends, or on a lane that is not a counter.
std::optional<double> counterValueAt(const Lane& lane, int64_t ts);

// A counter's value for its scale and tooltip, in three significant digits
// with an SI prefix where it is large or small: "812", "3.47 k", "12.5 G",
// "0.25", "4.1 m" (counters carry no unit in the trace).
std::string counterValueText(double value);

// The rows of `rank` (an index into run.tables); empty for a rank out of range.
// `progress` hears how far the build is, by the events handled.
TimelineRows buildTimelineRows(const AnalysedRun& run, int rank, const Progress& progress = {});

}  // namespace damscope
