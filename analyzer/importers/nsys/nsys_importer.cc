// Importer for Nsight Systems SQLite exports: see nsys_importer.h.
#include "analyzer/importers/nsys/nsys_importer.h"

#include <charconv>
#include <limits>
#include <new>
#include <optional>
#include <unordered_map>

#include "analyzer/importers/nsys/nsys_export_reader.h"
#include "base/json_text.h"
#include "trace/process_registry.h"
#include "trace/range_nesting.h"
#include "trace/table_order.h"

namespace damscope {
namespace {

using nsys::ColumnSelect;
using nsys::ExportReader;

// NVTX_EVENTS.eventType values (nsys export schema, "NVTX_EVENT_TYPES"; newer
// exports also list them in ENUM_NSYS_EVENT_TYPE, which takes precedence).
struct NvtxEventTypes {
  int64_t category = 33;
  int64_t mark = 34;
  int64_t thread = 39;
  int64_t push_pop = 59;
  int64_t start_end = 60;
  int64_t nvtxt_push_pop = 70;  // ranges from NVTXT text files
  int64_t nvtxt_start_end = 71;
  int64_t domain_create = 75;
};

// nsys serializes process and thread ids as globalTid = (pid << 24) | tid,
// with the top byte(s) naming the VM/host ("Serialized process and thread
// identifiers" in the nsys export documentation).
int64_t pidOf(int64_t global_tid) {
  return (global_tid >> 24) & 0xFFFFFF;
}
int64_t tidOf(int64_t global_tid) {
  return global_tid & 0xFFFFFF;
}

// A 32-bit column's value; NULL when absent or when it does not fit.
int32_t toInt32(int64_t v) {
  return v > std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max()
             ? static_cast<int32_t>(v)
             : kNullInt32;
}

// "cudaMalloc_v3020" -> "cudaMalloc": CUPTI names runtime callbacks with the
// API version they appeared in; users know the plain name.
std::string_view stripApiVersion(std::string_view name) {
  const size_t at = name.rfind("_v");
  if (at == std::string_view::npos || at + 2 >= name.size()) return name;
  for (size_t i = at + 2; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return name;
  }
  return name.substr(0, at);
}

// Nsight Systems stores memory kinds with its own enum, ENUM_CUDA_MEM_KIND,
// not CUPTI's CUpti_ActivityMemoryKind (which starts with UNKNOWN = 0): 0
// pageable, 1 pinned, 2 device, 3 array, 4 managed, 5 device static, 6
// managed static, 7 unknown. The real 2022 export in ../shared/traces shows
// it: its host-to-device copies have srcKind 0 and dstKind 2, which in
// CUPTI's numbering would be a copy *to* pinned host memory. Newer exports
// include the enum table, which takes precedence (memoryKindFromNsysName).
MemoryKind memoryKindFromNsys(int64_t value) {
  switch (value) {
    case 0:
      return MemoryKind::kPageable;
    case 1:
      return MemoryKind::kPinned;
    case 2:
      return MemoryKind::kDevice;
    case 3:
      return MemoryKind::kArray;
    case 4:
      return MemoryKind::kManaged;
    case 5:
      return MemoryKind::kDeviceStatic;
    case 6:
      return MemoryKind::kManagedStatic;
    default:
      return MemoryKind::kUnknown;
  }
}

// "CUDA_MEMOPR_MEMORY_KIND_PINNED" -> pinned.
MemoryKind memoryKindFromNsysName(std::string_view name) {
  auto ends = [&](std::string_view suffix) {
    return name.size() >= suffix.size() && name.substr(name.size() - suffix.size()) == suffix;
  };
  if (ends("MANAGED_STATIC")) return MemoryKind::kManagedStatic;
  if (ends("DEVICE_STATIC")) return MemoryKind::kDeviceStatic;
  if (ends("PAGEABLE")) return MemoryKind::kPageable;
  if (ends("PINNED")) return MemoryKind::kPinned;
  if (ends("DEVICE")) return MemoryKind::kDevice;
  if (ends("ARRAY")) return MemoryKind::kArray;
  if (ends("MANAGED")) return MemoryKind::kManaged;
  return MemoryKind::kUnknown;
}

// nsys's MPI trace names a rank's thread "MPI Rank N": the only rank
// information an export carries. The name is untrusted text, so it is read by
// plain scanning and std::from_chars, never std::regex (libstdc++'s matcher
// recurses per character and overflows the stack on a long digit run) nor
// std::stoi (throws on a number that does not fit).
struct MpiRankName {
  bool is_rank_name = false;    // "MPI Rank " and one or more digits, nothing else
  std::optional<int32_t> rank;  // empty when the digits do not fit in int32
};

MpiRankName parseMpiRankName(std::string_view name) {
  constexpr std::string_view kPrefix = "MPI Rank ";
  MpiRankName result;
  if (name.size() <= kPrefix.size() || name.substr(0, kPrefix.size()) != kPrefix) return result;
  const std::string_view digits = name.substr(kPrefix.size());
  for (char c : digits) {
    if (c < '0' || c > '9') return result;
  }
  result.is_rank_name = true;
  // INT32_MAX has 10 digits: a longer run cannot fit, so it is not parsed at all.
  constexpr size_t kMaxDigits = std::numeric_limits<int32_t>::digits10 + 1;
  if (digits.size() > kMaxDigits) return result;
  int32_t rank = 0;
  const char* end = digits.data() + digits.size();
  if (const auto parsed = std::from_chars(digits.data(), end, rank);
      parsed.ec == std::errc() && parsed.ptr == end) {
    result.rank = rank;
  }
  return result;
}

// The rows' share of the import; sorting them by time and nesting the ranges
// (finish()) takes the rest, as its own stage so that the bar does not sit at
// the read's end while a large export is sorted. Unmeasured: it only weighs
// the bar, and the read, a query per table, is the larger part.
constexpr double kReadShare = 0.9;

class NsysImporter {
 public:
  NsysImporter(Database db, std::string source, const Progress& progress)
      : db_(std::move(db)),
        source_(std::move(source)),
        progress_(progress),
        reading_(progress.part(0, kReadShare)) {}
  Result<TraceTables> run();

