// Fills the empty tables of a freshly created SQLite file by writing their
// b-tree pages directly, in SQLite's documented file format
// (sqlite.org/fileformat2.html), instead of inserting row by row.
//
// Why: a first analysis stores ~180k event rows, ~45k gaps and eleven
// indexes. Through SQLite that was about 230 ms of CPU, the longest part of
// the command (perf: SQLite 54 % of all CPU samples), because every row and
// index entry goes through the VDBE and a b-tree descent. The rows are
// already in memory, in id order, and every index key is an integer, so the
// pages can be laid out in one pass as the rows come: storing v100_rank1's
// events (bench/import_bench, BM_WriteStore) went from 155 ms to 52-72 ms,
// its results from about 80 ms to 21-43 ms.
//
// SQLite keeps everything it is good at: it creates the file, the schema
// (sqlite_schema, root pages, the UNIQUE indexes of keyed tables) and writes
// any keyed table; PageWriter only fills tables that SQLite created and left
// empty, together with their indexes, appending the new pages after the
// file's end and writing the new page count into the header. The result
// passes `PRAGMA integrity_check` and reads back row for row like a file
// SQLite wrote (trace/page_writer_test).
//
// What it refuses, with an error naming the table or index: a file in WAL
// or auto-vacuum mode or not UTF-8, a table that is not empty, a column whose SQL type would
// make SQLite convert the value (a number into a TEXT column, text or a real
// into an INTEGER one), a NULL in a NOT NULL column, and an index that is
// UNIQUE, partial, on an expression, on several columns or on anything but an
// integer column. None of the damscope schemas has them; such a table is
// written by SQLite instead.
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "trace/enums.h"
#include "base/result.h"
#include "trace/sqlite_record.h"
#include "trace/string_pool.h"
#include "trace/tables.h"
#include "base/utf8.h"

namespace damscope {

// How a value is kept, for matching C++ columns to SQL types.
enum class ValueKind { kInteger, kReal, kText };

// A column's integer values by row (nullopt: NULL), as an index keys them.
using IntegerColumn = std::vector<std::optional<int64_t>>;

class PageWriter {
 public:
  // Reads the file's header and schema. The file must be closed by every
  // SQLite connection until finish().
  static Result<PageWriter> open(const std::string& path);
  PageWriter(PageWriter&&) noexcept;
  PageWriter& operator=(PageWriter&&) noexcept;
  ~PageWriter();

  // Writes every row of `table` (ids 0..n-1) and its indexes. The table must
  // exist in the file and be empty.
  template <typename Table>
  Status fill(const Table& table);
  // The strings table (id, value) from a pool.
  Status fillStrings(const StringPool& pool);

  // Writes the tables' root pages and the header's page count. Until then
  // SQLite reads the file as it was: the pages written so far lie past the
  // end the header gives.
  Status finish();

 private:
  struct Impl;
  explicit PageWriter(std::unique_ptr<Impl> impl);

  // The columns after `id` of `table`, checked against the C++ columns'
  // names and kinds (an error says what does not match): whether each is
  // NOT NULL.
  Result<std::vector<uint8_t>> checkColumns(std::string_view table,
                                            const std::vector<std::string_view>& names,
                                            const std::vector<ValueKind>& kinds);
  // The integer column each of `table`'s indexes keys on (checked to be one
  // of `names`, at the same position).
  Result<std::vector<size_t>> indexedColumns(std::string_view table,
                                             const std::vector<std::string_view>& names,
                                             const std::vector<ValueKind>& kinds);
  // The rows of `table`, one after another (ids 0, 1, ...), laid out into
  // leaf pages as they come; then its indexes.
  Status beginRows(std::string_view table);
  void addRow(const RecordEncoder& record);
  Status endRows(const std::vector<IntegerColumn>& index_keys);

