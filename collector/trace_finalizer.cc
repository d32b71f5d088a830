// Sorting a collector trace into the store's order: see trace_finalizer.h.
#include "collector/trace_finalizer.h"

#include "trace/sqlite_db.h"
#include "trace/trace_reader.h"

namespace damscope::collector {
namespace {

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

// Renumbers `table` so that ids follow (ts, -dur); ranges also remap parent_id.
Status sortTable(Database& db, const std::string& table, bool has_dur) {
  const std::string order = has_dur ? "ts, dur DESC, id" : "ts, id";
  const std::string out_of_order =
      has_dur ? "b.ts < a.ts OR (b.ts = a.ts AND b.dur > a.dur)" : "b.ts < a.ts";
  DAMSCOPE_ASSIGN_OR_RETURN(int64_t unsorted,
                            count(db, "SELECT EXISTS(SELECT 1 FROM " + table + " a JOIN " + table +
                                          " b ON b.id = a.id + 1 WHERE " + out_of_order + ")"));
  if (unsorted == 0) return okStatus();
  DAMSCOPE_RETURN_IF_ERROR(db.exec(
      "CREATE TEMP TABLE remap(old_id INTEGER PRIMARY KEY, new_id INTEGER NOT NULL);"
      "INSERT INTO remap SELECT id, ROW_NUMBER() OVER (ORDER BY " +
      order + ") - 1 FROM " + table +
      ";"
      // Two steps, so that no new id collides with an old one still in place.
      "UPDATE " +
      table +
      " SET id = -1 - id;"
      "UPDATE " +
      table + " SET id = (SELECT new_id FROM remap WHERE old_id = -1 - " + table + ".id);"));
  if (table == "ranges") {
    DAMSCOPE_RETURN_IF_ERROR(
        db.exec("UPDATE ranges SET parent_id = (SELECT new_id FROM remap WHERE old_id = "
                "ranges.parent_id) WHERE parent_id IS NOT NULL;"));
  }
  return db.exec("DROP TABLE remap;");
}

}  // namespace

Result<bool> needsFinalize(const std::string& path) {
  DAMSCOPE_ASSIGN_OR_RETURN(Database db, Database::open(path, Database::Mode::kReadOnly));
  DAMSCOPE_RETURN_IF_ERROR(checkTraceStore(db));
  Result<std::string> sorted = metaValue(db, "collector.sorted");
  if (!sorted.ok()) return sorted.error();
  return sorted.value() == "0";
}

Status finalizeTraceFile(const std::string& path) {
  DAMSCOPE_ASSIGN_OR_RETURN(bool needed, needsFinalize(path));
  if (!needed) return okStatus();
  DAMSCOPE_ASSIGN_OR_RETURN(Database db, Database::open(path, Database::Mode::kReadWriteCreate));
  auto run = [&]() -> Status {
    DAMSCOPE_RETURN_IF_ERROR(db.exec("BEGIN IMMEDIATE;"));
    for (const char* table : {"kernels", "memcpys", "memsets", "api_calls", "ranges", "syncs"}) {
      DAMSCOPE_RETURN_IF_ERROR(sortTable(db, table, true));
    }
    DAMSCOPE_RETURN_IF_ERROR(sortTable(db, "counters", false));
    DAMSCOPE_RETURN_IF_ERROR(db.exec("UPDATE meta SET value='1' WHERE key='collector.sorted';"));
    return db.exec("COMMIT;");
  };
  if (Status status = run(); !status.ok()) {
    (void)db.exec("ROLLBACK;");
    return Error(path + ": cannot sort the trace: " + status.error().message());
  }
  return db.close();
}

}  // namespace damscope::collector
