// Importer for PyTorch profiler (Kineto) Chrome-trace JSON: see kineto_importer.h.
//
// One pass over the document with simdjson's On-Demand API: every event's
// fields are read in whatever order they come into a flat Event, then the
// event is routed by phase and category into the neutral tables. Trace-level
// keys may come after "traceEvents" (Kineto writes baseTimeNanoseconds last),
// so times are shifted and tables sorted in a final pass.
#include "analyzer/importers/kineto_importer.h"

#include <simdjson.h>

#include <array>
#include <cctype>
#include <charconv>
#include <map>
#include <optional>
#include <unordered_map>

#include "analyzer/importers/decimal.h"
#include "analyzer/importers/kineto_metadata.h"
#include "trace/json_text.h"
#include "trace/process_registry.h"
#include "trace/range_nesting.h"
#include "trace/table_order.h"

namespace damscope {

const size_t kJsonPadding = simdjson::SIMDJSON_PADDING;

namespace {

namespace od = simdjson::ondemand;

// What an argument key means to the importer. Keys with a column are read
// into typed fields; kDropped keys are bookkeeping or derived values (Kineto's
// "blocks per SM" follows from grid and SM count); all others are kept
// verbatim in the row's `args` JSON.
enum class ArgKey : uint8_t {
  kOther,
  kDropped,
  kExternalId,
  kCorrelation,
  kDevice,
  kStream,
  kGrid,
  kBlock,
  kRegisters,
  kSharedMemory,
  kOccupancy,
  kBytes,
  kCbid,
  kSyncKind,
  kCopyKind,
  kDeviceType,
  kDeviceId,
  kTotalAllocated,
  kTotalReserved,
  kFlops,
  kMetaName,
  kMetaLabels,
};

ArgKey classifyArg(std::string_view key) {
  // A linear scan, most frequent keys first: cheaper than hashing for keys
  // this short, since most comparisons stop at the length.
  static constexpr std::pair<std::string_view, ArgKey> kKeys[] = {
      {"External id", ArgKey::kExternalId},
      {"Ev Idx", ArgKey::kDropped},
      {"correlation", ArgKey::kCorrelation},
      {"cbid", ArgKey::kCbid},
      {"device", ArgKey::kDevice},
      {"stream", ArgKey::kStream},
      {"context", ArgKey::kDropped},
      {"Record function id", ArgKey::kDropped},
      {"queued", ArgKey::kDropped},
      {"registers per thread", ArgKey::kRegisters},
      {"shared memory", ArgKey::kSharedMemory},
      {"blocks per SM", ArgKey::kDropped},
      {"warps per SM", ArgKey::kDropped},
      {"grid", ArgKey::kGrid},
      {"block", ArgKey::kBlock},
      {"est. achieved occupancy %", ArgKey::kOccupancy},
      {"bytes", ArgKey::kBytes},
      {"memory bandwidth (GB/s)", ArgKey::kDropped},
      {"Device Type", ArgKey::kDeviceType},
      {"Device Id", ArgKey::kDeviceId},
      {"Total Allocated", ArgKey::kTotalAllocated},
      {"Total Reserved", ArgKey::kTotalReserved},
      {"external id", ArgKey::kExternalId},  // 2021 format
      {"external ts", ArgKey::kDropped},
      {"Trace name", ArgKey::kDropped},
      {"Trace iteration", ArgKey::kDropped},
      {"Profiler Event Index", ArgKey::kDropped},
      {"cuda_sync_kind", ArgKey::kSyncKind},
      {"flops", ArgKey::kFlops},
      {"cid", ArgKey::kCbid},       // ROCm
      {"kind", ArgKey::kCopyKind},  // ROCm memcpy direction
      {"name", ArgKey::kMetaName},
      {"labels", ArgKey::kMetaLabels},
      {"sort_index", ArgKey::kDropped},
  };
  for (const auto& [name, kind] : kKeys) {
    if (name.size() == key.size() && name == key) return kind;
  }
  return ArgKey::kOther;
}

// FLOPs per thread instruction of the CUPTI SASS counters Kineto's
// CuptiRangeProfiler records: an FMA is two operations, as in Nsight
// Compute's roofline sections (SpeedOfLight_RooflineChart.section:
// derived__sm__sass_thread_inst_executed_op_ffma_pred_on_x2).
int sassFlopsPerInstruction(std::string_view key) {
  constexpr std::string_view kPrefix = "smsp__sass_thread_inst_executed_op_";
  if (key.substr(0, kPrefix.size()) != kPrefix) return 0;
  const std::string_view op = key.substr(kPrefix.size(), 4);
  if (op == "dfma" || op == "ffma" || op == "hfma") return 2;
  if (op == "dadd" || op == "fadd" || op == "hadd" || op == "dmul" || op == "fmul" ||
      op == "hmul") {
    return 1;
  }
  return 0;
}

// A pid or tid: Kineto writes numbers, but also strings ("25738", "stream 7",
// "Spans").
struct EventId {
  int64_t number = kNullInt;
  bool numeric() const { return number != kNullInt; }
};

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

std::string_view trimRight(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// The JSON text of any value, for copying it into `args` unchanged.
simdjson::error_code rawJson(od::value& value, std::string_view& out) {
  od::json_type type;
  if (auto error = value.type().get(type)) return error;
  if (type == od::json_type::object) {
    od::object o;
    if (auto error = value.get_object().get(o)) return error;
    return o.raw_json().get(out);
  }
  if (type == od::json_type::array) {
    od::array a;
    if (auto error = value.get_array().get(a)) return error;
    return a.raw_json().get(out);
  }
  out = trimRight(value.raw_json_token());
  return simdjson::SUCCESS;
}

// Reads a JSON number (or a numeric string) as an integer.
bool readInt(od::value& value, int64_t& out) {
  od::json_type type;
  if (value.type().get(type)) return false;
  if (type == od::json_type::number) {
    auto parsed = parseScaledDecimal(value.raw_json_token(), 0);
    if (!parsed) return false;
    out = *parsed;
    return true;
  }
  if (type == od::json_type::string) {
    std::string_view text;
    if (value.get_string().get(text)) return false;
    auto parsed = parseScaledDecimal(text, 0);
    if (!parsed) return false;
    out = *parsed;
    return true;
  }
  return false;
}

// Timestamps and durations: microseconds as numbers (or, rarely, strings).
bool readMicros(od::value& value, int64_t& out) {
  std::string_view token = trimRight(value.raw_json_token());
  if (!token.empty() && token.front() == '"') token = token.substr(1, token.size() - 2);
  auto parsed = microsToNanos(token);
  if (!parsed) return false;
  out = *parsed;
  return true;
}

EventId readEventId(od::value& value) {
  EventId id;
  od::json_type type;
  if (value.type().get(type)) return id;
  if (type == od::json_type::number) {
    int64_t n = 0;
    if (readInt(value, n)) id.number = n;
    return id;
  }
  std::string_view text;
  if (type != od::json_type::string || value.get_string().get(text)) return id;
  // "stream 7" names a GPU stream in 2021 traces; "25738" is a thread id.
  constexpr std::string_view kStreamPrefix = "stream ";
  if (text.substr(0, kStreamPrefix.size()) == kStreamPrefix)
    text.remove_prefix(kStreamPrefix.size());
  if (auto parsed = parseScaledDecimal(text, 0)) id.number = *parsed;
  return id;
}

bool readDims(od::value& value, std::array<int32_t, 3>& out) {
  od::array array;
  if (value.get_array().get(array)) return false;
  size_t i = 0;
  for (auto element : array) {
    int64_t v = 0;
    od::value item;
    if (element.get(item) || !readInt(item, v)) return false;
    if (i < 3) out[i++] = static_cast<int32_t>(v);
  }
  return true;
}

// What an event becomes, by its category (lower-cased).
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

CategoryRoute routeForCategory(std::string_view lower_cat) {
  static const std::unordered_map<std::string_view, CategoryRoute> kRoutes = {
      {"kernel", {Route::kKernel, ""}},
      {"gpu_memcpy", {Route::kMemcpy, ""}},
      {"memcpy", {Route::kMemcpy, ""}},
      {"gpu_memset", {Route::kMemset, ""}},
      {"memset", {Route::kMemset, ""}},
      {"cuda_runtime", {Route::kRuntime, ""}},
      {"runtime", {Route::kRuntime, ""}},
      {"cuda_driver", {Route::kDriver, ""}},
      {"driver", {Route::kDriver, ""}},
      {"cuda_sync", {Route::kSync, ""}},
      {"cpu_op", {Route::kHostRange, "cpu_op"}},
      {"operator", {Route::kHostRange, "cpu_op"}},
      {"user_annotation", {Route::kHostRange, "user_annotation"}},
      {"python_function", {Route::kHostRange, "python_function"}},
      {"python", {Route::kHostRange, "python_function"}},
      {"dataloader", {Route::kHostRange, "dataloader"}},
      {"gpu_user_annotation", {Route::kGpuRange, "gpu_user_annotation"}},
      {"cuda_profiler_range", {Route::kProfilerRange, "cuda_profiler_range"}},
      {"trace", {Route::kProfilerSpan, ""}},
  };
  auto it = kRoutes.find(lower_cat);
  if (it != kRoutes.end()) return it->second;
  return {Route::kHostRange, {}};  // unknown categories keep their own name
}

// "Memcpy HtoD (Pageable -> Device)" -> HtoD, pageable, device.
void parseMemcpyName(std::string_view name, CopyKind& kind, MemoryKind& src, MemoryKind& dst) {
  auto memoryKind = [](std::string_view word) {
    if (word == "Pageable") return MemoryKind::kPageable;
    if (word == "Pinned") return MemoryKind::kPinned;
    if (word == "Device") return MemoryKind::kDevice;
    if (word == "Managed") return MemoryKind::kManaged;
    if (word == "Array") return MemoryKind::kArray;
    return MemoryKind::kUnknown;  // ROCm writes "Host"
  };
  constexpr std::string_view kPrefix = "Memcpy ";
  if (name.substr(0, kPrefix.size()) == kPrefix) {
    const std::string_view rest = name.substr(kPrefix.size());
    kind = enumFromText<CopyKind>(rest.substr(0, rest.find(' '))).value_or(CopyKind::kUnknown);
  }
  const size_t open = name.find('('), arrow = name.find(" -> "), close = name.rfind(')');
  if (open != std::string_view::npos && arrow != std::string_view::npos &&
      close != std::string_view::npos && open < arrow && arrow < close) {
    src = memoryKind(name.substr(open + 1, arrow - open - 1));
    dst = memoryKind(name.substr(arrow + 4, close - arrow - 4));
  }
}

// "Memset (Device)" -> device.
MemoryKind parseMemsetName(std::string_view name) {
  const size_t open = name.find('('), close = name.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
    return MemoryKind::kUnknown;
  }
  const std::string_view word = name.substr(open + 1, close - open - 1);
  if (word == "Device") return MemoryKind::kDevice;
  if (word == "Pinned") return MemoryKind::kPinned;
  if (word == "Pageable") return MemoryKind::kPageable;
  if (word == "Managed") return MemoryKind::kManaged;
  return MemoryKind::kUnknown;
}

SyncKind syncKindFromName(std::string_view name) {
  if (name == "Stream Sync") return SyncKind::kStreamSynchronize;
  if (name == "Event Sync") return SyncKind::kEventSynchronize;
  if (name == "Context Sync") return SyncKind::kContextSynchronize;
  if (name == "Stream Wait Event") return SyncKind::kStreamWaitEvent;
  return SyncKind::kUnknown;
}

class KinetoImporter {
 public:
  explicit KinetoImporter(std::string source) : source_(std::move(source)) {}

