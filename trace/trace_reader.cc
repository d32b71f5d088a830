// Loads a trace-store file into TraceTables: see trace_reader.h.
#include "trace/trace_reader.h"

#include "trace/table_io.h"

namespace damscope {
namespace {

Status readStrings(Database& db, StringPool& pool) {
  DAMSCOPE_ASSIGN_OR_RETURN(Statement stmt,
                            db.prepare("SELECT id, value FROM strings ORDER BY id"));
  while (true) {
    auto row = stmt.step();
    if (!row.ok()) return Error(db.path() + ": reading strings: " + row.error().message());
    if (!row.value()) break;
    // Two equal strings would collapse into one id; the writer never stores
    // duplicates, so this only fails on a file damaged by hand.
    if (pool.intern(stmt.columnText(1)).value != stmt.columnInt(0)) {
      return Error(db.path() + ": strings table is not a dense list of distinct strings");
    }
  }
  return okStatus();
}

}  // namespace

bool isTraceStore(Database& db) {
  if (!db.hasTable("meta")) return false;
  auto stmt = db.prepare("SELECT value FROM meta WHERE key='format'");
  if (!stmt.ok()) return false;
  auto row = stmt->step();
  return row.ok() && row.value() && stmt->columnText(0) == kTraceStoreFormat;
}

Status checkTraceStore(Database& db) {
  if (!isTraceStore(db)) return Error(db.path() + ": not a damscope trace store");
  DAMSCOPE_ASSIGN_OR_RETURN(Statement stmt,
                            db.prepare("SELECT value FROM meta WHERE key='schema_version'"));
  auto row = stmt.step();
  if (!row.ok() || !row.value()) return Error(db.path() + ": trace store has no schema_version");
  const std::string version(stmt.columnText(0));
  if (version != std::to_string(kSchemaVersion)) {
    return Error(db.path() + ": trace store schema version " + version + ", this damscope reads " +
                 std::to_string(kSchemaVersion));
  }
  return okStatus();
}

Result<TraceTables> readTrace(Database& db, const Progress& progress) {
  DAMSCOPE_RETURN_IF_ERROR(checkTraceStore(db));
  TraceTables tables;
  DAMSCOPE_RETURN_IF_ERROR(readStrings(db, tables.strings));
  int count = 0, done = 0;
  tables.forEachTable([&](auto&) { ++count; });
  Status status;
  tables.forEachTable([&](auto& table) {
    if (status.ok()) status = progress.checkCancelled();
    if (status.ok()) status = table_io::readRows(db, table);
    progress.report(static_cast<double>(++done) / count);
  });
  if (!status.ok()) return status.error();
  return tables;
}

Result<TraceTables> readTrace(const std::string& path, const Progress& progress) {
  DAMSCOPE_ASSIGN_OR_RETURN(Database db, Database::open(path, Database::Mode::kReadOnly));
  return readTrace(db, progress);
}

}  // namespace damscope
