// SQL aggregates over a trace store: see trace_summary.h.
#include "trace/trace_summary.h"

#include <algorithm>
#include <map>

#include "trace/trace_reader.h"

namespace damscope {
namespace {

// Runs `sql` and calls on_row(stmt) for every row.
template <typename OnRow>
Status forEachRow(Database& db, const std::string& sql, OnRow&& on_row) {
  DAMSCOPE_ASSIGN_OR_RETURN(Statement stmt, db.prepare(sql));
  while (true) {
    auto row = stmt.step();
    if (!row.ok()) return Error(db.path() + ": " + row.error().message());
    if (!row.value()) return okStatus();
    on_row(stmt);
  }
}

int64_t intOr(const Statement& s, int column, int64_t fallback) {
  return s.isNull(column) ? fallback : s.columnInt(column);
}

constexpr const char* kEventTables[] = {"kernels", "memcpys", "memsets", "api_calls",
                                        "ranges",  "syncs",   "counters"};
constexpr const char* kAllTables[] = {"processes", "threads",  "devices",        "kernels",
                                      "memcpys",   "memsets",  "api_calls",      "ranges",
                                      "syncs",     "counters", "kernel_metrics", "strings"};

}  // namespace

std::string TraceSummary::metaValue(const std::string& key) const {
  for (const auto& [k, v] : meta) {
    if (k == key) return v;
  }
  return {};
}

int64_t TraceSummary::rows(const std::string& table) const {
  for (const auto& [t, n] : table_rows) {
    if (t == table) return n;
  }
  return 0;
}

Result<TraceSummary> summarizeTrace(Database& db) {
  DAMSCOPE_RETURN_IF_ERROR(checkTraceStore(db));
  TraceSummary s;

  DAMSCOPE_RETURN_IF_ERROR(forEachRow(db, "SELECT key, value FROM meta ORDER BY id", [&](auto& r) {
    s.meta.emplace_back(r.columnText(0), r.columnText(1));
  }));
  DAMSCOPE_RETURN_IF_ERROR(
      forEachRow(db,
                 "SELECT p.pid, n.value, h.value, p.rank, p.world_size, b.value FROM processes p "
                 "LEFT JOIN strings n ON n.id = p.name LEFT JOIN strings h ON h.id = p.hostname "
                 "LEFT JOIN strings b ON b.id = p.comm_backend ORDER BY p.id",
                 [&](auto& r) {
                   s.processes.push_back({intOr(r, 0, -1), std::string(r.columnText(1)),
                                          std::string(r.columnText(2)), int32_t(intOr(r, 3, -1)),
                                          int32_t(intOr(r, 4, -1)), std::string(r.columnText(5))});
                 }));

  DAMSCOPE_RETURN_IF_ERROR(forEachRow(
      db,
      "SELECT d.device, d.kind, n.value, d.sm_count, d.memory_bytes, d.compute_major, "
      "d.compute_minor FROM devices d LEFT JOIN strings n ON n.id = d.name ORDER BY d.device",
      [&](auto& r) {
        DeviceSummary d;
        d.device = int32_t(intOr(r, 0, -1));
        d.kind = r.columnText(1);
        d.name = r.columnText(2);
        d.sm_count = int32_t(intOr(r, 3, -1));
        d.memory_bytes = intOr(r, 4, -1);
        d.compute_major = int32_t(intOr(r, 5, -1));
        d.compute_minor = int32_t(intOr(r, 6, -1));
        s.devices.push_back(std::move(d));
      }));

  // Events per device and stream. A device that ran events but is missing
  // from the devices table (a source without device properties) still shows.
  auto device_entry = [&](int32_t device) -> DeviceSummary& {
    for (auto& d : s.devices) {
      if (d.device == device) return d;
    }
    DeviceSummary d;
    d.device = device;
    d.kind = "gpu";
    s.devices.push_back(d);
    return s.devices.back();
  };
  for (const char* table : {"kernels", "memcpys", "memsets"}) {
    DAMSCOPE_RETURN_IF_ERROR(
        forEachRow(db,
                   std::string("SELECT device, stream, count(*) FROM ") + table +
                       " GROUP BY device, stream ORDER BY device, stream",
                   [&](auto& r) {
                     DeviceSummary& d = device_entry(int32_t(intOr(r, 0, -1)));
                     const int64_t n = r.columnInt(2);
                     if (std::string_view(table) == "kernels") d.kernels += n;
                     if (std::string_view(table) == "memcpys") d.memcpys += n;
                     if (std::string_view(table) == "memsets") d.memsets += n;
                     const int64_t stream = intOr(r, 1, -1);
                     if (std::find(d.streams.begin(), d.streams.end(), stream) == d.streams.end()) {
                       d.streams.push_back(stream);
                     }
                   }));
  }
  DAMSCOPE_RETURN_IF_ERROR(forEachRow(
      db, "SELECT device, count(*) FROM ranges WHERE device IS NOT NULL GROUP BY device",
      [&](auto& r) { device_entry(int32_t(r.columnInt(0))).gpu_ranges += r.columnInt(1); }));
  for (auto& d : s.devices) std::sort(d.streams.begin(), d.streams.end());
  std::sort(s.devices.begin(), s.devices.end(),
            [](const auto& a, const auto& b) { return a.device < b.device; });

  for (const char* table : kAllTables) {
    DAMSCOPE_RETURN_IF_ERROR(
        forEachRow(db, std::string("SELECT count(*) FROM ") + table,
                   [&](auto& r) { s.table_rows.emplace_back(table, r.columnInt(0)); }));
  }
  s.threads = s.rows("threads");

  DAMSCOPE_RETURN_IF_ERROR(forEachRow(
      db,
      "SELECT c.value, count(*) FROM ranges r LEFT JOIN strings c ON c.id = r.category "
      "GROUP BY r.category ORDER BY count(*) DESC",
      [&](auto& r) { s.range_categories.emplace_back(r.columnText(0), r.columnInt(1)); }));
  DAMSCOPE_RETURN_IF_ERROR(
      forEachRow(db, "SELECT api, count(*) FROM api_calls GROUP BY api ORDER BY api",
                 [&](auto& r) { s.api_kinds.emplace_back(r.columnText(0), r.columnInt(1)); }));
  // NCCL names its kernels ncclKernel_*, ncclDevKernel_*, ncclSymkDevKernel_*;
  // RCCL keeps the nccl prefix. Names may be demangled ("void ncclKernel...").
  DAMSCOPE_RETURN_IF_ERROR(forEachRow(
      db,
      "SELECT coalesce(sum(k.n), 0) FROM (SELECT name, count(*) AS n FROM kernels GROUP BY name) k "
      "JOIN strings s ON s.id = k.name "
      "WHERE s.value LIKE 'nccl%' OR s.value LIKE 'void nccl%' OR s.value LIKE 'rccl%'",
      [&](auto& r) { s.nccl_kernels = r.columnInt(0); }));

  for (const char* table : kEventTables) {
    const bool has_dur = std::string_view(table) != "counters";
    DAMSCOPE_RETURN_IF_ERROR(forEachRow(
        db, std::string("SELECT min(ts), max(") + (has_dur ? "ts + dur" : "ts") + ") FROM " + table,
        [&](auto& r) {
          if (r.isNull(0)) return;
          const int64_t first = r.columnInt(0), last = r.columnInt(1);
          s.first_ts = s.has_events ? std::min(s.first_ts, first) : first;
          s.last_end = s.has_events ? std::max(s.last_end, last) : last;
          s.has_events = true;
        }));
  }

  DAMSCOPE_RETURN_IF_ERROR(
      forEachRow(db, "SELECT name, value, description FROM stats ORDER BY id", [&](auto& r) {
        s.stats.push_back(
            {std::string(r.columnText(0)), r.columnInt(1), std::string(r.columnText(2))});
      }));
  return s;
}

}  // namespace damscope
