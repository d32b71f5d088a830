// What follows from a table declared with DAMSCOPE_DEFINE_DECLARED_TABLE
// (trace/tables.h) besides its column vectors: its CREATE statements and its
// column reference in Markdown. The analysis tables are created from these
// (analyzer/result/analysis_store.cc) and documented with them
// (docs/analysis.md), so the declaration is the one place a column is named,
// typed, constrained and explained.
//
// Every table gets `id INTEGER PRIMARY KEY` first (the row's index, the
// convention of both stores, docs/trace-format.md), then the declared columns
// in order, then its indexes.
#pragma once

#include <string>

#include "trace/tables.h"

namespace damscope {

template <typename Table>
std::string createTableSql() {
  std::string sql = std::string("CREATE TABLE ") + Table::kSqlName + " (\n  id INTEGER PRIMARY KEY";
  for (const ColumnDeclaration& c : Table::kColumns) {
    sql += std::string(",\n  ") + c.name + " " + c.sql_type;
    if (c.null == kNotNull) sql += " NOT NULL";
  }
  sql += "\n);\n";
  for (const IndexDeclaration& i : Table::indexes()) {
    sql +=
        std::string("CREATE INDEX ") + i.name + " ON " + Table::kSqlName + "(" + i.column + ");\n";
  }
  return sql;
}

// The CREATE statements of every table a table set visits (forEachTable), in
// its order.
template <typename Tables>
std::string createTablesSql(const Tables& tables) {
  std::string sql;
  tables.forEachTable([&](const auto& table) {
    if (!sql.empty()) sql += "\n";
    sql += createTableSql<std::decay_t<decltype(table)>>();
  });
  return sql;
}

// The table's section of a column reference: a `### name` heading, its doc,
// and a `| column | type | meaning |` table without `id`. Consecutive columns
// of the same type and doc share a row ("ts, dur | INTEGER | the interval").
template <typename Table>
std::string columnReferenceMarkdown() {
  std::string md = std::string("### ") + Table::kSqlName + "\n" + Table::kDoc +
                   "\n\n| column | type | meaning |\n|---|---|---|\n";
  const auto& columns = Table::kColumns;
  for (size_t i = 0; i < columns.size();) {
    size_t end = i + 1;
    while (end < columns.size() && std::string_view(columns[end].doc) == columns[i].doc &&
           std::string_view(columns[end].sql_type) == columns[i].sql_type) {
      ++end;
    }
    md += "| ";
    for (size_t c = i; c < end; ++c) md += std::string(c > i ? ", " : "") + columns[c].name;
    md += std::string(" | ") + columns[i].sql_type + " | " + columns[i].doc + " |\n";
    i = end;
  }
  return md;
}

template <typename Tables>
std::string columnReferenceMarkdown(const Tables& tables) {
  std::string md;
  tables.forEachTable([&](const auto& table) {
    if (!md.empty()) md += "\n";
    md += columnReferenceMarkdown<std::decay_t<decltype(table)>>();
  });
  return md;
}

}  // namespace damscope
