// Writes TraceTables into SQLite: see trace_writer.h.
#include "trace/trace_writer.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <type_traits>

#include "trace/column_io.h"
#include "trace/schema_sql.h"

namespace damscope {
namespace {

constexpr std::string_view kIndexMarker = "-- @indexes";

using column_io::bindValue;

// meta and stats are keyed by name; every other table by row id.
template <typename Table>
constexpr std::string_view upsertKey() {
  if constexpr (std::is_same_v<Table, MetaTable>) return "key";
  if constexpr (std::is_same_v<Table, StatTable>) return "name";
  return {};
}

// Rows per INSERT statement in bulk writes. One statement carrying many rows
// runs the per-statement work of sqlite3_step once per batch; measured with
// bench/import_bench (BM_WriteSynthetic), 32 rows per statement wrote
// noticeably faster than 1 and no slower than larger batches, and stays far
// below SQLite's limit of 32766 bound parameters.
constexpr size_t kRowsPerStatement = 32;

template <typename Table>
std::string insertSql(const Table& table, size_t rows) {
  constexpr std::string_view key = upsertKey<Table>();
  std::string columns = key.empty() ? "id" : "";
  std::string values = key.empty() ? "?" : "";
  std::string updates;
  table.forEachColumn([&](const char* name, const auto&) {
    if (!columns.empty()) columns += ",", values += ",";
    columns += name;
    values += "?";
    if (!key.empty() && name != key) {
      if (!updates.empty()) updates += ",";
      updates += std::string(name) + "=excluded." + name;
    }
  });
  std::string sql = std::string("INSERT INTO ") + Table::kSqlName + "(" + columns + ") VALUES";
  for (size_t i = 0; i < rows; ++i) sql += (i ? ",(" : "(") + values + ")";
  if (!key.empty()) sql += " ON CONFLICT(" + std::string(key) + ") DO UPDATE SET " + updates;
  return sql;
}

template <typename Table>
Status insertRows(Database& db, const Table& table, int64_t first_id) {
  const size_t n = table.size();
  if (n == 0) return okStatus();
  // Keyed tables (meta, stats) upsert, which SQLite allows only one row at a time.
  constexpr bool keyed = !upsertKey<Table>().empty();
  const size_t per_statement = keyed ? 1 : kRowsPerStatement;
  DAMSCOPE_ASSIGN_OR_RETURN(Statement batch, db.prepare(insertSql(table, per_statement)));
  DAMSCOPE_ASSIGN_OR_RETURN(Statement single, db.prepare(insertSql(table, 1)));
  size_t row = 0;
  auto write = [&](Statement& stmt, size_t rows) -> Status {
    int index = 1;
    for (size_t end = row + rows; row < end; ++row) {
      if constexpr (!keyed) stmt.bindInt(index++, first_id + static_cast<int64_t>(row));
      table.forEachColumn(
          [&](const char*, const auto& column) { bindValue(stmt, index++, column[row]); });
    }
    if (auto status = stmt.run(); !status.ok()) {
      return Error(db.path() + ": cannot write table " + Table::kSqlName + ": " +
                   status.error().message());
    }
    return okStatus();
  };
  while (n - row >= per_statement) DAMSCOPE_RETURN_IF_ERROR(write(batch, per_statement));
  while (row < n) DAMSCOPE_RETURN_IF_ERROR(write(single, 1));
  return okStatus();
}

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
  DAMSCOPE_RETURN_IF_ERROR(db.exec(bulk ? "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
                                        : "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"));
  DAMSCOPE_RETURN_IF_ERROR(db.exec("PRAGMA cache_size=-65536;"));  // 64 MiB page cache
  DAMSCOPE_RETURN_IF_ERROR(db.exec("BEGIN;"));
  DAMSCOPE_RETURN_IF_ERROR(db.exec(schemaTablesSql()));
  if (!bulk && options.create_indexes) DAMSCOPE_RETURN_IF_ERROR(db.exec(schemaIndexesSql()));
  DAMSCOPE_RETURN_IF_ERROR(db.exec("COMMIT;"));
  TraceWriter writer(std::move(db), options);
  TraceTables identity;
  identity.setMeta("format", kTraceStoreFormat);
  identity.setMeta("schema_version", std::to_string(kSchemaVersion));
  DAMSCOPE_RETURN_IF_ERROR(writer.db_.exec("BEGIN;"));
  DAMSCOPE_RETURN_IF_ERROR(insertRows(writer.db_, identity.meta, 0));
  DAMSCOPE_RETURN_IF_ERROR(writer.db_.exec("COMMIT;"));
  TraceTables empty;
  empty.forEachTable([&](const auto&) { writer.rows_written_.push_back(0); });
  return writer;
}

Status TraceWriter::append(const TraceTables& batch) { return append(batch, {}); }

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

Status saveTrace(const TraceTables& tables, const std::string& path, bool overwrite) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!overwrite && fs::exists(path, ec)) {
    return Error(path + ": output exists (use --force to overwrite)");
  }
  if (fs::is_directory(path, ec)) return Error(path + ": output is a directory");
  const std::string temp = path + ".tmp-" + std::to_string(::getpid());
  auto remove_temp = [&] {
    fs::remove(temp, ec);
    fs::remove(temp + "-wal", ec);
    fs::remove(temp + "-shm", ec);
  };
  remove_temp();

  auto write = [&]() -> Status {
    DAMSCOPE_ASSIGN_OR_RETURN(Database db, Database::open(temp, Database::Mode::kReadWriteCreate));
    DAMSCOPE_ASSIGN_OR_RETURN(TraceWriter writer, TraceWriter::create(std::move(db)));
    DAMSCOPE_RETURN_IF_ERROR(writer.append(tables));
    return writer.finish();
  };
  if (Status status = write(); !status.ok()) {
    remove_temp();
    // Report the user's path, not the temporary one.
    std::string message = status.error().message();
    if (message.rfind(temp, 0) == 0) message = path + message.substr(temp.size());
    return Error(message);
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    remove_temp();
    return Error(path + ": cannot move the finished trace into place: " + reason);
  }
  return okStatus();
}

}  // namespace damscope