 private:
  Status loadStrings();
  Status loadEventTypes();
  Status loadMemoryKinds();
  Status loadSessionStart();
  Status loadKernels();
  Status loadMemcpys();
  Status loadMemsets();
  Status loadRuntime();
  Status loadSyncs();
  Status loadNvtx();
  Status loadDevices();
  Status loadProcessInfo();
  void finish();

  StringId stringFor(int64_t nsys_id) {
    auto it = strings_.find(nsys_id);
    return it == strings_.end() ? kNoString : t_.strings.intern(it->second);
  }
  int64_t threadFor(int64_t global_tid);

  // A row's start on the trace's clock and its duration.
  struct Interval {
    int64_t ts, dur;
  };
  // The interval of a row with `start` and `end` on the session's clock, or
  // std::nullopt for a row that cannot be placed: no start, or a start or end
  // outside the trace's time range (both counted in stats and skipped). An
  // export's times are untrusted (a damaged or hand-made file), so they are
  // combined with checked arithmetic; a missing or earlier end is repaired
  // to dur 0 and counted.
  std::optional<Interval> interval(int64_t start, int64_t end);

  Database db_;
  std::string source_;
  const Progress& progress_;
  const Progress reading_;
  ExportReader reader_{db_, reading_};
  TraceTables t_;
  std::unordered_map<int64_t, std::string> strings_;  // StringIds
  NvtxEventTypes nvtx_types_;
  std::unordered_map<int64_t, MemoryKind> memory_kinds_;  // from ENUM_CUDA_MEM_KIND, if present
  MemoryKind memoryKind(int64_t value) const {
    if (isNull(value)) return MemoryKind::kUnknown;
    auto it = memory_kinds_.find(value);
    return it != memory_kinds_.end() ? it->second : memoryKindFromNsys(value);
  }
  int64_t session_start_ns_ = 0;
  bool has_session_start_ = false;
  ProcessRegistry registry_{t_};
  std::unordered_map<int64_t, std::string> nvtx_thread_names_;  // globalTid -> name
};

std::optional<NsysImporter::Interval> NsysImporter::interval(int64_t start, int64_t end) {
  if (isNull(start)) {
    t_.addStat("nsys.rows_without_start", 1, "activity and NVTX rows with a NULL start; skipped");
    return std::nullopt;
  }
  auto outside = [&]() -> std::optional<Interval> {
    t_.addStat("nsys.rows_outside_time_range", 1,
               "rows whose start or end lies outside ±2^62 ns (146 years around the epoch), "
               "or whose end is as far from their start; skipped");
    return std::nullopt;
  };
  const std::optional<int64_t> ts = addTraceTimes(start, session_start_ns_);
  if (!ts) return outside();
  if (isNull(end)) {
    t_.addStat("nsys.rows_without_end", 1, "activity rows with a NULL end; stored with dur 0");
    return Interval{*ts, 0};
  }
  const std::optional<int64_t> dur = subtractTraceTimes(end, start);
  if (!dur) return outside();
  if (*dur < 0) {
    t_.addStat("nsys.negative_durations", 1,
               "rows whose end comes before their start; stored with dur 0");
    return Interval{*ts, 0};
  }
  if (!addTraceTimes(*ts, *dur)) return outside();
  return Interval{*ts, *dur};
}

int64_t NsysImporter::threadFor(int64_t global_tid) {
  if (isNull(global_tid)) return kNullInt;
  return registry_.thread(pidOf(global_tid), tidOf(global_tid));
}

Status NsysImporter::loadStrings() {
  return reader_.forEachRow("StringIds", {"id", "value"}, [&](const ColumnSelect& r) {
    strings_.emplace(r.integer(0), std::string(r.text(1)));
  });
}

Status NsysImporter::loadEventTypes() {
  return reader_.forEachRow("ENUM_NSYS_EVENT_TYPE", {"id", "name"}, [&](const ColumnSelect& r) {
    const std::string_view name = r.text(1);
    const int64_t id = r.integer(0);
    if (name == "NvtxCategory") nvtx_types_.category = id;
    if (name == "NvtxMark") nvtx_types_.mark = id;
    if (name == "NvtxThread") nvtx_types_.thread = id;
    if (name == "NvtxPushPopRange") nvtx_types_.push_pop = id;
    if (name == "NvtxStartEndRange") nvtx_types_.start_end = id;
    if (name == "NvtxtPushPopRange") nvtx_types_.nvtxt_push_pop = id;
    if (name == "NvtxtStartEndRange") nvtx_types_.nvtxt_start_end = id;
    if (name == "NvtxDomainCreate") nvtx_types_.domain_create = id;
  });
}

Status NsysImporter::loadMemoryKinds() {
  return reader_.forEachRow("ENUM_CUDA_MEM_KIND", {"id", "name"}, [&](const ColumnSelect& r) {
    memory_kinds_[r.integer(0)] = memoryKindFromNsysName(r.text(1));
  });
}

Status NsysImporter::loadSessionStart() {
  DAMSCOPE_RETURN_IF_ERROR(reader_.forEachRow("TARGET_INFO_SESSION_START_TIME", {"utcEpochNs"},
                                              [&](const ColumnSelect& r) {
                                                if (r.has(0)) {
                                                  session_start_ns_ = r.integer(0);
                                                  has_session_start_ = true;
                                                }
                                              }));
  // Every event time is offset by it: one out of range places nothing.
  if (!isTraceTime(session_start_ns_)) {
    return Error("TARGET_INFO_SESSION_START_TIME.utcEpochNs " + std::to_string(session_start_ns_) +
                 " lies outside the trace's time range (±2^62 ns)");
  }
  return okStatus();
}

Status NsysImporter::loadKernels() {
  return reader_.forEachRow(
      "CUPTI_ACTIVITY_KIND_KERNEL",
      {"start", "end", "deviceId", "streamId", "correlationId", "demangledName", "shortName",
       "mangledName", "gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ", "registersPerThread",
       "staticSharedMemory", "dynamicSharedMemory", "graphId", "graphNodeId"},
      [&](const ColumnSelect& r) {
        const std::optional<Interval> when = interval(r.integer(0), r.integer(1));
        if (!when) return;
        KernelTable::Row k;
        k.ts = when->ts, k.dur = when->dur;
        k.device = toInt32(r.integer(2));
        k.stream = r.integer(3);
        k.correlation_id = r.integer(4);
        k.name = r.has(5)   ? stringFor(r.integer(5))
                 : r.has(6) ? stringFor(r.integer(6))
                            : stringFor(r.integer(7));
        k.grid_x = toInt32(r.integer(8)), k.grid_y = toInt32(r.integer(9)),
        k.grid_z = toInt32(r.integer(10));
        k.block_x = toInt32(r.integer(11)), k.block_y = toInt32(r.integer(12));
        k.block_z = toInt32(r.integer(13));
        k.registers_per_thread = toInt32(r.integer(14));
        if ((r.has(15) || r.has(16)) &&
            __builtin_add_overflow(r.has(15) ? r.integer(15) : 0, r.has(16) ? r.integer(16) : 0,
                                   &k.shared_memory_bytes)) {
          k.shared_memory_bytes = kNullInt;  // no real size: NULL, as when absent
        }
        k.graph_id = r.integer(17);
        k.graph_node_id = r.integer(18);
        t_.kernels.append(k);
      });
}

Status NsysImporter::loadMemcpys() {
  return reader_.forEachRow(
      "CUPTI_ACTIVITY_KIND_MEMCPY",
      {"start", "end", "deviceId", "streamId", "correlationId", "bytes", "copyKind", "srcKind",
       "dstKind", "srcDeviceId", "dstDeviceId", "graphNodeId"},
      [&](const ColumnSelect& r) {
        const std::optional<Interval> when = interval(r.integer(0), r.integer(1));
        if (!when) return;
        MemcpyTable::Row m;
        m.ts = when->ts, m.dur = when->dur;
        m.device = toInt32(r.integer(2));
        m.stream = r.integer(3);
        m.correlation_id = r.integer(4);
        m.bytes = r.integer(5);
        // copyKind holds CUPTI's CUpti_ActivityMemcpyKind values
        // (ENUM_CUDA_MEMCPY_OPER lists the same); srcKind/dstKind
        // nsys's own memory kinds (memoryKindFromNsys).
        m.copy_kind = copyKindFromCupti(r.integer(6));
        m.src_kind = memoryKind(r.integer(7));
        m.dst_kind = memoryKind(r.integer(8));
        m.src_device = toInt32(r.integer(9));
        m.dst_device = toInt32(r.integer(10));
        m.graph_node_id = r.integer(11);
        t_.memcpys.append(m);
      });
}

Status NsysImporter::loadMemsets() {
  return reader_.forEachRow("CUPTI_ACTIVITY_KIND_MEMSET",
                            {"start", "end", "deviceId", "streamId", "correlationId", "bytes",
                             "memKind", "value", "graphNodeId"},
                            [&](const ColumnSelect& r) {
                              const std::optional<Interval> when =
                                  interval(r.integer(0), r.integer(1));
                              if (!when) return;
                              MemsetTable::Row m;
                              m.ts = when->ts, m.dur = when->dur;
                              m.device = toInt32(r.integer(2));
                              m.stream = r.integer(3);
                              m.correlation_id = r.integer(4);
                              m.bytes = r.integer(5);
                              m.memory_kind = memoryKind(r.integer(6));
                              m.value = toInt32(r.integer(7));
                              m.graph_node_id = r.integer(8);
                              t_.memsets.append(m);
                            });
}

Status NsysImporter::loadRuntime() {
  std::unordered_map<int64_t, int> calls_per_correlation;
  DAMSCOPE_RETURN_IF_ERROR(reader_.forEachRow(
      "CUPTI_ACTIVITY_KIND_RUNTIME",
      {"start", "end", "globalTid", "correlationId", "nameId", "returnValue"},
      [&](const ColumnSelect& r) {
        const std::optional<Interval> when = interval(r.integer(0), r.integer(1));
        if (!when) return;
        ApiCallTable::Row a;
        a.ts = when->ts, a.dur = when->dur;
        a.thread_id = threadFor(r.integer(2));
        a.correlation_id = r.integer(3);
        auto text = strings_.find(r.integer(4));
        const std::string_view name =
            text == strings_.end() ? std::string_view() : stripApiVersion(text->second);
        a.name = t_.strings.intern(name);
        // The table holds runtime and driver calls; the driver API is cu*, the runtime cuda*.
        a.api = (name.substr(0, 2) == "cu" && name.substr(0, 4) != "cuda") ? ApiKind::kDriver
                                                                           : ApiKind::kRuntime;
        a.return_code = toInt32(r.integer(5));
        t_.api_calls.append(a);
        if (!isNull(a.correlation_id)) ++calls_per_correlation[a.correlation_id];
      }));
  int64_t shared = 0;
  for (const auto& [id, n] : calls_per_correlation) shared += n > 1 ? n - 1 : 0;
  if (shared > 0) {
    t_.addStat("nsys.runtime_rows_sharing_correlation", shared,
               "CUPTI_ACTIVITY_KIND_RUNTIME rows whose correlation id another row already has "
               "(older nsys writes an outer and an inner record per call); all are kept");
  }
  return okStatus();
}

Status NsysImporter::loadSyncs() {
  return reader_.forEachRow(
      "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
      {"start", "end", "deviceId", "streamId", "correlationId", "syncType", "eventId", "globalTid"},
      [&](const ColumnSelect& r) {
        const std::optional<Interval> when = interval(r.integer(0), r.integer(1));
        if (!when) return;
        SyncTable::Row s;
        s.ts = when->ts, s.dur = when->dur;
        s.device = toInt32(r.integer(2));
        s.stream = r.integer(3);
        s.correlation_id = r.integer(4);
        s.kind = syncKindFromCupti(r.integer(5));
        s.event_id = r.integer(6);
        s.thread_id = threadFor(r.integer(7));
        t_.syncs.append(s);
      });
}

Status NsysImporter::loadNvtx() {
  struct Row {
    int64_t start, end, type, global_tid, domain, category;
    std::string text, payload;
  };
  std::vector<Row> rows;
  std::unordered_map<int64_t, std::string> domains;  // domainId -> name
  DAMSCOPE_RETURN_IF_ERROR(
      reader_.forEachRow("NVTX_EVENTS",
                         {"start", "end", "eventType", "text", "textId", "globalTid", "domainId",
                          "category", "uint64Value", "int64Value", "doubleValue", "uint32Value",
                          "int32Value", "floatValue", "jsonText", "jsonTextId"},
                         [&](const ColumnSelect& r) {
                           Row row{r.integer(0), r.integer(1), r.integer(2), r.integer(5),
                                   r.integer(6), r.integer(7), {},           {}};
                           if (r.has(3)) {
                             row.text = r.text(3);
                           } else if (auto s = strings_.find(r.integer(4)); s != strings_.end()) {
                             row.text = s->second;
                           }
                           if (r.has(8) || r.has(9) || r.has(11) || r.has(12)) {
                             const size_t i = r.has(8) ? 8 : r.has(9) ? 9 : r.has(11) ? 11 : 12;
                             row.payload = std::to_string(r.integer(i));
                           } else if (r.has(10) || r.has(13)) {
                             row.payload = std::to_string(r.real(r.has(10) ? 10 : 13));
                           } else if (r.has(14)) {
                             row.payload = std::string(r.text(14));
                           } else if (auto s = strings_.find(r.integer(15)); s != strings_.end()) {
                             row.payload = s->second;
                           }
                           if (row.type == nvtx_types_.domain_create && !isNull(row.domain)) {
                             domains[row.domain] = row.text;
                           } else if (row.type == nvtx_types_.thread && !isNull(row.global_tid)) {
                             nvtx_thread_names_[row.global_tid] = row.text;
                           }
                           rows.push_back(std::move(row));
                         }));

  const StringId nvtx = t_.strings.intern("nvtx");
  const StringId nvtx_mark = t_.strings.intern("nvtx_mark");
  for (const Row& row : rows) {
    const bool is_range = row.type == nvtx_types_.push_pop || row.type == nvtx_types_.start_end ||
                          row.type == nvtx_types_.nvtxt_push_pop ||
                          row.type == nvtx_types_.nvtxt_start_end;
    if (!is_range && row.type != nvtx_types_.mark) continue;
    // A mark, or a range still open, is an instant: its end is its start.
    const bool open = is_range && isNull(row.end);
    const std::optional<Interval> when =
        interval(row.start, is_range && !open ? row.end : row.start);
    if (!when) continue;
    if (open) {
      t_.addStat("nsys.nvtx_unterminated_ranges", 1,
                 "NVTX ranges still open when the capture ended; stored with dur 0");
    }
    RangeTable::Row r;
    r.ts = when->ts, r.dur = when->dur;
    r.thread_id = threadFor(row.global_tid);
    r.category = is_range ? nvtx : nvtx_mark;
    if (auto d = domains.find(row.domain); d != domains.end() && row.domain != 0) {
      r.domain = t_.strings.intern(d->second);
    }
    r.name = t_.strings.intern(row.text);
    std::string args;
    auto add = [&](const char* key, const std::string& json_value) {
      args += args.empty() ? "{" : ",";
      args += std::string("\"") + key + "\":" + json_value;
    };
    if (!row.payload.empty()) {
      const bool numeric = row.payload.find_first_not_of("0123456789.-e+") == std::string::npos;
      std::string quoted;
      appendJsonString(quoted, row.payload);
      add("payload", numeric ? row.payload : quoted);
    }
    if (!isNull(row.category)) add("category", std::to_string(row.category));
    if (!args.empty()) r.args = args + "}";
    t_.ranges.append(r);
  }
  return okStatus();
}

Status NsysImporter::loadDevices() {
  return reader_.forEachRow(
      "TARGET_INFO_GPU",
      {"id", "name", "smCount", "totalMemory", "memoryBandwidth", "clockRate", "computeMajor",
       "computeMinor", "threadsPerWarp", "maxThreadsPerBlock", "maxWarpsPerSm", "maxBlocksPerSm",
       "maxRegistersPerBlock", "maxRegistersPerSm", "maxShmemPerBlock", "maxShmemPerSm",
       "l2CacheSize", "uuid", "busLocation"},
      [&](const ColumnSelect& r) {
        DeviceTable::Row d;
        d.device = toInt32(r.integer(0));
        d.kind = DeviceKind::kGpu;
        d.vendor = t_.strings.intern("nvidia");
        d.name = t_.strings.intern(r.text(1));
        d.sm_count = toInt32(r.integer(2));
        d.memory_bytes = r.integer(3);
        d.memory_bandwidth_bytes_per_s = r.real(4);
        d.sm_clock_hz = r.integer(5);
        d.compute_major = toInt32(r.integer(6));
        d.compute_minor = toInt32(r.integer(7));
        d.warp_size = toInt32(r.integer(8));
        d.max_threads_per_block = toInt32(r.integer(9));
        if (int64_t threads = 0; r.has(10) && r.has(8) &&
                                 !__builtin_mul_overflow(r.integer(10), r.integer(8), &threads)) {
          d.max_threads_per_sm = toInt32(threads);
        }
        d.max_blocks_per_sm = toInt32(r.integer(11));
        d.registers_per_block = toInt32(r.integer(12));
        d.registers_per_sm = toInt32(r.integer(13));
        d.shared_memory_per_block_bytes = r.integer(14);
        d.shared_memory_per_sm_bytes = r.integer(15);
        d.l2_cache_bytes = r.integer(16);
        if (r.has(17)) d.uuid = t_.strings.intern(r.text(17));
        if (r.has(18)) d.bus_location = t_.strings.intern(r.text(18));
        if (!isNull(d.device)) t_.devices.append(d);
      });
}

Status NsysImporter::loadProcessInfo() {
  // Names of the processes and threads that have events.
  DAMSCOPE_RETURN_IF_ERROR(
      reader_.forEachRow("PROCESSES", {"pid", "name"}, [&](const ColumnSelect& r) {
        if (auto row = registry_.findProcess(r.integer(0))) {
          t_.processes.name[*row] = t_.strings.intern(r.text(1));
        }
      }));
  std::unordered_map<int64_t, std::string> thread_names = nvtx_thread_names_;
  DAMSCOPE_RETURN_IF_ERROR(
      reader_.forEachRow("ThreadNames", {"nameId", "globalTid"}, [&](const ColumnSelect& r) {
        if (auto s = strings_.find(r.integer(0)); s != strings_.end())
          thread_names.emplace(r.integer(1), s->second);
      }));
  for (const auto& [global_tid, name] : thread_names) {
    if (auto row = registry_.findThread(pidOf(global_tid), tidOf(global_tid))) {
      t_.threads.name[*row] = t_.strings.intern(name);
    }
    const MpiRankName mpi = parseMpiRankName(name);
    if (!mpi.is_rank_name) continue;
    auto process = registry_.findProcess(pidOf(global_tid));
    if (!process) continue;
    t_.processes.comm_backend[*process] = t_.strings.intern("mpi");
    if (mpi.rank) {
      t_.processes.rank[*process] = *mpi.rank;
    } else {
      t_.addStat("nsys.unusable_mpi_ranks", 1,
                 "threads named \"MPI Rank N\" whose N does not fit a 32-bit rank; the "
                 "process's rank is left unknown");
    }
  }
  std::string hostname;
  DAMSCOPE_RETURN_IF_ERROR(
      reader_.forEachRow("TARGET_INFO_SYSTEM_ENV", {"name", "value"}, [&](const ColumnSelect& r) {
        if (r.text(0) == "Hostname") hostname = std::string(r.text(1));
      }));
  if (!hostname.empty()) {
    for (auto& h : t_.processes.hostname) h = t_.strings.intern(hostname);
  }
  for (const char* table : {"EXPORT_META_DATA", "META_DATA_EXPORT"}) {
    DAMSCOPE_RETURN_IF_ERROR(
        reader_.forEachRow(table, {"name", "value"}, [&](const ColumnSelect& r) {
          if (r.text(0) == "EXPORT_PRODUCT_VERSION")
            t_.setMeta("nsys_version", std::string(r.text(1)));
          if (r.text(0) == "EXPORT_SCHEMA_VERSION")
            t_.setMeta("nsys_export_schema", std::string(r.text(1)));
        }));
  }
  return okStatus();
}

void NsysImporter::finish() {
  sortByTime(t_.kernels), sortByTime(t_.memcpys), sortByTime(t_.memsets);
  sortByTime(t_.api_calls), sortByTime(t_.syncs), sortByTime(t_.ranges);
  computeRangeNesting(t_.ranges);
  t_.setMeta("source_format", "nsys");
  t_.setMeta("source_file", source_);
  t_.setMeta("clock", has_session_start_ ? "realtime" : "session");
}

Result<TraceTables> NsysImporter::run() {
  // Errors name the export; a cancelled import says only that. Each step
  // begins with a cancellation check.
  auto step = [&](Status status) -> Status {
    if (status.ok()) return progress_.checkCancelled();
    if (status.error().code() == ErrorCode::kCancelled) return status;
    return status.error().withContext(source_);
  };
  reader_.start();
  DAMSCOPE_RETURN_IF_ERROR(progress_.checkCancelled());
  DAMSCOPE_RETURN_IF_ERROR(step(loadStrings()));
  DAMSCOPE_RETURN_IF_ERROR(step(loadEventTypes()));
  DAMSCOPE_RETURN_IF_ERROR(step(loadMemoryKinds()));
  DAMSCOPE_RETURN_IF_ERROR(step(loadSessionStart()));
  DAMSCOPE_RETURN_IF_ERROR(step(loadKernels()));
  DAMSCOPE_RETURN_IF_ERROR(step(loadMemcpys()));
  DAMSCOPE_RETURN_IF_ERROR(step(loadMemsets()));
  DAMSCOPE_RETURN_IF_ERROR(step(loadRuntime()));
  DAMSCOPE_RETURN_IF_ERROR(step(loadSyncs()));
  DAMSCOPE_RETURN_IF_ERROR(step(loadNvtx()));
  DAMSCOPE_RETURN_IF_ERROR(step(loadDevices()));
  DAMSCOPE_RETURN_IF_ERROR(step(loadProcessInfo()));
  const Progress finishing = progress_.part(kReadShare, 1, "finishing the import");
  finishing.report(0);
  finish();
  finishing.report(1);
  return std::move(t_);
}

}  // namespace

bool isNsysExport(Database& db) {
  if (!db.hasTable("StringIds")) return false;
  for (const char* table : {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME",
                            "NVTX_EVENTS", "TARGET_INFO_GPU", "TARGET_INFO_SESSION_START_TIME"}) {
    if (db.hasTable(table)) return true;
  }
  return false;
}

Result<TraceTables> importNsysSqlite(const std::string& path, const Progress& progress) {
  DAMSCOPE_ASSIGN_OR_RETURN(Database db, Database::open(path, Database::Mode::kReadOnly));
  return importNsysSqlite(std::move(db), progress);
}

Result<TraceTables> importNsysSqlite(Database db, const Progress& progress) {
  const std::string path = db.path();
  // A file that is not SQLite at all fails on its first query, not on open.
  if (auto probe = db.exec("SELECT count(*) FROM sqlite_master"); !probe.ok()) {
    return Error(path + ": not a readable SQLite database (" + probe.error().message() + ")");
  }
  if (!isNsysExport(db)) {
    return Error(path +
                 ": SQLite database is not an Nsight Systems export (no "
                 "StringIds/CUPTI_ACTIVITY_KIND_* tables)");
  }
  // Tables grow with the input; running out of memory is an error, not an
  // exception for the caller (see importTrace).
  try {
    NsysImporter importer(std::move(db), path, progress);
    return importer.run();
  } catch (const std::bad_alloc&) {
    return Error(path + ": out of memory while importing", ErrorCode::kFailure);
  }
}

}  // namespace damscope
