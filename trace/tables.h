// The in-memory event tables: one struct per trace-store table, stored column
// by column (one std::vector per column) so analyses scan only what they use.
//
// Every table is declared once, below, as an X-macro list of (type, column).
// From that list follow the column vectors, a Row struct for appending, and a
// visitor that the SQLite writer and reader use to bind and read each column,
// so a column added here is stored and loaded without further code. The same
// machinery declares the analysis tables (analyzer/result/analysis_tables.h),
// whose entries also carry NOT NULL and a doc line, so that their SQL and
// column reference are generated (trace/table_schema.h). The SQL
// definitions live in trace/schema.sql and the column reference in
// docs/trace-format.md; tests/schema_agreement_test.cc checks both against
// these lists, types included.
//
// Conventions (docs/trace-format.md is the reference):
// - The row index is the table's `id`; `*_id` columns that name another table
//   (thread_id, parent_id, kernel_id, range_id, process_id) hold that row index.
// - `device` and `stream` are the numbers CUDA/HIP gives (device ordinal,
//   CUPTI stream id); `correlation_id` is CUPTI's; `external_id` the
//   framework's (Kineto "External id"); `pid`/`tid` the OS's.
// - Times are int64 nanoseconds on the file's one clock (`ts` start, `dur`).
// - Unknown values are "null": the minimum integer, NaN, kNoString, or "".
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"
#include "trace/enums.h"
#include "trace/string_pool.h"

