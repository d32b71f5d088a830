// Writing and reading whole tables declared with DAMSCOPE_DEFINE_TABLE
// (trace/tables.h, analyzer/result/analysis_tables.h) to and from their SQLite tables:
// the one implementation the trace writer, the trace reader and the analysis
// store share. Values go through trace/column_io.h.
#pragma once

#include <string>
#include <string_view>
#include <type_traits>

#include "trace/column_io.h"
#include "base/result.h"
#include "trace/sqlite_db.h"
#include "trace/tables.h"

namespace damscope::table_io {

// meta and stats are keyed by name (rows replace the stored row with the same
// key); every other table by row id, which doubles as the row's index.
template <typename Table>
constexpr std::string_view upsertKey() {
  if constexpr (std::is_same_v<Table, MetaTable>) return "key";
  if constexpr (std::is_same_v<Table, StatTable>) return "name";
  return {};
}

// Rows per INSERT statement. One statement carrying many rows runs the
// per-statement work of sqlite3_step once per batch; measured with
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

// Inserts every row of `table`; row i gets id first_id + i (keyed tables upsert).
template <typename Table>
Status insertRows(Database& db, const Table& table, int64_t first_id) {
  const size_t n = table.size();
  if (n == 0) return okStatus();
  // Keyed tables upsert, which SQLite allows only one row at a time.
  constexpr bool keyed = !upsertKey<Table>().empty();
  const size_t per_statement = keyed ? 1 : kRowsPerStatement;
  DAMSCOPE_ASSIGN_OR_RETURN(Statement batch, db.prepare(insertSql(table, per_statement)));
  DAMSCOPE_ASSIGN_OR_RETURN(Statement single, db.prepare(insertSql(table, 1)));
  size_t row = 0;
  auto write = [&](Statement& stmt, size_t rows) -> Status {
    int index = 1;
    for (size_t end = row + rows; row < end; ++row) {
      if constexpr (!keyed) stmt.bindInt(index++, first_id + static_cast<int64_t>(row));
      table.forEachColumn([&](const char*, const auto& column) {
        column_io::bindValue(stmt, index++, column[row]);
      });
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

// Appends every stored row of the table to `table`, in id order.
template <typename Table>
Status readRows(Database& db, Table& table) {
  std::string columns = "id";
  table.forEachColumn([&](const char* name, const auto&) { columns += std::string(",") + name; });
  DAMSCOPE_ASSIGN_OR_RETURN(Statement stmt, db.prepare("SELECT " + columns + " FROM " +
                                                       Table::kSqlName + " ORDER BY id"));
  int64_t expected_id = 0;
  while (true) {
    auto row = stmt.step();
    if (!row.ok()) {
      return Error(db.path() + ": reading " + Table::kSqlName + ": " + row.error().message());
    }
    if (!row.value()) break;
    // Row ids double as row indexes (references between tables use them), so
    // they must be dense. Keyed tables are exempt.
    if constexpr (upsertKey<Table>().empty()) {
      if (stmt.columnInt(0) != expected_id) {
        return Error(db.path() + ": table " + Table::kSqlName + " has a gap in its ids at " +
                     std::to_string(expected_id));
      }
    }
    ++expected_id;
    int column = 1;
    table.forEachColumn([&](const char*, auto& values) {
      values.emplace_back();
      column_io::readValue(stmt, column++, values.back());
    });
  }
  return okStatus();
}

}  // namespace damscope::table_io
