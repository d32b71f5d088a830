// Reading the tables of an Nsight Systems export: see nsys_export_reader.h.
#include "analyzer/importers/nsys/nsys_export_reader.h"

namespace damscope::nsys {

Result<std::optional<ColumnSelect>> ColumnSelect::open(Database& db, const std::string& table,
                                                       std::initializer_list<const char*> wanted) {
  const std::vector<std::string> present = db.columnNames(table);
  if (present.empty()) return std::optional<ColumnSelect>();
  std::vector<int> positions;
  std::string columns;
  int next = 0;
  for (const char* name : wanted) {
    bool found = false;
    for (const auto& p : present) found = found || p == name;
    if (!found) {
      positions.push_back(-1);
      continue;
    }
    if (!columns.empty()) columns += ',';
    columns += std::string("\"") + name + "\"";
    positions.push_back(next++);
  }
  if (columns.empty()) columns = "NULL";
  DAMSCOPE_ASSIGN_OR_RETURN(Statement stmt,
                            db.prepare("SELECT " + columns + " FROM \"" + table + "\""));
  return std::optional<ColumnSelect>(ColumnSelect(std::move(stmt), std::move(positions), table));
}

// max(rowid) is a B-tree lookup where count(*) would read the whole table, and
// it is the row count of a table that was only ever appended to, as export
// tables are. It only weighs progress, so an estimate would do.
void ExportReader::start() {
  expected_rows_ = 0;
  for (const char* table : {"StringIds", "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                            "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_RUNTIME",
                            "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "NVTX_EVENTS"}) {
    if (!db_.hasTable(table)) continue;
    auto stmt = db_.prepare(std::string("SELECT max(rowid) FROM \"") + table + "\"");
    if (!stmt.ok()) continue;  // a WITHOUT ROWID table: left out of the estimate
    auto row = stmt->step();
    if (row.ok() && row.value() && !stmt->isNull(0)) expected_rows_ += stmt->columnInt(0);
  }
  progress_.report(0);
}

Status ExportReader::reportRows() {
  if (expected_rows_ > 0) {
    progress_.report(static_cast<double>(rows_read_) / static_cast<double>(expected_rows_));
  }
  return progress_.checkCancelled();
}

}  // namespace damscope::nsys