namespace damscope {

template <typename T>
inline T nullValue() {
  if constexpr (std::is_same_v<T, double>) {
    return std::numeric_limits<double>::quiet_NaN();
  } else if constexpr (std::is_integral_v<T>) {
    return std::numeric_limits<T>::min();
  } else {
    return T{};  // StringId -> kNoString, std::string -> "", enums -> first value.
  }
}

template <typename T>
inline bool isNull(const T& v) {
  if constexpr (std::is_same_v<T, double>) {
    return std::isnan(v);
  } else if constexpr (std::is_integral_v<T>) {
    return v == std::numeric_limits<T>::min();
  } else if constexpr (std::is_same_v<T, StringId>) {
    return !v.valid();
  } else if constexpr (std::is_same_v<T, std::string>) {
    return v.empty();
  } else {
    return false;  // Enums always hold a value.
  }
}

constexpr int64_t kNullInt = std::numeric_limits<int64_t>::min();
constexpr int32_t kNullInt32 = std::numeric_limits<int32_t>::min();

// --- Table declarations -----------------------------------------------------

// One row per recorded OS process (a rank in a distributed job).
#define DAMSCOPE_PROCESS_COLUMNS(X) \
  X(int64_t, pid)                   \
  X(StringId, name)                 \
  X(StringId, hostname)             \
  X(int32_t, rank)                  \
  X(int32_t, local_rank)            \
  X(int32_t, world_size)            \
  X(StringId, comm_backend)         \
  X(std::string, cmdline)

#define DAMSCOPE_THREAD_COLUMNS(X) \
  X(int64_t, process_id)           \
  X(int64_t, tid)                  \
  X(StringId, name)

// Devices the process could see. `memory_bandwidth_bytes_per_s` is the
// theoretical DRAM bandwidth; `sm_clock_hz` the maximum SM clock.
#define DAMSCOPE_DEVICE_COLUMNS(X)          \
  X(int32_t, device)                        \
  X(DeviceKind, kind)                       \
  X(StringId, vendor)                       \
  X(StringId, name)                         \
  X(int32_t, sm_count)                      \
  X(int64_t, memory_bytes)                  \
  X(double, memory_bandwidth_bytes_per_s)   \
  X(int64_t, sm_clock_hz)                   \
  X(int32_t, compute_major)                 \
  X(int32_t, compute_minor)                 \
  X(int32_t, warp_size)                     \
  X(int32_t, max_threads_per_block)         \
  X(int32_t, max_threads_per_sm)            \
  X(int32_t, max_blocks_per_sm)             \
  X(int32_t, registers_per_block)           \
  X(int32_t, registers_per_sm)              \
  X(int64_t, shared_memory_per_block_bytes) \
  X(int64_t, shared_memory_per_sm_bytes)    \
  X(int64_t, l2_cache_bytes)                \
  X(StringId, uuid)                         \
  X(StringId, bus_location)

// GPU kernel executions. `shared_memory_bytes` is static + dynamic per block;
// `occupancy_pct` is the estimated achieved occupancy the source reported
// (Kineto's "est. achieved occupancy %"); `args` keeps source arguments that
// have no column (e.g. NCCL collective sizes) as a JSON object.
#define DAMSCOPE_KERNEL_COLUMNS(X) \
  X(int64_t, ts)                   \
  X(int64_t, dur)                  \
  X(int32_t, device)               \
  X(int64_t, stream)               \
  X(int64_t, correlation_id)       \
  X(int64_t, external_id)          \
  X(StringId, name)                \
  X(int32_t, grid_x)               \
  X(int32_t, grid_y)               \
  X(int32_t, grid_z)               \
  X(int32_t, block_x)              \
  X(int32_t, block_y)              \
  X(int32_t, block_z)              \
  X(int32_t, registers_per_thread) \
  X(int64_t, shared_memory_bytes)  \
  X(int64_t, graph_id)             \
  X(int64_t, graph_node_id)        \
  X(double, occupancy_pct)         \
  X(std::string, args)

#define DAMSCOPE_MEMCPY_COLUMNS(X) \
  X(int64_t, ts)                   \
  X(int64_t, dur)                  \
  X(int32_t, device)               \
  X(int64_t, stream)               \
  X(int64_t, correlation_id)       \
  X(int64_t, external_id)          \
  X(CopyKind, copy_kind)           \
  X(MemoryKind, src_kind)          \
  X(MemoryKind, dst_kind)          \
  X(int64_t, bytes)                \
  X(int32_t, src_device)           \
  X(int32_t, dst_device)           \
  X(int64_t, graph_node_id)

#define DAMSCOPE_MEMSET_COLUMNS(X) \
  X(int64_t, ts)                   \
  X(int64_t, dur)                  \
  X(int32_t, device)               \
  X(int64_t, stream)               \
  X(int64_t, correlation_id)       \
  X(int64_t, external_id)          \
  X(MemoryKind, memory_kind)       \
  X(int64_t, bytes)                \
  X(int32_t, value)                \
  X(int64_t, graph_node_id)

// Host calls into the CUDA/HIP runtime or driver (launches, copies, syncs,
// allocations). `cbid` is CUPTI's callback id where the source gives it.
#define DAMSCOPE_API_CALL_COLUMNS(X) \
  X(int64_t, ts)                     \
  X(int64_t, dur)                    \
  X(int64_t, thread_id)              \
  X(ApiKind, api)                    \
  X(StringId, name)                  \
  X(int64_t, correlation_id)         \
  X(int64_t, external_id)            \
  X(int32_t, cbid)                   \
  X(int32_t, return_code)

// Named spans: NVTX ranges and marks, framework ops (cpu_op), user and GPU
// annotations, profiler ranges. Host ranges have a thread_id; GPU-side ranges a
// device and stream. `depth` and `parent_id` describe nesting on the same
// thread (or stream); `args` is a JSON object of source arguments and payloads.
#define DAMSCOPE_RANGE_COLUMNS(X) \
  X(int64_t, ts)                  \
  X(int64_t, dur)                 \
  X(int64_t, thread_id)           \
  X(int32_t, device)              \
  X(int64_t, stream)              \
  X(StringId, category)           \
  X(StringId, domain)             \
  X(StringId, name)               \
  X(int32_t, depth)               \
  X(int64_t, parent_id)           \
  X(int64_t, external_id)         \
  X(int64_t, correlation_id)      \
  X(std::string, args)

// Time a host thread or a stream spent synchronizing.
#define DAMSCOPE_SYNC_COLUMNS(X) \
  X(int64_t, ts)                 \
  X(int64_t, dur)                \
  X(int64_t, thread_id)          \
  X(int32_t, device)             \
  X(int64_t, stream)             \
  X(SyncKind, kind)              \
  X(int64_t, correlation_id)     \
  X(int64_t, external_id)        \
  X(int64_t, event_id)

// Sampled values: memory in use, per-thread CPU utilisation, ...
#define DAMSCOPE_COUNTER_COLUMNS(X) \
  X(int64_t, ts)                    \
  X(StringId, name)                 \
  X(double, value)                  \
  X(int32_t, device)                \
  X(int64_t, thread_id)

// FLOPs and DRAM bytes of one kernel (kernel_id) or of a profiled range
// (range_id, e.g. Kineto's cuda_profiler_range), with where they came from.
#define DAMSCOPE_KERNEL_METRIC_COLUMNS(X) \
  X(int64_t, kernel_id)                   \
  X(int64_t, range_id)                    \
  X(double, flops)                        \
  X(double, dram_bytes)                   \
  X(MetricSource, source)

// Counts of what was lost, skipped or repaired on the way in: data loss is data.
#define DAMSCOPE_STAT_COLUMNS(X) \
  X(std::string, name)           \
  X(int64_t, value)              \
  X(std::string, description)

// Where events were lost: a time range, the stat that counts the lost events
// (a `stats` name) and how many of them fell in it. The stats say how much
// was lost; these say when, so the timeline can mark it (docs/trace-format.md).
#define DAMSCOPE_LOST_SPAN_COLUMNS(X) \
  X(int64_t, ts)                      \
  X(int64_t, dur)                     \
  X(std::string, stat)                \
  X(int64_t, events)

#define DAMSCOPE_META_COLUMNS(X) \
  X(std::string, key)            \
  X(std::string, value)

// --- Table machinery ---------------------------------------------------------

// A column entry is X(type, column) or, for a table whose SQL is generated
// from its declaration, X(type, column, null, doc, ...): `null` is kNotNull
// or kNullable, `doc` one line for the column reference. Whatever follows is
// for the code that fills the table (the analysis tables name the result
// model's figure there, analyzer/result/analysis_tables.h); the machinery
// here ignores it.
enum ColumnNull : uint8_t { kNullable, kNotNull };

// The SQL type a column of type T is stored as (trace/column_io.h binds it
// so): integers and string ids INTEGER, doubles REAL, text and enums (by
// name) TEXT.
template <typename T>
constexpr const char* sqlType() {
  if constexpr (std::is_same_v<T, double>) {
    return "REAL";
  } else if constexpr (std::is_same_v<T, std::string> || std::is_enum_v<T>) {
    return "TEXT";
  } else {
    static_assert(
        std::is_same_v<T, int64_t> || std::is_same_v<T, int32_t> || std::is_same_v<T, StringId>,
        "sqlType: say how trace/column_io.h stores this type");
    return "INTEGER";
  }
}

struct ColumnDeclaration {
  const char* name;
  const char* sql_type;
  ColumnNull null;
  const char* doc;
};

// An index on one column, declared with its table.
struct IndexDeclaration {
  const char* name;
  const char* column;
};

#define DAMSCOPE_COLUMN_VECTOR(type, column, ...) std::vector<type> column;
#define DAMSCOPE_ROW_FIELD(type, column, ...) type column = nullValue<type>();
#define DAMSCOPE_APPEND_FIELD(type, column, ...) column.push_back(row.column);
#define DAMSCOPE_GATHER_FIELD(type, column, ...) row.column = column[i];
#define DAMSCOPE_VISIT_COLUMN(type, column, ...) visit(#column, column);
#define DAMSCOPE_COLUMN_DECLARATION(type, column, null, doc, ...) \
  ColumnDeclaration{#column, sqlType<type>(), null, doc},

#define DAMSCOPE_TABLE_MEMBERS(sql_name, COLUMNS)                                                \
  static constexpr const char* kSqlName = sql_name;                                              \
  struct Row {                                                                                   \
    COLUMNS(DAMSCOPE_ROW_FIELD)                                                                  \
  };                                                                                             \
  COLUMNS(DAMSCOPE_COLUMN_VECTOR)                                                                \
  /* Appends a row and returns its id (row index). */                                            \
  int64_t append(const Row& row) {                                                               \
    COLUMNS(DAMSCOPE_APPEND_FIELD)                                                               \
    return static_cast<int64_t>(size()) - 1;                                                     \
  }                                                                                              \
  Row row(size_t i) const {                                                                      \
    Row row;                                                                                     \
    COLUMNS(DAMSCOPE_GATHER_FIELD)                                                               \
    return row;                                                                                  \
  }                                                                                              \
  /* Calls visit(name, column_vector) for every column, in order. */                             \
  template <typename Visit>                                                                      \
  void forEachColumn(Visit&& visit) {                                                            \
    COLUMNS(DAMSCOPE_VISIT_COLUMN)                                                               \
  }                                                                                              \
  template <typename Visit>                                                                      \
  void forEachColumn(Visit&& visit) const {COLUMNS(DAMSCOPE_VISIT_COLUMN)} size_t size() const { \
    size_t n = 0;                                                                                \
    bool first = true;                                                                           \
    forEachColumn([&](const char*, const auto& c) {                                              \
      if (first) n = c.size();                                                                   \
      first = false;                                                                             \
    });                                                                                          \
    return n;                                                                                    \
  }                                                                                              \
  bool empty() const {                                                                           \
    return size() == 0;                                                                          \
  }                                                                                              \
  void reserve(size_t n) {                                                                       \
    forEachColumn([n](const char*, auto& c) { c.reserve(n); });                                  \
  }                                                                                              \
  void clear() {                                                                                 \
    forEachColumn([](const char*, auto& c) { c.clear(); });                                      \
  }

#define DAMSCOPE_DEFINE_TABLE(Struct, sql_name, COLUMNS) \
  struct Struct {                                        \
    DAMSCOPE_TABLE_MEMBERS(sql_name, COLUMNS)            \
  };

// A table whose CREATE statement and column reference are generated from its
// declaration (trace/table_schema.h): COLUMNS entries carry null and doc;
// `table_doc` says what a row is; the optional trailing arguments are its
// indexes, {"name", "column"}.
#define DAMSCOPE_DEFINE_DECLARED_TABLE(Struct, sql_name, table_doc, COLUMNS, ...) \
  struct Struct {                                                                 \
    DAMSCOPE_TABLE_MEMBERS(sql_name, COLUMNS)                                     \
    static constexpr const char* kDoc = table_doc;                                \
    static constexpr std::array kColumns{COLUMNS(DAMSCOPE_COLUMN_DECLARATION)};   \
    static std::vector<IndexDeclaration> indexes() { return {__VA_ARGS__}; }      \
  };

DAMSCOPE_DEFINE_TABLE(ProcessTable, "processes", DAMSCOPE_PROCESS_COLUMNS)
DAMSCOPE_DEFINE_TABLE(ThreadTable, "threads", DAMSCOPE_THREAD_COLUMNS)
DAMSCOPE_DEFINE_TABLE(DeviceTable, "devices", DAMSCOPE_DEVICE_COLUMNS)
DAMSCOPE_DEFINE_TABLE(KernelTable, "kernels", DAMSCOPE_KERNEL_COLUMNS)
DAMSCOPE_DEFINE_TABLE(MemcpyTable, "memcpys", DAMSCOPE_MEMCPY_COLUMNS)
DAMSCOPE_DEFINE_TABLE(MemsetTable, "memsets", DAMSCOPE_MEMSET_COLUMNS)
DAMSCOPE_DEFINE_TABLE(ApiCallTable, "api_calls", DAMSCOPE_API_CALL_COLUMNS)
DAMSCOPE_DEFINE_TABLE(RangeTable, "ranges", DAMSCOPE_RANGE_COLUMNS)
DAMSCOPE_DEFINE_TABLE(SyncTable, "syncs", DAMSCOPE_SYNC_COLUMNS)
DAMSCOPE_DEFINE_TABLE(CounterTable, "counters", DAMSCOPE_COUNTER_COLUMNS)
DAMSCOPE_DEFINE_TABLE(KernelMetricTable, "kernel_metrics", DAMSCOPE_KERNEL_METRIC_COLUMNS)
DAMSCOPE_DEFINE_TABLE(StatTable, "stats", DAMSCOPE_STAT_COLUMNS)
DAMSCOPE_DEFINE_TABLE(LostSpanTable, "lost_spans", DAMSCOPE_LOST_SPAN_COLUMNS)
DAMSCOPE_DEFINE_TABLE(MetaTable, "meta", DAMSCOPE_META_COLUMNS)

// A whole trace in memory: what importers produce, what the store writes and
// reads, and what analyses take.
struct TraceTables {
  StringPool strings;
  MetaTable meta;
  StatTable stats;
  ProcessTable processes;
  ThreadTable threads;
  DeviceTable devices;
  KernelTable kernels;
  MemcpyTable memcpys;
  MemsetTable memsets;
  ApiCallTable api_calls;
  RangeTable ranges;
  SyncTable syncs;
  CounterTable counters;
  KernelMetricTable kernel_metrics;
  LostSpanTable lost_spans;

  // Calls visit(table) for every row table, in the order they are stored.
  template <typename Visit>
  void forEachTable(Visit&& visit) {
    visit(meta), visit(stats), visit(processes), visit(threads), visit(devices);
    visit(kernels), visit(memcpys), visit(memsets), visit(api_calls), visit(ranges);
    visit(syncs), visit(counters), visit(kernel_metrics), visit(lost_spans);
  }
  template <typename Visit>
  void forEachTable(Visit&& visit) const {
    visit(meta), visit(stats), visit(processes), visit(threads), visit(devices);
    visit(kernels), visit(memcpys), visit(memsets), visit(api_calls), visit(ranges);
    visit(syncs), visit(counters), visit(kernel_metrics), visit(lost_spans);
  }

  // Meta values are text; setMeta replaces an existing key.
  void setMeta(const std::string& key, const std::string& value);
  std::string getMeta(const std::string& key) const;

  // Total rows of the event tables (kernels, memcpys, memsets, api_calls,
  // ranges, syncs, counters): what "events" counts everywhere.
  int64_t eventCount() const;

  // Adds `delta` to the named stat, creating it with `description` if new.
  void addStat(const std::string& name, int64_t delta, const std::string& description);
  int64_t getStat(const std::string& name) const;
};

// Every time in a trace store, start or end, lies strictly inside ±2^62 ns
// (about 146 years around the clock's epoch): then any difference or sum of
// two times fits int64, and no analysis needs checked arithmetic. Importers
// and the collector keep events inside it (counting what they repair in
// stats); readers refuse files that break it.
constexpr int64_t kTimeLimitNs = int64_t{1} << 62;
inline bool isTraceTime(int64_t ns) {
  return ns > -kTimeLimitNs && ns < kTimeLimitNs;
}

// Importers combine times from untrusted input (a base time and an offset, an
// end and a start) with these: checked int64 arithmetic, and a result inside
// the trace's time range, or std::nullopt.
inline std::optional<int64_t> addTraceTimes(int64_t a, int64_t b) {
  int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum) || !isTraceTime(sum)) return std::nullopt;
  return sum;
}
inline std::optional<int64_t> subtractTraceTimes(int64_t a, int64_t b) {
  int64_t difference = 0;
  if (__builtin_sub_overflow(a, b, &difference) || !isTraceTime(difference)) return std::nullopt;
  return difference;
}

// Checks that every event has a ts and a dur (NOT NULL in the schema), that
// ts and ts + dur are trace times and that no dur is negative; the error
// names the table, the row and the value.
Status checkEventTimes(const TraceTables& tables);

// The schema version this build writes and reads (meta key "schema_version").
constexpr int kSchemaVersion = 1;
// The meta "format" value that marks a file as a damscope trace store.
constexpr const char* kTraceStoreFormat = "damscope-trace";

}  // namespace damscope