  std::unique_ptr<Impl> impl_;
};

namespace page_values {

// The SQL value of each column type, as column_io::bindValue binds it (NULL
// sentinels as NULL, NaN as NULL, "" as NULL, text repaired to UTF-8, enums
// as their names, string ids as integers).
inline void encode(RecordEncoder& r, int64_t v) {
  isNull(v) ? r.addNull() : r.addInt(v);
}
inline void encode(RecordEncoder& r, int32_t v) {
  isNull(v) ? r.addNull() : r.addInt(v);
}
// SQLite keeps a REAL column's whole numbers as integers on disk
// (sqlite.org/datatype3.html §3.2), which turns -0.0 into 0: so does this.
inline void encode(RecordEncoder& r, double v) {
  std::isfinite(v) ? r.addReal(v == 0 ? 0.0 : v) : r.addNull();
}
inline void encode(RecordEncoder& r, StringId v) {
  v.valid() ? r.addInt(v.value) : r.addNull();
}
inline void encode(RecordEncoder& r, const std::string& v) {
  if (v.empty()) {
    r.addNull();
  } else if (isValidUtf8(v)) {
    r.addText(v);
  } else {
    r.addText(toValidUtf8(v));
  }
}
template <typename E>
requires std::is_enum_v<E>
void encode(RecordEncoder& r, E v) {
  r.addText(toText(v));
}

template <typename T>
constexpr ValueKind kindOf() {
  if constexpr (std::is_same_v<T, double>) return ValueKind::kReal;
  if constexpr (std::is_same_v<T, std::string> || std::is_enum_v<T>) return ValueKind::kText;
  return ValueKind::kInteger;
}

template <typename T>
std::optional<int64_t> integerOf(const T& v) {
  if constexpr (std::is_same_v<T, StringId>) {
    return v.valid() ? std::optional<int64_t>(v.value) : std::nullopt;
  } else if constexpr (std::is_integral_v<T>) {
    return isNull(v) ? std::nullopt : std::optional<int64_t>(v);
  } else {
    return std::nullopt;
  }
}

}  // namespace page_values

template <typename Table>
Status PageWriter::fill(const Table& table) {
  std::vector<std::string_view> names;
  std::vector<ValueKind> kinds;
  table.forEachColumn([&](const char* name, const auto& column) {
    names.push_back(name);
    kinds.push_back(page_values::kindOf<typename std::decay_t<decltype(column)>::value_type>());
  });
  DAMSCOPE_ASSIGN_OR_RETURN(std::vector<uint8_t> not_null,
                            checkColumns(Table::kSqlName, names, kinds));
  DAMSCOPE_ASSIGN_OR_RETURN(std::vector<size_t> indexed,
                            indexedColumns(Table::kSqlName, names, kinds));
  const size_t n = table.size();
  DAMSCOPE_RETURN_IF_ERROR(beginRows(Table::kSqlName));
  RecordEncoder record;
  for (size_t i = 0; i < n; ++i) {
    record.clear();
    record.addNull();  // id, the rowid alias, is stored as NULL in the record
    size_t c = 0;
    std::string_view null_in;
    table.forEachColumn([&](const char* name, const auto& column) {
      page_values::encode(record, column[i]);
      if (not_null[c++] && record.lastIsNull()) null_in = name;
    });
    if (!null_in.empty()) {
      return Error(std::string(Table::kSqlName) + "." + std::string(null_in) + ": NULL in row " +
                   std::to_string(i) + " of a NOT NULL column");
    }
    addRow(record);
  }
  std::vector<IntegerColumn> keys(indexed.size());
  for (size_t k = 0; k < indexed.size(); ++k) {
    keys[k].reserve(n);
    size_t position = 0;
    table.forEachColumn([&](const char*, const auto& column) {
      if (position++ != indexed[k]) return;
      for (size_t i = 0; i < n; ++i) keys[k].push_back(page_values::integerOf(column[i]));
    });
  }
  return endRows(keys);
}

}  // namespace damscope
