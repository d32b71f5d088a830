// The schema agreement checker: does a schema file (trace/schema.sql,
// the analysis tables' generated SQL) or a column reference (docs/trace-format.md,
// docs/analysis.md) say what the X-macro table declarations say? The same
// tables, `id INTEGER PRIMARY KEY` then the declared columns in their order,
// each with the SQL type trace/column_io.h stores its C++ type as.
//
// The declarations are read through the tables' own visitors (forEachTable,
// forEachColumn), so a table or column added to trace/tables.h or
// analyzer/result/analysis_tables.h is checked without editing any test. The checks
// return every disagreement as one message naming the file, table and column,
// rather than stopping at the first, so that the agreement test lists them all
// and the checker's own tests can feed it deliberately wrong inputs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "trace/string_pool.h"

namespace damscope::schema_check {

template <typename T>
inline constexpr bool kUnknownColumnType = false;

// The SQL type a C++ column type is stored as, mirroring the bindValue
// overloads of trace/column_io.h (a test binds one value of each through
// column_io and checks SQLite's typeof). A column of a type not listed here
// does not compile: say here how column_io.h stores it first.
template <typename T>
struct StoredAs {
  static_assert(kUnknownColumnType<T>,
                "schema_check::StoredAs: add the SQL type trace/column_io.h stores this type as");
};
template <>
struct StoredAs<int64_t> {
  static constexpr std::string_view kCpp = "int64_t", kSql = "INTEGER";
};
template <>
struct StoredAs<int32_t> {
  static constexpr std::string_view kCpp = "int32_t", kSql = "INTEGER";
};
template <>
struct StoredAs<double> {
  static constexpr std::string_view kCpp = "double", kSql = "REAL";
};
template <>
struct StoredAs<StringId> {
  static constexpr std::string_view kCpp = "StringId", kSql = "INTEGER";
};
template <>
struct StoredAs<std::string> {
  static constexpr std::string_view kCpp = "std::string", kSql = "TEXT";
};
// Enums are stored as their text names (trace/enums.h).
template <typename E>
requires std::is_enum_v<E>
struct StoredAs<E> {
  static constexpr std::string_view kCpp = "enum", kSql = "TEXT";
};

// One declared column and how it is stored.
struct Column {
  std::string name;
  std::string cpp_type;    // for messages: int64_t, double, StringId, ...
  std::string sql_type;    // INTEGER, REAL or TEXT
  bool string_id = false;  // holds a strings.id
};

// One declared table: its SQL name and its columns after `id`, in order.
struct Table {
  std::string name;
  std::vector<Column> columns;
};

// The declaration of every table a TraceTables or AnalysisTables visits.
template <typename Tables>
std::vector<Table> declaredTables(const Tables& tables) {
  std::vector<Table> out;
  tables.forEachTable([&](const auto& table) {
    Table& t = out.emplace_back();
    t.name = std::decay_t<decltype(table)>::kSqlName;
    table.forEachColumn([&](const char* name, const auto& column) {
      using T = typename std::decay_t<decltype(column)>::value_type;
      t.columns.push_back({name, std::string(StoredAs<T>::kCpp), std::string(StoredAs<T>::kSql),
                           std::is_same_v<T, StringId>});
    });
  });
  return out;
}

// The type a column reference states for a column: its SQL type, written
// `INTEGER (string id)` for a column that holds a strings.id (the convention
// docs/trace-format.md explains).
std::string documentedType(const Column& column);

// Disagreements between the SQL text `sql` (named `file` in messages) and
// `declared`: SQL that does not run; a declared table it does not create; a
// table whose first column is not `id INTEGER PRIMARY KEY`; a column missing,
// undeclared, out of order or of another type than its C++ type is stored as;
// a table it creates that is not declared. Empty when they agree.
std::vector<std::string> checkSql(std::string_view file, std::string_view sql,
                                  const std::vector<Table>& declared);

// Disagreements between the markdown `markdown` (named `file` in messages) and
// `declared`. Each declared table must have a `### <table>` section whose
// first table with a `column` header is `| column | type | meaning |`; a row
// names one column or several separated by commas (sharing the row's type),
// without `id`, which every table has. Reports a missing section or type
// column, a column missing, undeclared, listed twice, out of order or of
// another type than documentedType, and a column table under a `###` heading
// that names no declared table. Empty when they agree.
std::vector<std::string> checkDocs(std::string_view file, std::string_view markdown,
                                   const std::vector<Table>& declared);

}  // namespace damscope::schema_check
