// What the details panel says about one event: a list of (label, value) lines
// in reading order. A pure function of the event reference and the open run,
// so it is tested without a window.
//
// Every event: name, kind, start (relative to the trace's first event and
// absolute, in ns on the trace's clock), duration. Then per kind:
//   kernel   device and stream, grid and block, registers per thread, shared
//            memory per block, occupancy; its launch call (the api_calls row
//            with the same correlation_id) and the ranges enclosing that call
//   memcpy   device and stream, copy kind, bytes, memory kinds, throughput;
//   memset   launch call and enclosing ranges as for a kernel
//   api call thread, correlation id, return code, enclosing ranges
//   range    category, domain, where (thread or device/stream), depth, its
//            parents (parent_id chain)
//   sync     kind, where
//   gap      device and stream, cause, the time per cause, the HTA category,
//            the evidence event that shows the cause, the operation that
//            ended it
// Enclosing ranges are the host ranges on the launching thread that contain
// the launch call's start, outermost first.
//
// Cost: finding a launch call and its enclosing ranges is one pass over the
// api_calls and ranges columns (no index is built per click; ~1 ms per million
// rows), cheaper than building a per-thread index for a single lookup.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gui/models/event_ref.h"

namespace damscope {

using EventDetailLines = std::vector<std::pair<std::string, std::string>>;

// Empty when `ref` names no row of `run`.
EventDetailLines eventDetails(const EventRef& ref, const AnalysedRun& run);

// The api_calls row that launched the GPU operation `ref` names (matched by
// correlation_id); empty for other kinds or when no call matches.
std::optional<int64_t> launchCallOf(const EventRef& ref, const AnalysedRun& run);

// The ranges (ids) on host thread `thread_id` that contain time `ts`,
// outermost first.
std::vector<int64_t> enclosingRanges(const TraceTables& tables, int64_t thread_id, int64_t ts);

// The start of the trace's first event (kernels, copies, memsets, API calls,
// ranges, syncs); 0 for a trace without events.
int64_t firstEventTs(const TraceTables& tables);

}  // namespace damscope
