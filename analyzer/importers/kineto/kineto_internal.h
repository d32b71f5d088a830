// Internal to the Kineto importer: what its stages share. Not part of the
// analyzer's API; the entry point is kineto_importer.h.
//
// An import runs in three stages, one file each:
//   kineto_reader.cc   walks the JSON document once with simdjson On-Demand,
//                      reads each trace event into a flat Event and the
//                      trace-level keys into the ImportState;
//   kineto_routing.cc  routes each Event by phase and category into the
//                      neutral tables (EventRouter);
//   legacy_autograd.cc routes them instead when the document is the legacy
//                      autograd profiler's (legacy_autograd.h), which the
//                      reader tells from its first event (Dialect);
//   kineto_finish.cc   runs after the last event: trace-level keys may follow
//                      "traceEvents" (Kineto writes baseTimeNanoseconds last),
//                      so times are shifted, tables sorted and names, devices,
//                      metadata and stats filled in only then.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analyzer/importers/io/document_text.h"
#include "analyzer/importers/kineto/kineto_metadata.h"
#include "base/progress.h"
#include "base/result.h"
#include "trace/process_registry.h"
#include "trace/tables.h"

namespace damscope::kineto {

// A pid or tid: Kineto writes numbers, but also strings ("25738", "stream 7",
// "Spans"); the legacy autograd profiler writes the pid "CPU functions".
struct EventId {
  int64_t number = kNullInt;
  std::string_view text;  // the string as written, when the id is a string
  bool numeric() const { return number != kNullInt; }
};

// One trace event, its fields read in whatever order they come. The
// string_views point into the JSON text and are valid while it is.
struct Event {
  std::string_view ph, cat, name;
  EventId pid, tid;
  int64_t ts = kNullInt, dur = kNullInt;
  int64_t external_id = kNullInt, correlation = kNullInt, device = kNullInt, stream = kNullInt;
  int64_t registers = kNullInt, shared_memory = kNullInt, bytes = kNullInt, cbid = kNullInt;
  int64_t device_type = kNullInt, device_id = kNullInt;
  double occupancy = nullValue<double>(), total_allocated = nullValue<double>();
  double total_reserved = nullValue<double>(), flops = nullValue<double>();
  double sass_flops = 0;
  bool has_sass = false;
  double dram_bytes = 0;  // CUPTI dram__bytes_read.sum + dram__bytes_write.sum
  bool has_dram = false;
  std::array<int32_t, 3> grid{kNullInt32, kNullInt32, kNullInt32};
  std::array<int32_t, 3> block{kNullInt32, kNullInt32, kNullInt32};
  std::string_view sync_kind, copy_kind, meta_name, meta_labels;
  std::string extras;  // JSON object text of the kept arguments, "" if none

  void reset() {
    std::string keep = std::move(extras);
    *this = Event();
    keep.clear();
    extras = std::move(keep);  // reuse the buffer's capacity
  }
};

// FLOPs attached to ranges, recorded by row index before the final sort.
struct PendingMetric {
  int64_t range_row;
  double flops;
  MetricSource source;
  double dram_bytes = nullValue<double>();  // measured: dram__bytes_read + dram__bytes_write
};

// Which profiler wrote the document: Kineto (an object with "traceEvents", or
// a bare array of Kineto events) or the legacy autograd profiler (a bare array
// of events with pid "CPU functions"). A bare array is undecided until its
// first event is read.
enum class Dialect : uint8_t { kUndecided, kKineto, kLegacyAutograd };

// The tables being built and everything the stages learn on the way. Neither
// copied nor moved: the registry refers to `tables`.
struct ImportState {
  explicit ImportState(std::string source_name) : source(std::move(source_name)) {}
  ImportState(const ImportState&) = delete;
  ImportState& operator=(const ImportState&) = delete;

  // Counts one occurrence of a data-loss or oddity stat.
  void stat(const std::string& name, const std::string& description) {
    tables.addStat(name, 1, description);
  }

  std::string source;  // names the input in messages and in meta
  TraceTables tables;
  ProcessRegistry registry{tables};

  // Trace-level keys, set by the reader.
  int64_t base_time_ns = 0;
  std::vector<KinetoDevice> devices;
  KinetoDistributedInfo distributed;
  std::string hostname;
  bool saw_trace_events = false;
  Dialect dialect = Dialect::kUndecided;

