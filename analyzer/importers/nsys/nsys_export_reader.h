// Reading the tables of an Nsight Systems SQLite export; internal to the nsys
// importer (the entry point is nsys_importer.h). The export schema changes
// between nsys releases (2.9 in nsys 2022.2, 3.x later), so columns are
// selected by name and a table or column an export lacks reads as empty or
// NULL. Reading reports progress, as rows read against the rows of the event
// tables, and stops when cancelled (base/progress.h).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/progress.h"
#include "base/result.h"
#include "trace/sqlite_db.h"
#include "trace/tables.h"

namespace damscope::nsys {

// Selects named columns of an export table: a column this export lacks reads
// as NULL.
class ColumnSelect {
 public:
  // std::nullopt when the table does not exist in this export.
  static Result<std::optional<ColumnSelect>> open(Database& db, const std::string& table,
                                                  std::initializer_list<const char*> wanted);

  Result<bool> next() {
    auto row = stmt_.step();
    if (!row.ok()) return Error("reading " + table_ + ": " + row.error().message());
    return row.value();
  }
  bool has(size_t i) const { return positions_[i] >= 0 && !stmt_.isNull(positions_[i]); }
  int64_t integer(size_t i) const { return has(i) ? stmt_.columnInt(positions_[i]) : kNullInt; }
  double real(size_t i) const {
    return has(i) ? stmt_.columnReal(positions_[i]) : nullValue<double>();
  }
  std::string_view text(size_t i) const {
    return has(i) ? stmt_.columnText(positions_[i]) : std::string_view();
  }

 private:
  ColumnSelect(Statement stmt, std::vector<int> positions, std::string table)
      : stmt_(std::move(stmt)), positions_(std::move(positions)), table_(std::move(table)) {}

  Statement stmt_;
  std::vector<int> positions_;
  std::string table_;
};

// Reads rows of an export's tables, counting them for progress.
class ExportReader {
 public:
  // `db` and `progress` must outlive the reader.
  ExportReader(Database& db, const Progress& progress) : db_(db), progress_(progress) {}

  // Counts the rows of the tables that hold nearly all of an export (the
  // whole of the progress) and reports 0.
  void start();

  // Calls on_row(select) for each row of `table`; nothing if the table is
  // absent. Every kReportRows rows, reports progress and returns
  // cancelledError() if the import is cancelled.
  template <typename OnRow>
  Status forEachRow(const std::string& table, std::initializer_list<const char*> columns,
                    OnRow&& on_row) {
    DAMSCOPE_ASSIGN_OR_RETURN(std::optional<ColumnSelect> select,
                              ColumnSelect::open(db_, table, columns));
    if (!select) return okStatus();
    while (true) {
      DAMSCOPE_ASSIGN_OR_RETURN(bool more, select->next());
      if (!more) return okStatus();
      on_row(*select);
      if ((++rows_read_ & (kReportRows - 1)) == 0) DAMSCOPE_RETURN_IF_ERROR(reportRows());
    }
  }

 private:
  Status reportRows();

  // A power of two, so that the per-row check is a mask.
  static constexpr int64_t kReportRows = 1 << 16;

  Database& db_;
  const Progress& progress_;
  int64_t expected_rows_ = 0;
  int64_t rows_read_ = 0;
};

}  // namespace damscope::nsys