  Result<TraceTables> run(std::string& json);

 private:
  Status parseDocument(std::string& json);
  Status readTopLevel(od::object root);
  Status readEvents(od::array events);
  simdjson::error_code readEvent(od::object object);
  simdjson::error_code readArgs(od::object args);
  void routeEvent();
  void addComplete();
  void addInstant();
  void addMetadata();
  void finish();

  void stat(const std::string& name, const std::string& description) {
    t_.addStat(name, 1, description);
  }

  std::string source_;
  TraceTables t_;
  Event e_;
  std::string lower_cat_;
  std::string last_cat_;
  std::optional<CategoryRoute> last_route_;

  int64_t base_time_ns_ = 0;
  std::vector<KinetoDevice> devices_;
  KinetoDistributedInfo distributed_;
  std::string hostname_;
  ProcessRegistry registry_{t_};
  std::unordered_map<int64_t, std::string> process_names_;
  std::map<std::pair<int64_t, int64_t>, std::string> thread_names_;
  int64_t profiler_span_start_ = kNullInt, profiler_span_end_ = kNullInt;
  int64_t events_ = 0, flow_events_ = 0;
  bool saw_trace_events_ = false;

  // FLOPs attached to ranges, recorded by row index before the final sort.
  struct PendingMetric {
    int64_t range_row;
    double flops;
    MetricSource source;
  };
  std::vector<PendingMetric> pending_metrics_;
};

simdjson::error_code KinetoImporter::readArgs(od::object args) {
  for (auto field : args) {
    std::string_view key;
    if (auto error = field.unescaped_key().get(key)) return error;
    od::value value;
    if (auto error = field.value().get(value)) return error;
    const ArgKey kind = classifyArg(key);
    if (kind == ArgKey::kDropped) continue;
    od::json_type type;
    if (auto error = value.type().get(type)) return error;

    // On-Demand values can be consumed once, so a scalar's text is taken
    // first (a peek) and typed fields are parsed from it.
    std::string_view raw;
    bool taken = false;
    if (type == od::json_type::array || type == od::json_type::object) {
      if ((kind == ArgKey::kGrid || kind == ArgKey::kBlock) && type == od::json_type::array) {
        if (readDims(value, kind == ArgKey::kGrid ? e_.grid : e_.block)) continue;
        return simdjson::INCORRECT_TYPE;
      }
      if (auto error = rawJson(value, raw)) return error;
    } else {
      raw = trimRight(value.raw_json_token());
      const bool is_number = type == od::json_type::number;
      auto take_int = [&](int64_t& out) {
        if (!is_number) return false;
        auto parsed = parseScaledDecimal(raw, 0);
        if (parsed) out = *parsed;
        return parsed.has_value();
      };
      auto take_double = [&](double& out) {
        if (!is_number) return false;
        const auto [end, ec] = std::from_chars(raw.data(), raw.data() + raw.size(), out);
        return ec == std::errc() && end == raw.data() + raw.size();
      };
      auto take_string = [&](std::string_view& out) {
        return type == od::json_type::string && value.get_string().get(out) == simdjson::SUCCESS;
      };
      switch (kind) {
        case ArgKey::kExternalId:
          taken = take_int(e_.external_id);
          break;
        case ArgKey::kCorrelation:
          taken = take_int(e_.correlation);
          break;
        case ArgKey::kDevice:
          taken = take_int(e_.device);
          break;
        case ArgKey::kStream:
          taken = take_int(e_.stream);
          break;
        case ArgKey::kRegisters:
          taken = take_int(e_.registers);
          break;
        case ArgKey::kSharedMemory:
          taken = take_int(e_.shared_memory);
          break;
        case ArgKey::kOccupancy:
          taken = take_double(e_.occupancy);
          break;
        case ArgKey::kBytes:
          taken = take_int(e_.bytes);
          break;
        case ArgKey::kCbid:
          taken = take_int(e_.cbid);
          break;
        case ArgKey::kDeviceType:
          taken = take_int(e_.device_type);
          break;
        case ArgKey::kDeviceId:
          taken = take_int(e_.device_id);
          break;
        case ArgKey::kTotalAllocated:
          taken = take_double(e_.total_allocated);
          break;
        case ArgKey::kTotalReserved:
          taken = take_double(e_.total_reserved);
          break;
        case ArgKey::kSyncKind:
          taken = take_string(e_.sync_kind);
          break;
        case ArgKey::kCopyKind:
          taken = take_string(e_.copy_kind);
          break;
        case ArgKey::kMetaName:
          taken = take_string(e_.meta_name);
          break;
        case ArgKey::kMetaLabels:
          taken = take_string(e_.meta_labels);
          break;
        case ArgKey::kFlops:
          // Kept in args too: the framework's own estimate is useful evidence.
          take_double(e_.flops);
          break;
        case ArgKey::kOther:
          if (const int per_instruction = sassFlopsPerInstruction(key)) {
            double count = 0;
            if (take_double(count)) {
              e_.sass_flops += per_instruction * count;
              e_.has_sass = true;
            }
          }
          break;
        case ArgKey::kDropped:
        case ArgKey::kGrid:
        case ArgKey::kBlock:
          break;
      }
    }
    if (taken) continue;
    // Keep the argument verbatim; a value that did not fit its typed column
    // (a string where a number was expected) lands here too.
    e_.extras += e_.extras.empty() ? '{' : ',';
    appendJsonString(e_.extras, key);
    e_.extras += ':';
    e_.extras += raw;
  }
  if (!e_.extras.empty()) e_.extras += '}';
  return simdjson::SUCCESS;
}

simdjson::error_code KinetoImporter::readEvent(od::object object) {
  e_.reset();
  for (auto field : object) {
    std::string_view key;
    if (auto error = field.unescaped_key().get(key)) return error;
    od::value value;
    if (auto error = field.value().get(value)) return error;
    simdjson::error_code error = simdjson::SUCCESS;
    if (key == "ph") {
      error = value.get_string().get(e_.ph);
    } else if (key == "cat") {
      error = value.get_string().get(e_.cat);
    } else if (key == "name") {
      error = value.get_string().get(e_.name);
    } else if (key == "pid") {
      e_.pid = readEventId(value);
    } else if (key == "tid") {
      e_.tid = readEventId(value);
    } else if (key == "ts") {
      if (!readMicros(value, e_.ts)) e_.ts = kNullInt;
    } else if (key == "dur") {
      if (!readMicros(value, e_.dur)) e_.dur = kNullInt;
    } else if (key == "args") {
      od::object args;
      if (value.get_object().get(args) == simdjson::SUCCESS) error = readArgs(args);
    }
    // Other fields (id, bp, s, ...) belong to flows and instant scopes; skipped.
    if (error) return error;
  }
  return simdjson::SUCCESS;
}

void KinetoImporter::addComplete() {
  if (isNull(e_.ts)) {
    stat("kineto.events_without_ts", "complete events without a usable \"ts\"; skipped");
    return;
  }
  if (isNull(e_.dur) || e_.dur < 0) {
    stat("kineto.bad_durations", "complete events with a missing or negative \"dur\"; stored as 0");
    e_.dur = 0;
  }
  // Consecutive events mostly share a category: route once per change.
  if (e_.cat != last_cat_ || !last_route_) {
    last_cat_.assign(e_.cat);
    lower_cat_.assign(e_.cat);
    for (char& c : lower_cat_) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    last_route_ = routeForCategory(lower_cat_);
  }
  const CategoryRoute route = *last_route_;

  const int32_t device = static_cast<int32_t>(!isNull(e_.device) ? e_.device : e_.pid.number);
  const int64_t stream = !isNull(e_.stream) ? e_.stream : e_.tid.number;
  auto host_thread = [&]() -> int64_t {
    if (!e_.pid.numeric() || !e_.tid.numeric()) return kNullInt;
    return registry_.thread(e_.pid.number, e_.tid.number);
  };

  switch (route.route) {
    case Route::kKernel: {
      KernelTable::Row k;
      k.ts = e_.ts, k.dur = e_.dur, k.device = device, k.stream = stream;
      k.correlation_id = e_.correlation, k.external_id = e_.external_id;
      k.name = t_.strings.intern(e_.name);
      k.grid_x = e_.grid[0], k.grid_y = e_.grid[1], k.grid_z = e_.grid[2];
      k.block_x = e_.block[0], k.block_y = e_.block[1], k.block_z = e_.block[2];
      k.registers_per_thread =
          isNull(e_.registers) ? kNullInt32 : static_cast<int32_t>(e_.registers);
      k.shared_memory_bytes = e_.shared_memory;
      k.occupancy_pct = e_.occupancy;
      k.args = e_.extras;
      t_.kernels.append(k);
      if (isNull(e_.correlation)) {
        stat("kineto.kernels_without_correlation",
             "kernels with no \"correlation\" argument: their launch call cannot be found");
      }
      return;
    }
    case Route::kMemcpy: {
      MemcpyTable::Row m;
      m.ts = e_.ts, m.dur = e_.dur, m.device = device, m.stream = stream;
      m.correlation_id = e_.correlation, m.external_id = e_.external_id, m.bytes = e_.bytes;
      parseMemcpyName(e_.name, m.copy_kind, m.src_kind, m.dst_kind);
      if (m.copy_kind == CopyKind::kUnknown && !e_.copy_kind.empty()) {
        m.copy_kind = enumFromText<CopyKind>(e_.copy_kind).value_or(CopyKind::kUnknown);
      }
      t_.memcpys.append(m);
      return;
    }
    case Route::kMemset: {
      MemsetTable::Row m;
      m.ts = e_.ts, m.dur = e_.dur, m.device = device, m.stream = stream;
      m.correlation_id = e_.correlation, m.external_id = e_.external_id, m.bytes = e_.bytes;
      m.memory_kind = parseMemsetName(e_.name);
      t_.memsets.append(m);
      return;
    }
    case Route::kRuntime:
    case Route::kDriver: {
      ApiCallTable::Row a;
      a.ts = e_.ts, a.dur = e_.dur, a.thread_id = host_thread();
      a.api = route.route == Route::kDriver ? ApiKind::kDriver : ApiKind::kRuntime;
      a.name = t_.strings.intern(e_.name);
      a.correlation_id = e_.correlation, a.external_id = e_.external_id;
      a.cbid = isNull(e_.cbid) ? kNullInt32 : static_cast<int32_t>(e_.cbid);
      t_.api_calls.append(a);
      return;
    }
    case Route::kSync: {
      SyncTable::Row s;
      s.ts = e_.ts, s.dur = e_.dur, s.device = device, s.stream = stream;
      s.kind = syncKindFromName(e_.sync_kind.empty() ? e_.name : e_.sync_kind);
      s.correlation_id = e_.correlation, s.external_id = e_.external_id;
      t_.syncs.append(s);
      return;
    }
    case Route::kProfilerSpan:
      // The profiler's own window ("PyTorch Profiler (0)").
      profiler_span_start_ =
          isNull(profiler_span_start_) ? e_.ts : std::min(profiler_span_start_, e_.ts);
      profiler_span_end_ = isNull(profiler_span_end_)
                               ? e_.ts + e_.dur
                               : std::max(profiler_span_end_, e_.ts + e_.dur);
      return;
    case Route::kHostRange:
    case Route::kGpuRange:
    case Route::kProfilerRange: {
      RangeTable::Row r;
      r.ts = e_.ts, r.dur = e_.dur;
      if (route.route == Route::kHostRange) {
        r.thread_id = host_thread();
        if (isNull(r.thread_id)) {
          stat("kineto.ranges_without_thread",
               "host ranges whose pid/tid are not numbers; skipped");
          return;
        }
      } else {
        r.device = device, r.stream = stream;
      }
      r.category =
          t_.strings.intern(route.category.empty() ? std::string_view(lower_cat_) : route.category);
      if (route.category.empty()) {
        stat("kineto.unknown_category_ranges",
             "complete events of a category this importer does not know; stored as ranges");
      }
      r.name = t_.strings.intern(e_.name);
      r.external_id = e_.external_id, r.correlation_id = e_.correlation;
      r.args = e_.extras;
      const int64_t row = t_.ranges.append(r);
      if (e_.has_sass) {
        pending_metrics_.push_back({row, e_.sass_flops, MetricSource::kMeasured});
      } else if (!std::isnan(e_.flops)) {
        // PyTorch computes op FLOPs from input shapes (with_flops=True).
        pending_metrics_.push_back({row, e_.flops, MetricSource::kEstimated});
      }
      return;
    }
  }
}

void KinetoImporter::addInstant() {
  if (e_.name != "[memory]") {
    stat("kineto.instant_events",
         "instant events other than [memory] (iteration marks); not stored");
    return;
  }
  if (isNull(e_.ts)) return;
  if (std::isnan(e_.total_allocated) && std::isnan(e_.total_reserved)) {
    stat("kineto.memory_events_without_totals",
         "[memory] events without Total Allocated/Reserved (older PyTorch); not stored");
    return;
  }
  CounterTable::Row c;
  c.ts = e_.ts;
  // c10::DeviceType: 0 is CPU; GPU allocations (CUDA, and HIP under ROCm) carry the device index.
  c.device = (e_.device_type > 0 && !isNull(e_.device_id)) ? static_cast<int32_t>(e_.device_id)
                                                           : kNullInt32;
  if (e_.pid.numeric() && e_.tid.numeric())
    c.thread_id = registry_.thread(e_.pid.number, e_.tid.number);
  if (!std::isnan(e_.total_allocated)) {
    c.name = t_.strings.intern("memory_allocated_bytes");
    c.value = e_.total_allocated;
    t_.counters.append(c);
  }
  if (!std::isnan(e_.total_reserved)) {
    c.name = t_.strings.intern("memory_reserved_bytes");
    c.value = e_.total_reserved;
    t_.counters.append(c);
  }
}

void KinetoImporter::addMetadata() {
  if (!e_.pid.numeric()) return;
  if (e_.name == "process_name" && !e_.meta_name.empty()) {
    process_names_[e_.pid.number] = std::string(e_.meta_name);
  } else if (e_.name == "thread_name" && !e_.meta_name.empty() && e_.tid.numeric()) {
    thread_names_[{e_.pid.number, e_.tid.number}] = std::string(e_.meta_name);
  }
}

void KinetoImporter::routeEvent() {
  ++events_;
  const char phase = e_.ph.empty() ? '\0' : e_.ph[0];
  switch (phase) {
    case 'X':
      addComplete();
      break;
    case 'i':
    case 'I':
      addInstant();
      break;
    case 'M':
      addMetadata();
      break;
    case 's':
    case 'f':
    case 't':
      ++flow_events_;
      break;
    default:
      stat("kineto.unsupported_phase_events",
           "events of a phase Kineto does not write (B/E/C/...); not stored");
  }
}

Status KinetoImporter::readEvents(od::array events) {
  saw_trace_events_ = true;
  for (auto element : events) {
    od::object object;
    if (auto error = element.get_object().get(object)) {
      if (error == simdjson::INCORRECT_TYPE) {
        stat("kineto.non_object_events", "traceEvents entries that are not objects; skipped");
        continue;
      }
      return Error(simdjson::error_message(error));
    }
    if (auto error = readEvent(object)) return Error(simdjson::error_message(error));
    routeEvent();
  }
  return okStatus();
}

Status KinetoImporter::readTopLevel(od::object root) {
  for (auto field : root) {
    std::string_view key;
    if (auto error = field.unescaped_key().get(key)) return Error(simdjson::error_message(error));
    od::value value;
    if (auto error = field.value().get(value)) return Error(simdjson::error_message(error));
    if (key == "traceEvents") {
      od::array events;
      if (value.get_array().get(events)) return Error("\"traceEvents\" is not an array");
      DAMSCOPE_RETURN_IF_ERROR(readEvents(events));
    } else if (key == "baseTimeNanoseconds") {
      int64_t base = 0;
      if (!readInt(value, base)) return Error("\"baseTimeNanoseconds\" is not an integer");
      base_time_ns_ = base;
    } else if (key == "deviceProperties" || key == "distributedInfo") {
      std::string_view raw;
      if (auto error = rawJson(value, raw)) return Error(simdjson::error_message(error));
      if (key == "deviceProperties") {
        auto devices = parseKinetoDevices(raw);
        if (devices.ok()) {
          devices_ = std::move(devices.value());
        } else {
          stat("kineto.unreadable_device_properties",
               "deviceProperties could not be parsed: " + devices.error().message());
        }
      } else {
        auto info = parseKinetoDistributedInfo(raw);
        if (info.ok()) {
          distributed_ = info.value();
        } else {
          stat("kineto.unreadable_distributed_info",
               "distributedInfo could not be parsed: " + info.error().message());
        }
      }
    } else if (key == "schemaVersion" || key == "traceName" || key == "displayTimeUnit") {
      std::string_view raw;
      if (auto error = rawJson(value, raw)) return Error(simdjson::error_message(error));
      std::string text(raw);
      if (text.size() >= 2 && text.front() == '"') text = text.substr(1, text.size() - 2);
      t_.setMeta(key == "schemaVersion" ? "kineto_schema_version"
                 : key == "traceName"   ? "kineto_trace_name"
                                        : "kineto_display_time_unit",
                 text);
    } else if (key == "host_name" || key == "hostname") {
      std::string_view name;
      if (value.get_string().get(name) == simdjson::SUCCESS) hostname_ = std::string(name);
    }
  }
  return okStatus();
}

Status KinetoImporter::parseDocument(std::string& json) {
  if (json.capacity() < json.size() + kJsonPadding) json.reserve(json.size() + kJsonPadding);
  od::parser parser;
  od::document doc;
  bool iterating = false;  // current_location() is only valid on a started document
  auto fail = [&](const std::string& what) -> Status {
    const char* at = nullptr;
    std::string where;
    if (iterating && doc.current_location().get(at) == simdjson::SUCCESS && at >= json.data() &&
        at <= json.data() + json.size()) {
      where = " at byte " + std::to_string(at - json.data());
    }
    return Error(source_ + ": invalid Kineto JSON" + where + ": " + what);
  };
  if (auto error = parser.iterate(json.data(), json.size(), json.capacity()).get(doc)) {
    return fail(simdjson::error_message(error));
  }
  iterating = true;
  od::json_type type;
  if (auto error = doc.type().get(type)) return fail(simdjson::error_message(error));
  if (type == od::json_type::array) {
    // The Chrome trace "JSON Array Format": a bare list of events.
    od::array events;
    if (auto error = doc.get_array().get(events)) return fail(simdjson::error_message(error));
    if (Status s = readEvents(events); !s.ok()) return fail(s.error().message());
  } else if (type == od::json_type::object) {
    od::object root;
    if (auto error = doc.get_object().get(root)) return fail(simdjson::error_message(error));
    if (Status s = readTopLevel(root); !s.ok()) return fail(s.error().message());
  } else {
    return Error(source_ + ": JSON is not a trace (expected an object with \"traceEvents\")");
  }
  // A fully consumed document has no current location; anything left is trailing garbage.
  const char* rest = nullptr;
  if (doc.current_location().get(rest) == simdjson::SUCCESS) {
    return fail("unexpected content after the end of the trace");
  }
  if (!saw_trace_events_)
    return Error(source_ + ": JSON has no \"traceEvents\" array: not a Chrome/Kineto trace");
  return okStatus();
}

void KinetoImporter::finish() {
  // Kineto's newer traces write ts relative to baseTimeNanoseconds.
  if (base_time_ns_ != 0) {
    auto shift = [&](std::vector<int64_t>& ts) {
      for (auto& v : ts) v += base_time_ns_;
    };
    shift(t_.kernels.ts), shift(t_.memcpys.ts), shift(t_.memsets.ts), shift(t_.api_calls.ts);
    shift(t_.ranges.ts), shift(t_.syncs.ts), shift(t_.counters.ts);
    if (!isNull(profiler_span_start_)) profiler_span_start_ += base_time_ns_;
    if (!isNull(profiler_span_end_)) profiler_span_end_ += base_time_ns_;
  }

  sortByTime(t_.kernels), sortByTime(t_.memcpys), sortByTime(t_.memsets);
  sortByTime(t_.api_calls), sortByTime(t_.syncs), sortByTime(t_.counters);
  const std::vector<int64_t> range_rows = sortByTime(t_.ranges);
  computeRangeNesting(t_.ranges);
  for (const PendingMetric& m : pending_metrics_) {
    KernelMetricTable::Row row;
    row.range_id = range_rows[m.range_row];
    row.flops = m.flops;
    row.source = m.source;
    t_.kernel_metrics.append(row);
  }

  bool amd = false;
  for (const KinetoDevice& d : devices_) {
    amd = amd || d.name.find("AMD") != std::string::npos ||
          d.name.find("Radeon") != std::string::npos ||
          d.name.find("Instinct") != std::string::npos;
  }
  for (const KinetoDevice& d : devices_) {
    DeviceTable::Row row;
    row.device = d.id;
    row.kind = DeviceKind::kGpu;
    row.vendor = t_.strings.intern(amd ? "amd" : "nvidia");
    row.name = t_.strings.intern(d.name);
    auto i32 = [](int32_t v) { return v < 0 ? kNullInt32 : v; };
    auto i64 = [](int64_t v) { return v < 0 ? kNullInt : v; };
    row.sm_count = i32(d.sm_count);
    row.memory_bytes = i64(d.total_memory_bytes);
    row.compute_major = i32(d.compute_major);
    row.compute_minor = i32(d.compute_minor);
    row.warp_size = i32(d.warp_size);
    row.max_threads_per_block = i32(d.max_threads_per_block);
    row.max_threads_per_sm = i32(d.max_threads_per_sm);
    row.registers_per_block = i32(d.registers_per_block);
    row.registers_per_sm = i32(d.registers_per_sm);
    row.shared_memory_per_block_bytes = i64(d.shared_memory_per_block_bytes);
    row.shared_memory_per_sm_bytes = i64(d.shared_memory_per_sm_bytes);
    t_.devices.append(row);
  }

  for (size_t p = 0; p < t_.processes.size(); ++p) {
    auto name = process_names_.find(t_.processes.pid[p]);
    if (name != process_names_.end()) t_.processes.name[p] = t_.strings.intern(name->second);
    if (!hostname_.empty()) t_.processes.hostname[p] = t_.strings.intern(hostname_);
    if (distributed_.rank >= 0) t_.processes.rank[p] = distributed_.rank;
    if (distributed_.world_size > 0) t_.processes.world_size[p] = distributed_.world_size;
    if (!distributed_.backend.empty()) {
      t_.processes.comm_backend[p] = t_.strings.intern(distributed_.backend);
    }
  }
  for (size_t i = 0; i < t_.threads.size(); ++i) {
    const int64_t pid = t_.processes.pid[t_.threads.process_id[i]];
    auto name = thread_names_.find({pid, t_.threads.tid[i]});
    if (name != thread_names_.end()) t_.threads.name[i] = t_.strings.intern(name->second);
  }

  t_.setMeta("source_format", "kineto");
  t_.setMeta("source_file", source_);
  t_.setMeta("clock", "realtime");
  if (base_time_ns_ != 0) t_.setMeta("kineto_base_time_ns", std::to_string(base_time_ns_));
  if (!isNull(profiler_span_start_)) {
    t_.setMeta("profiler_span_start_ns", std::to_string(profiler_span_start_));
    t_.setMeta("profiler_span_end_ns", std::to_string(profiler_span_end_));
  }
  t_.addStat("kineto.events", events_, "trace events read from traceEvents");
  if (flow_events_ > 0) {
    t_.addStat("kineto.flow_events", flow_events_,
               "flow arrows (ac2g launch links, fwdbwd); not stored: kernels link to their "
               "launch through the correlation argument");
  }
}

Result<TraceTables> KinetoImporter::run(std::string& json) {
  t_.addStat("kineto.events", 0, "trace events read from traceEvents");  // listed first
  DAMSCOPE_RETURN_IF_ERROR(parseDocument(json));
  finish();
  return std::move(t_);
}

}  // namespace

Result<TraceTables> importKinetoJson(std::string& json, const std::string& source_name) {
  KinetoImporter importer(source_name);
  return importer.run(json);
}

}  // namespace damscope
