// Writes TraceTables into SQLite: see trace_writer.h.
#include "trace/trace_writer.h"

#include <algorithm>
#include <type_traits>

#include "base/pending_file.h"
#include "trace/schema_sql.h"
#include "trace/table_io.h"

namespace damscope {
namespace {

constexpr std::string_view kIndexMarker = "-- @indexes";

using table_io::insertRows;

Status insertStrings(Database& db, const StringPool& pool, int64_t first) {
  if (first >= static_cast<int64_t>(pool.size())) return okStatus();
  DAMSCOPE_ASSIGN_OR_RETURN(Statement stmt,
                            db.prepare("INSERT INTO strings(id,value) VALUES(?,?)"));
  for (auto id = static_cast<int32_t>(first); id < static_cast<int32_t>(pool.size()); ++id) {
    stmt.bindInt(1, id);
    stmt.bindText(2, pool.get(StringId{id}));
    if (auto status = stmt.run(); !status.ok()) {
      return Error(db.path() + ": cannot write strings: " + status.error().message());
    }
  }
  return okStatus();
}

// True when `table` is a TraceTables row table with an integer-valued column
// `column` (StringId columns hold integers too).
bool isIntegerColumn(std::string_view table, std::string_view column) {
  bool found = false;
  TraceTables tables;
  tables.forEachTable([&](const auto& t) {
    if (table != std::decay_t<decltype(t)>::kSqlName) return;
    t.forEachColumn([&](const char* name, const auto& values) {
      using Value = typename std::decay_t<decltype(values)>::value_type;
      constexpr bool integer = std::is_integral_v<Value> || std::is_same_v<Value, StringId>;
      if (integer && column == name) found = true;
    });
  });
  return found;
}

Status applyUpdates(Database& db, const std::vector<RowUpdate>& updates) {
  // One prepared statement per (table, column), reused across its updates.
  std::vector<std::pair<std::string, Statement>> statements;
  for (const RowUpdate& u : updates) {
    const std::string key = std::string(u.table) + "." + std::string(u.column);
    auto it = std::find_if(statements.begin(), statements.end(),
                           [&](const auto& entry) { return entry.first == key; });
    if (it == statements.end()) {
      if (!isIntegerColumn(u.table, u.column)) {
        return Error(db.path() + ": cannot update " + key + ": no such integer column");
      }
      DAMSCOPE_ASSIGN_OR_RETURN(Statement stmt,
                                db.prepare("UPDATE " + std::string(u.table) + " SET " +
                                           std::string(u.column) + "=? WHERE id=?"));
      statements.emplace_back(key, std::move(stmt));
      it = statements.end() - 1;
    }
    Statement& stmt = it->second;
    isNull(u.value) ? stmt.bindNull(1) : stmt.bindInt(1, u.value);
    stmt.bindInt(2, u.id);
    if (auto status = stmt.run(); !status.ok()) {
      return Error(db.path() + ": cannot update " + key + ": " + status.error().message());
    }
  }
  return okStatus();
}

// The meta rows that mark a file as a trace store of this schema.
MetaTable identityMeta() {
  TraceTables identity;
  identity.setMeta("format", kTraceStoreFormat);
  identity.setMeta("schema_version", std::to_string(kSchemaVersion));
  return identity.meta;
}

}  // namespace

std::string schemaTablesSql() {
  const std::string_view all(kSchemaSql);
  return std::string(all.substr(0, all.find(kIndexMarker)));
}

std::string schemaIndexesSql() {
  const std::string_view all(kSchemaSql);
  const size_t at = all.find(kIndexMarker);
  return at == std::string_view::npos ? std::string() : std::string(all.substr(at));
}

Result<TraceWriter> TraceWriter::create(Database db, WriterOptions options) {
  const bool bulk = options.mode == WriterOptions::Mode::kBulkLoad;
  // 16 KiB pages in a new file (one that has pages keeps theirs): v100_rank1's
  // first analysis, stored, 0.33-0.34 s against 0.35-0.37 s with SQLite's
  // 4 KiB and 0.34-0.36 s with 64 KiB, which also double a small rank's
  // run.db (each of its forty tables and indexes takes a page or more;
  // docs/trace-format.md, "Pages"). Not for a streaming file, whose small
  // commits log whole pages.
  if (bulk) DAMSCOPE_RETURN_IF_ERROR(db.exec("PRAGMA page_size=16384;"));
  DAMSCOPE_RETURN_IF_ERROR(db.exec(bulk ? "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
                                        : "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"));
  DAMSCOPE_RETURN_IF_ERROR(db.exec("PRAGMA cache_size=-65536;"));  // 64 MiB page cache
  DAMSCOPE_RETURN_IF_ERROR(db.exec("BEGIN;"));
  DAMSCOPE_RETURN_IF_ERROR(db.exec(schemaTablesSql()));
  if (!bulk && options.create_indexes) DAMSCOPE_RETURN_IF_ERROR(db.exec(schemaIndexesSql()));
  DAMSCOPE_RETURN_IF_ERROR(db.exec("COMMIT;"));
  TraceWriter writer(std::move(db), options);
  DAMSCOPE_RETURN_IF_ERROR(writer.db_.exec("BEGIN;"));
  DAMSCOPE_RETURN_IF_ERROR(insertRows(writer.db_, identityMeta(), 0));
  DAMSCOPE_RETURN_IF_ERROR(writer.db_.exec("COMMIT;"));
  TraceTables empty;
  empty.forEachTable([&](const auto&) { writer.rows_written_.push_back(0); });
  return writer;
}

Status TraceWriter::append(const TraceTables& batch) {
  return append(batch, {});
}

Status TraceWriter::append(const TraceTables& batch, const std::vector<RowUpdate>& updates) {
  if (finished_) return Error(db_.path() + ": append after finish");
  DAMSCOPE_RETURN_IF_ERROR(db_.exec("BEGIN;"));
  Status status = insertStrings(db_, batch.strings, strings_written_);
  size_t table_index = 0;
  std::vector<int64_t> written = rows_written_;
  batch.forEachTable([&](const auto& table) {
    if (status.ok()) status = insertRows(db_, table, written[table_index]);
    written[table_index] += static_cast<int64_t>(table.size());
    ++table_index;
  });
  if (status.ok()) status = applyUpdates(db_, updates);
  if (!status.ok()) {
    (void)db_.exec("ROLLBACK;");
    return status;
  }
  DAMSCOPE_RETURN_IF_ERROR(db_.exec("COMMIT;"));
  strings_written_ = static_cast<int64_t>(batch.strings.size());
  rows_written_ = std::move(written);
  return okStatus();
}

Status TraceWriter::finishWithoutClosing() {
  if (finished_) return okStatus();
  finished_ = true;
  if (options_.mode == WriterOptions::Mode::kBulkLoad) {
    DAMSCOPE_RETURN_IF_ERROR(db_.exec("BEGIN;"));
    if (options_.create_indexes) DAMSCOPE_RETURN_IF_ERROR(db_.exec(schemaIndexesSql()));
    DAMSCOPE_RETURN_IF_ERROR(db_.exec("COMMIT;"));
    // WAL lets a reader (the GUI) and a writer (a later `analyze`) share the file.
    if (db_.path() != ":memory:") DAMSCOPE_RETURN_IF_ERROR(db_.exec("PRAGMA journal_mode=WAL;"));
  }
  return okStatus();
}

Status TraceWriter::finish() {
  DAMSCOPE_RETURN_IF_ERROR(finishWithoutClosing());
  return db_.close();
}

Result<Database> TraceWriter::finishAndRelease() {
  DAMSCOPE_RETURN_IF_ERROR(finishWithoutClosing());
  return std::move(db_);
}

Status writeTraceFile(const TraceTables& tables, const std::string& path) {
  DAMSCOPE_ASSIGN_OR_RETURN(Database db, Database::open(path, Database::Mode::kReadWriteCreate));
  DAMSCOPE_ASSIGN_OR_RETURN(TraceWriter writer, TraceWriter::create(std::move(db)));
  DAMSCOPE_RETURN_IF_ERROR(writer.append(tables));
  return writer.finish();
}

Status saveTrace(const TraceTables& tables, const std::string& path, bool overwrite) {
  DAMSCOPE_ASSIGN_OR_RETURN(PendingFile file, PendingFile::create(path, overwrite));
  if (Status status = writeTraceFile(tables, file.tempPath()); !status.ok()) {
    return Error(file.userMessage(status.error().message()), status.error().code());
  }
  return file.commit();
}

}  // namespace damscope
