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
//
// A lane holds its events sorted by start in one flat array of 32-byte
// records (start, end, row id, kind): no object per event. Events that may
// overlap on one lane (API calls, syncs) are packed greedily onto as many
// lanes as needed, the first lane where the previous event has ended.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/pipeline/pipeline.h"
#include "gui/models/event_ref.h"

namespace damscope {

struct LaneEvent {
  int64_t start = 0;  // ns
  int64_t end = 0;    // ns, >= start
  int64_t id = 0;     // row of the table `kind` names (EventRef::id)
  EventKind kind = EventKind::kKernel;
};

enum class LaneKind : uint8_t { kDeviceWork, kBubbles, kRanges, kApiCalls, kSyncs, kCounter };

struct Lane {
  LaneKind kind = LaneKind::kDeviceWork;
  int row = 0;  // index into TimelineRows::rows
  std::vector<LaneEvent> events;
  // kCounter only: the sample value of each event (a sample lasts until the
  // next one), and the largest value, which scales the plot.
  std::vector<double> values;
  double max_value = 0;
};

enum class RowKind : uint8_t { kStream, kBubbles, kThread, kCounter };

struct TimelineRow {
  RowKind kind = RowKind::kStream;
  std::string label;  // "GPU 0 · stream 7", "GPU 0 · bubbles", "thread 1234 (python)"
  int first_lane = 0;  // lanes [first_lane, first_lane + lane_count) of TimelineRows::lanes
  int lane_count = 0;
};

struct StepBandItem {
  int64_t ts = 0;  // aligned to the GPU work the step launched
  int64_t dur = 0;
  int64_t number = 0;
  std::string name;
};

struct TimelineRows {
  int32_t rank = 0;
  int64_t start = 0;  // the earliest event start, ns
  int64_t end = 0;    // the latest event end, ns
  std::vector<TimelineRow> rows;
  std::vector<Lane> lanes;
  std::vector<StepBandItem> steps;
  // kernels.name string id -> KernelCategory, classified once per distinct name.
  std::vector<KernelCategory> kernel_categories;

  // The lane holding `ref`, or -1 (another rank, a stale id, a counter).
  int laneOf(const EventRef& ref) const;
  bool empty() const { return lanes.empty(); }
  // Bytes held (the lanes' arrays and the lookups), for the memory budget.
  size_t bytes() const;

  // lane_of[kind][id]: the lane of each event, so a selected or requested
  // event is found without a search.
  std::vector<std::vector<int32_t>> lane_of;
};

// The rows of `rank` (an index into run.tables); empty for a rank out of range.
TimelineRows buildTimelineRows(const AnalysedRun& run, int rank);

}  // namespace damscope