  // Learned from the events, set by the router.
  std::unordered_map<int64_t, std::string> process_names;
  std::map<std::pair<int64_t, int64_t>, std::string> thread_names;
  int64_t profiler_span_start = kNullInt, profiler_span_end = kNullInt;
  int64_t events = 0, flow_events = 0;
  std::vector<PendingMetric> pending_metrics;
  // [start, end) of each host range skipped for want of a thread, so that
  // lost_spans can say when they were (kineto_finish.cc).
  std::vector<std::pair<int64_t, int64_t>> threadless_ranges;
};

// What a complete event becomes, by its category (lower-cased).
enum class Route : uint8_t {
  kKernel,
  kMemcpy,
  kMemset,
  kRuntime,
  kDriver,
  kSync,
  kHostRange,
  kGpuRange,
  kProfilerRange,
  kProfilerSpan,
};

struct CategoryRoute {
  Route route;
  std::string_view category;  // the ranges.category name, for ranges
};

// Adds each event to the table its phase and category call for.
class EventRouter {
 public:
  explicit EventRouter(ImportState& state) : s_(state), t_(state.tables) {}

  // May normalise `e` (a missing duration becomes 0).
  void route(Event& e);

 private:
  void addComplete(Event& e);
  void addInstant(const Event& e);
  void addMetadata(const Event& e);

  ImportState& s_;
  TraceTables& t_;
  // Consecutive events mostly share a category: it is routed once per change.
  std::string lower_cat_;
  std::string last_cat_;
  std::optional<CategoryRoute> last_route_;
};

// The time checks every complete event passes before it is stored: a missing
// `ts` skips it, a missing or negative `dur` becomes 0, and a start or end
// outside the trace's time range (±2^62 ns) skips it; each is counted in
// stats. False when the event is skipped.
bool checkCompleteTimes(ImportState& state, Event& e);

// Adds the events of a legacy autograd profiler trace (legacy_autograd.h):
// each "X" event on pid "CPU functions" becomes a host range of one process
// whose OS pid the format does not say (processes.pid NULL), on the thread
// its tid names, categorised by name (legacyRangeCategory). Fails on an event
// that the legacy profiler does not write: another pid, a category, a tid
// that is no thread id.
class LegacyEventRouter {
 public:
  explicit LegacyEventRouter(ImportState& state) : s_(state), t_(state.tables) {}

  Status route(Event& e);

 private:
  ImportState& s_;
  TraceTables& t_;
};

// The legacy profiler truncates an event's start and its duration to whole
// microseconds separately (torch/autograd/profiler.py, _parse_kineto_results:
// rel_end_us = rel_start_us + duration_us()), so a range can end up to 1 µs
// after the range that contains it. Ends such a range where its container
// ends, so that the two nest (trace/range_nesting.h), and returns how many.
// Requires `ranges` sorted by time, host ranges only; may leave them unsorted.
int64_t clipTruncatedEnds(RangeTable& ranges);

// Whether `first`, the first event of a bare array, was written by the legacy
// autograd profiler.
bool isLegacyAutogradEvent(const Event& first);

// How readDocument reads, and what a windowed read leaves to a whole one.
struct ReadMode {
  // Windows of about this many bytes of text (kineto_importer.h); 0: the
  // whole document at once.
  size_t window_bytes = 0;
  // Set by a windowed read that met something only a whole read may judge
  // (an error, a non-object entry, a document of another shape), or a head
  // larger than its window: the state it filled is to be dropped and the
  // document read again, with the window_bytes it leaves (0: whole).
  bool retry = false;
  // The document offset progress has been reported up to, and the last
  // fraction reported, so that a whole read after a windowed one reports no
  // fraction twice.
  size_t reported_bytes = 0;
  double reported_fraction = 0;
};

// Reads the whole document, handing every event to `router` (or, in a legacy
// autograd profiler document, to a LegacyEventRouter). A windowed read
// parses the text as it arrives; a whole read waits for all of it, which
// must be followed by kJsonPadding readable bytes. Reports the fraction of
// the document read to `progress`; returns cancelledError() when it is
// cancelled, and the text's own error when it cannot come.
Status readDocument(DocumentText& text, ImportState& state, EventRouter& router,
                    const Progress& progress, ReadMode& mode);

// The final pass, after every event is read. Fails when the base time moves
// an event outside the trace's time range.
Status finishImport(ImportState& state);

}  // namespace damscope::kineto
