// Internal to the Kineto importer: what its stages share. Not part of the
// analyzer's API; the entry point is kineto_importer.h.
//
// An import runs in three stages, one file each:
//   kineto_reader.cc   walks the JSON document once with simdjson On-Demand,
//                      reads each trace event into a flat Event and the
//                      trace-level keys into the ImportState;
//   kineto_routing.cc  routes each Event by phase and category into the
//                      neutral tables (EventRouter);
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

#include "analyzer/importers/kineto_metadata.h"
#include "trace/process_registry.h"
#include "trace/progress.h"
#include "trace/result.h"
#include "trace/tables.h"

namespace damscope::kineto {

// A pid or tid: Kineto writes numbers, but also strings ("25738", "stream 7",
// "Spans").
struct EventId {
  int64_t number = kNullInt;
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
};

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

  // Learned from the events, set by the router.
  std::unordered_map<int64_t, std::string> process_names;
  std::map<std::pair<int64_t, int64_t>, std::string> thread_names;
  int64_t profiler_span_start = kNullInt, profiler_span_end = kNullInt;
  int64_t events = 0, flow_events = 0;
  std::vector<PendingMetric> pending_metrics;
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

// Reads the whole document, handing every event to `router`. `json` needs
// simdjson's padding of spare capacity (it is reserved if missing). Reports
// the fraction of the document read to `progress`; returns cancelledError()
// when it is cancelled.
Status readDocument(std::string& json, ImportState& state, EventRouter& router,
                    const Progress& progress);

// The final pass, after every event is read. Fails when the base time moves
// an event outside the trace's time range.
Status finishImport(ImportState& state);

}  // namespace damscope::kineto
