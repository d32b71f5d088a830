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
// remaps ranges.parent_id and kernel_metrics.kernel_id to the new ids,
// creates the schema's indexes, and sets meta collector.finalized to 1. The
// library writes 0, so a file that was never finalized (the program was
// injected by hand and killed) says so; it is complete up to its last
// commit, only unsorted and unindexed.
//
// An abrupt end is recorded here too. A window the collector closed has
// meta collector.end_reason; a process killed outright (SIGKILL, the OOM
// killer) or one whose crash the collector could not save in time leaves
// none, and loses what happened after its last commit. The library writes
// meta collector.last_commit_ns at every commit (about every 0.5 s); the
// finalizer then writes stats:
//   collector.ended_abruptly         1
//   collector.unrecorded_tail_ns     from the last commit to the process's end,
//                                    when the caller saw the end (record), else
//                                    the bound: one commit interval being
//                                    filled plus one being written, 1 s
//   collector.estimated_lost_events  the file's event rate over the window
//                                    times that tail: roughly what is missing
// The estimate is an upper bound when the end is only known as the bound.
#pragma once

#include <cstdint>
#include <string>

#include "base/result.h"

namespace damscope::collector {

// Two commit intervals (collector.cc): the batch being filled and the one
// being written when the process died.
constexpr int64_t kMaxUnsavedNs = 1'000'000'000;

struct FinalizeOptions {
  // When the process that wrote the file was seen to end (CLOCK_REALTIME ns);
  // 0: unknown (the file is finalized long after, by info or analyze).
  int64_t process_end_ns = 0;
};

struct FinalizeReport {
  bool finalized_now = false;  // false: it was already finalized
  bool ended_abruptly = false;
  int64_t unrecorded_tail_ns = 0;
  int64_t estimated_lost_events = 0;
};

// True when the file is a collector trace not yet finalized.
Result<bool> needsFinalize(const std::string& path);

// Sorts, indexes and marks the file, and records an abrupt end (above); a
// no-op for a file already finalized.
Result<FinalizeReport> finalizeTraceFile(const std::string& path,
                                         const FinalizeOptions& options = {});

// One line for the user about an abrupt end ("" when the end was not abrupt).
std::string abruptEndNote(const std::string& path, const FinalizeReport& report);

// One line for the user about the hardware counters of a recording made
// with --counters: how many launches were measured and the time spent in
// them, or why none were (meta collector.counters); "" for a recording
// without --counters.
Result<std::string> countersNote(const std::string& path);

}  // namespace damscope::collector
