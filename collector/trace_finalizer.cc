// Sorting a collector trace into the store's order: see trace_finalizer.h.
#include "collector/trace_finalizer.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "trace/sqlite_db.h"
#include "trace/trace_reader.h"
#include "trace/trace_writer.h"

namespace damscope::collector {
namespace {

namespace fs = std::filesystem;

Result<int64_t> count(Database& db, const std::string& sql) {
  DAMSCOPE_ASSIGN_OR_RETURN(Statement stmt, db.prepare(sql));
  DAMSCOPE_ASSIGN_OR_RETURN(bool row, stmt.step());
  return row ? stmt.columnInt(0) : 0;
}

Result<std::string> metaValue(Database& db, const std::string& key) {
  DAMSCOPE_ASSIGN_OR_RETURN(Statement stmt, db.prepare("SELECT value FROM meta WHERE key=?"));
  stmt.bindText(1, key);
  DAMSCOPE_ASSIGN_OR_RETURN(bool row, stmt.step());
  return row ? std::string(stmt.columnText(0)) : std::string();
}

Result<std::string> scalarText(Database& db, const std::string& sql, const std::string& arg) {
  DAMSCOPE_ASSIGN_OR_RETURN(Statement stmt, db.prepare(sql));
  stmt.bindText(1, arg);
  DAMSCOPE_ASSIGN_OR_RETURN(bool row, stmt.step());
  return row ? std::string(stmt.columnText(0)) : std::string();
}

// Rewrites `table` in (ts, -dur) order with ids renumbered to match; for
// ranges, parent_id follows. A copy written in order is several times faster
// than renumbering rows in place (each in-place id change moves a b-tree entry).
Status sortTable(Database& db, const std::string& table, bool has_dur) {
  const std::string order = has_dur ? "ts, dur DESC, id" : "ts, id";
  const std::string out_of_order =
      has_dur ? "b.ts < a.ts OR (b.ts = a.ts AND b.dur > a.dur)" : "b.ts < a.ts";
  DAMSCOPE_ASSIGN_OR_RETURN(int64_t unsorted,
                            count(db, "SELECT EXISTS(SELECT 1 FROM " + table + " a JOIN " + table +
                                          " b ON b.id = a.id + 1 WHERE " + out_of_order + ")"));
  if (unsorted == 0) return okStatus();

  // The copy is created from the table's own statement, so it has exactly the
  // schema's columns and constraints.
  DAMSCOPE_ASSIGN_OR_RETURN(
      std::string create,
      scalarText(db, "SELECT sql FROM sqlite_master WHERE type='table' AND name=?", table));
  const std::string copy = table + "_sorted";
  const size_t name_at = create.find(table);
  if (name_at == std::string::npos) return Error("no CREATE statement for table " + table);
  create.replace(name_at, table.size(), copy);
  std::string columns;
  for (const std::string& column : db.columnNames(table)) {
    if (column != "id") columns += "," + column;
  }
  DAMSCOPE_RETURN_IF_ERROR(db.exec(create));
  // Rows inserted with a NULL id get max(id) + 1: a placeholder row with id
  // -1 (a copy of any row, so NOT NULL columns are satisfied) makes the
  // sorted rows number from 0. ROW_NUMBER() would do the same at about twice
  // the cost (measured with bench/collector_bench, BM_FinalizeFile).
  DAMSCOPE_RETURN_IF_ERROR(db.exec("INSERT INTO " + copy + "(id" + columns + ") SELECT -1" +
                                   columns + " FROM " + table + " LIMIT 1;"));
  DAMSCOPE_RETURN_IF_ERROR(db.exec("INSERT INTO " + copy + "(id" + columns + ") SELECT NULL" +
                                   columns + " FROM " + table + " ORDER BY " + order + ";"));
  DAMSCOPE_RETURN_IF_ERROR(db.exec("DELETE FROM " + copy + " WHERE id = -1;"));
  // The references to the renumbered rows follow them: a range's parent,
  // and a measured counter's kernel (kernel_metrics, --counters).
  std::string follow;
  if (table == "ranges") {
    follow = "UPDATE " + copy +
             " SET parent_id = (SELECT new_id FROM remap WHERE old_id = " + copy +
             ".parent_id) WHERE parent_id IS NOT NULL;";
  } else if (table == "kernels") {
    follow =
        "UPDATE kernel_metrics SET kernel_id = (SELECT new_id FROM remap WHERE old_id = "
        "kernel_metrics.kernel_id) WHERE kernel_id IS NOT NULL;";
  }
  if (!follow.empty()) {
    // old id -> new id, numbered the same way.
    DAMSCOPE_RETURN_IF_ERROR(
        db.exec("CREATE TEMP TABLE remap(new_id INTEGER PRIMARY KEY, old_id INTEGER);"
                "INSERT INTO remap VALUES(-1, NULL);"
                "INSERT INTO remap(new_id, old_id) SELECT NULL, id FROM " +
                table + " ORDER BY " + order +
                ";"
                "CREATE INDEX temp.remap_by_old ON remap(old_id);" +
                follow + "DROP TABLE remap;"));
  }
  return db.exec("DROP TABLE " + table + "; ALTER TABLE " + copy + " RENAME TO " + table + ";");
}

// The pid of the process that wrote `path` if it is alive and still has the
// file open (its /proc/<pid>/fd links name it), else 0.
int64_t processWriting(const std::string& path) {
  int64_t pid = 0;
  {
    auto db = Database::open(path, Database::Mode::kReadOnly);
    if (!db.ok()) return 0;
    auto stmt = db->prepare("SELECT pid FROM processes LIMIT 1");
    if (!stmt.ok()) return 0;
    auto row = stmt->step();
    if (!row.ok() || !row.value()) return 0;
    pid = stmt->columnInt(0);
  }
  std::error_code ec;
  const fs::path target = fs::canonical(path, ec);
  if (pid <= 0 || ec) return 0;
  for (const auto& fd : fs::directory_iterator("/proc/" + std::to_string(pid) + "/fd", ec)) {
    std::error_code link_ec;
    if (fs::read_symlink(fd.path(), link_ec) == target) return pid;
  }
  return 0;
}

Result<int64_t> metaInt(Database& db, const std::string& key) {
  DAMSCOPE_ASSIGN_OR_RETURN(std::string text, metaValue(db, key));
  if (text.empty()) return int64_t{0};
  char* end = nullptr;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  return *end == '\0' ? static_cast<int64_t>(value) : int64_t{0};
}

Status setStat(Database& db, const std::string& name, int64_t value,
               const std::string& description) {
  DAMSCOPE_ASSIGN_OR_RETURN(
      Statement stmt, db.prepare("INSERT INTO stats(name, value, description) VALUES(?, ?, ?) "
                                 "ON CONFLICT(name) DO UPDATE SET value=excluded.value"));
  stmt.bindText(1, name);
  stmt.bindInt(2, value);
  stmt.bindText(3, description);
  DAMSCOPE_ASSIGN_OR_RETURN(bool row, stmt.step());
  (void)row;
  return okStatus();
}

// See trace_finalizer.h: a window the collector never closed.
Status recordAbruptEnd(Database& db, const FinalizeOptions& options, FinalizeReport* report) {
  DAMSCOPE_ASSIGN_OR_RETURN(std::string end_reason, metaValue(db, "collector.end_reason"));
  if (!end_reason.empty()) return okStatus();
  report->ended_abruptly = true;
  DAMSCOPE_ASSIGN_OR_RETURN(int64_t last_commit, metaInt(db, "collector.last_commit_ns"));
  DAMSCOPE_ASSIGN_OR_RETURN(int64_t window_start, metaInt(db, "collector.window_start_ns"));
  int64_t tail = kMaxUnsavedNs;
  if (options.process_end_ns > 0 && last_commit > 0) {
    tail = std::clamp<int64_t>(options.process_end_ns - last_commit, 0, INT64_MAX);
  }
  int64_t events = 0;
  for (const char* table :
       {"kernels", "memcpys", "memsets", "api_calls", "ranges", "syncs", "counters"}) {
    DAMSCOPE_ASSIGN_OR_RETURN(int64_t n, count(db, std::string("SELECT COUNT(*) FROM ") + table));
    events += n;
  }
  // The rate over the recorded part of the window, in double: a tail of
  // seconds times millions of events per second.
  const int64_t recorded_ns = last_commit - window_start;
  const double lost = recorded_ns > 0 && window_start > 0
                          ? static_cast<double>(events) / static_cast<double>(recorded_ns) *
                                static_cast<double>(tail)
                          : 0.0;
  report->unrecorded_tail_ns = tail;
  report->estimated_lost_events = static_cast<int64_t>(std::min(lost, 1e18));
  DAMSCOPE_RETURN_IF_ERROR(setStat(
      db, "collector.ended_abruptly", 1,
      "the process ended without closing the window (killed, or its crash could not be saved in "
      "time): events after the last commit are missing"));
  DAMSCOPE_RETURN_IF_ERROR(setStat(
      db, "collector.unrecorded_tail_ns", tail,
      "ns from the last commit to the end of the process (when damscope record saw the end; "
      "else the bound of two commit intervals): events in it are missing"));
  return setStat(db, "collector.estimated_lost_events", report->estimated_lost_events,
                 "events estimated missing after the last commit: the window's event rate times "
                 "collector.unrecorded_tail_ns");
}

}  // namespace

std::string abruptEndNote(const std::string& path, const FinalizeReport& report) {
  if (!report.ended_abruptly) return {};
  char seconds[32];
  std::snprintf(seconds, sizeof(seconds), "%.2f",
                static_cast<double>(report.unrecorded_tail_ns) / 1e9);
  return path +
         ": the recording ended abruptly (its window was never closed: the process was killed, "
         "or the file stopped taking writes): the last " +
         seconds + " s, about " + std::to_string(report.estimated_lost_events) +
         " events, are missing (stats collector.estimated_lost_events)";
}

Result<std::string> countersNote(const std::string& path) {
  DAMSCOPE_ASSIGN_OR_RETURN(Database db, Database::open(path, Database::Mode::kReadOnly));
  DAMSCOPE_ASSIGN_OR_RETURN(std::string requested, metaValue(db, "collector.counters_requested"));
  if (requested.empty()) return std::string();
  DAMSCOPE_ASSIGN_OR_RETURN(std::string status, metaValue(db, "collector.counters"));
  auto stat = [&](const char* name) -> Result<int64_t> {
    DAMSCOPE_ASSIGN_OR_RETURN(Statement stmt, db.prepare("SELECT value FROM stats WHERE name=?"));
    stmt.bindText(1, name);
    DAMSCOPE_ASSIGN_OR_RETURN(bool row, stmt.step());
    return row ? stmt.columnInt(0) : 0;
  };
  DAMSCOPE_ASSIGN_OR_RETURN(int64_t launches, stat("collector.counters_measured_launches"));
  DAMSCOPE_ASSIGN_OR_RETURN(int64_t replay_ns, stat("collector.counters_replay_ns"));
  DAMSCOPE_ASSIGN_OR_RETURN(int64_t rows, count(db,
                                                "SELECT COUNT(*) FROM kernel_metrics WHERE "
                                                "source = 'measured' AND kernel_id IS NOT NULL"));
  if (status.rfind("not measured", 0) == 0) {
    return path + ": hardware counters (" + requested + ") " + status;
  }
  char seconds[32];
  std::snprintf(seconds, sizeof(seconds), "%.2f", static_cast<double>(replay_ns) / 1e9);
  return path + ": hardware counters (" + requested + ") " + status + ": " +
         std::to_string(launches) + " kernel launches measured, " + std::to_string(rows) +
         " kernel_metrics rows; " + seconds +
         " s spent inside measured launches (kernel replay, stats collector.counters_replay_ns)";
}

Result<bool> needsFinalize(const std::string& path) {
  DAMSCOPE_ASSIGN_OR_RETURN(Database db, Database::open(path, Database::Mode::kReadOnly));
  DAMSCOPE_RETURN_IF_ERROR(checkTraceStore(db));
  Result<std::string> finalized = metaValue(db, "collector.finalized");
  if (!finalized.ok()) return finalized.error();
  return finalized.value() == "0";
}

Result<FinalizeReport> finalizeTraceFile(const std::string& path, const FinalizeOptions& options) {
  FinalizeReport report;
  DAMSCOPE_ASSIGN_OR_RETURN(bool needed, needsFinalize(path));
  if (!needed) return report;
  // A process of the command may outlive it (started in the background) and
  // still be writing: rewriting its tables now would pull them from under it.
  if (const int64_t pid = processWriting(path); pid > 0) {
    return Error(path + ": still being written by process " + std::to_string(pid) +
                 " (it outlived the command); left unsorted and unindexed");
  }
  DAMSCOPE_ASSIGN_OR_RETURN(Database db, Database::open(path, Database::Mode::kReadWriteCreate));
  auto run = [&]() -> Status {
    // Sorting and indexing want memory, not temp files: 256 MiB of page cache.
    DAMSCOPE_RETURN_IF_ERROR(db.exec("PRAGMA cache_size=-262144; PRAGMA temp_store=MEMORY;"));
    DAMSCOPE_RETURN_IF_ERROR(db.exec("BEGIN IMMEDIATE;"));
    for (const char* table : {"kernels", "memcpys", "memsets", "api_calls", "ranges", "syncs"}) {
      DAMSCOPE_RETURN_IF_ERROR(sortTable(db, table, true));
    }
    DAMSCOPE_RETURN_IF_ERROR(sortTable(db, "counters", false));
    // Indexes after sorting, so the renumbering does not maintain them.
    DAMSCOPE_ASSIGN_OR_RETURN(int64_t indexed,
                              count(db,
                                    "SELECT COUNT(*) FROM sqlite_master WHERE type='index' AND "
                                    "name='kernels_by_correlation'"));
    if (indexed == 0) DAMSCOPE_RETURN_IF_ERROR(db.exec(schemaIndexesSql()));
    DAMSCOPE_RETURN_IF_ERROR(recordAbruptEnd(db, options, &report));
    DAMSCOPE_RETURN_IF_ERROR(db.exec("UPDATE meta SET value='1' WHERE key='collector.finalized';"));
    return db.exec("COMMIT;");
  };
  if (Status status = run(); !status.ok()) {
    (void)db.exec("ROLLBACK;");
    return Error(path + ": cannot finalize the trace: " + status.error().message());
  }
  DAMSCOPE_RETURN_IF_ERROR(db.close());
  report.finalized_now = true;
  return report;
}

}  // namespace damscope::collector
