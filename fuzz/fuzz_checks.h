// What the fuzz targets assert about an input that was accepted: the trace
// store's contract holds (docs/trace-format.md), so the tables can be stored,
// read back by the checking reader, and analysed. A broken promise aborts,
// which libFuzzer reports as a crash and the replay tests as a failure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "trace/tables.h"

namespace damscope::fuzz {

// Writes `tables` into an in-memory trace store, reads them back with
// readTrace (which validates ids and times) and runs every per-rank analysis
// on what it read. Aborts, naming the step, when any of these fails.
void checkAcceptedTrace(const TraceTables& tables);

// The event times analyses rely on (docs/trace-format.md, Conventions),
// restated here independently of the reader's own check: every ts and dur
// present, dur never negative, start and end inside ±2^62 ns. Aborts naming
// the table and row that break it. (In a build without UBSan, an overflow
// that a bad time causes in an analysis is silent: this makes it loud.)
void checkEventTimesHold(const TraceTables& tables);

// Every table of `tables` as text, column by column, strings resolved: two
// imports are the same when their texts are.
std::string tablesText(const TraceTables& tables);

// Writes `size` bytes to a file of this process (one per `name`, reused by
// each input) and returns its path: the SQLite readers take a file.
std::string writeInputFile(const std::string& name, const uint8_t* data, size_t size);

// Aborts with `what` on stderr.
[[noreturn]] void fail(const std::string& what);

}  // namespace damscope::fuzz
