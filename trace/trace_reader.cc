// Loads a trace-store file into TraceTables: see trace_reader.h.
#include "trace/trace_reader.h"

#include "trace/table_io.h"

#include <map>
#include <string_view>

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

// The table a reference column names (docs/trace-format.md, Conventions), or
// nullptr for a column that holds no damscope row id.
const char* referencedTable(std::string_view column) {
  if (column == "thread_id") return "threads";
  if (column == "process_id") return "processes";
  if (column == "parent_id" || column == "range_id") return "ranges";
  if (column == "kernel_id") return "kernels";
  return nullptr;
}

// Every string id names a string and every row reference a row, or is NULL:
// analyses index with them, so a damaged or hand-made file must be refused
// here, with what is wrong, rather than crash them.
Status checkReferences(const std::string& path, const TraceTables& t) {
  std::map<std::string_view, size_t> rows;
  t.forEachTable([&](const auto& table) { rows[table.kSqlName] = table.size(); });
  const size_t strings = t.strings.size();
  Status status;
  t.forEachTable([&](const auto& table) {
    table.forEachColumn([&](const char* column, const auto& values) {
      using T = typename std::decay_t<decltype(values)>::value_type;
      if (!status.ok()) return;
      auto bad = [&](size_t row, int64_t value, const std::string& what) {
        status = Error(path + ": table " + table.kSqlName + " row " + std::to_string(row) + ": " +
                       column + " " + std::to_string(value) + " " + what);
      };
      if constexpr (std::is_same_v<T, StringId>) {
        for (size_t i = 0; i < values.size(); ++i) {
          const int32_t id = values[i].value;
          if (id < -1 || (id >= 0 && static_cast<size_t>(id) >= strings)) {
            return bad(
                i, id,
                "is not a string id (the strings table has " + std::to_string(strings) + ")");
          }
        }
      } else if constexpr (std::is_same_v<T, int64_t>) {
        const char* target = referencedTable(column);
        if (!target) return;
        const size_t size = rows[target];
        for (size_t i = 0; i < values.size(); ++i) {
          if (isNull(values[i])) continue;
          if (values[i] < 0 || static_cast<uint64_t>(values[i]) >= size) {
            return bad(i, values[i], std::string("names no row of ") + target);
          }
        }
      }
    });
  });
  return status;
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
    // lost_spans came after schema version 1 went out (trace/schema.sql): a
    // file written before has no spans, which is all it knows.
    const bool absent_spans = std::string_view(table.kSqlName) == LostSpanTable::kSqlName &&
                              !db.hasTable(LostSpanTable::kSqlName);
    if (status.ok() && !absent_spans) status = table_io::readRows(db, table);
    progress.report(static_cast<double>(++done) / count);
  });
  if (!status.ok()) return status.error();
  DAMSCOPE_RETURN_IF_ERROR(checkReferences(db.path(), tables));
  if (Status times = checkEventTimes(tables); !times.ok()) {
    return times.error().withContext(db.path());
  }
  return tables;
}

Result<TraceTables> readTrace(const std::string& path, const Progress& progress) {
  DAMSCOPE_ASSIGN_OR_RETURN(Database db, Database::open(path, Database::Mode::kReadOnly));
  return readTrace(db, progress);
}

}  // namespace damscope
