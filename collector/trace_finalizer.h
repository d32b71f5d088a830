// Puts a trace written by the collector into the store's time order and
// gives it its indexes.
//
// The trace store keeps every event table sorted by (ts, -dur)
// (docs/trace-format.md), which analyses and the GUI rely on. The injected
// library cannot write that order while the program runs: an NVTX range is
// written when it closes, after the ranges it contains; CUPTI delivers GPU
// records per buffer, not in time order. Sorting inside the recorded process
// at exit would delay its exit by seconds on big traces, so the damscope
// processes do it: `damscope record` after the command exits (also for a
// process that was killed), `damscope attach` after its window closes.
//
// The library also writes without indexes, whose upkeep would halve its
// insert rate (bench/collector_bench), and leaves them to the same step.
//
// finalizeTraceFile rewrites each unsorted event table in (ts, -dur) order,
// remaps ranges.parent_id to the new ids, creates the schema's indexes, and
// sets meta collector.finalized to 1. The library writes 0, so a file that
// was never finalized (the program was injected by hand and killed) says so;
// it is complete up to its last commit, only unsorted and unindexed.
#pragma once

#include <string>

#include "trace/result.h"

namespace damscope::collector {

// True when the file is a collector trace not yet finalized.
Result<bool> needsFinalize(const std::string& path);

// Sorts, indexes and marks the file; a no-op for a file already finalized.
Status finalizeTraceFile(const std::string& path);

}  // namespace damscope::collector
