// Stores and loads the analysis tables: see analysis_store.h.
#include "analyzer/result/analysis_store.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <optional>

#include "trace/table_io.h"
#include "trace/table_schema.h"
#include "trace/trace_reader.h"

namespace damscope {
namespace {

constexpr const char* kVersionKey = "analysis_schema_version";
constexpr const char* kOptionsKey = "analysis_options";

bool named(const std::vector<std::string_view>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

Status setMeta(Database& db, const char* key, const std::string& value) {
  DAMSCOPE_ASSIGN_OR_RETURN(Statement meta,
                            db.prepare("INSERT INTO meta(key,value) VALUES(?,?) "
                                       "ON CONFLICT(key) DO UPDATE SET value=excluded.value"));
  meta.bindText(1, key);
  meta.bindText(2, value);
  return meta.run();
}

// A meta value; empty when the key (or the meta table) is missing.
std::optional<std::string> metaValue(Database& db, const char* key) {
  if (!db.hasTable("meta")) return std::nullopt;
  auto stmt = db.prepare("SELECT value FROM meta WHERE key=?");
  if (!stmt.ok()) return std::nullopt;
  stmt->bindText(1, key);
  auto row = stmt->step();
  if (!row.ok() || !row.value()) return std::nullopt;
  return std::string(stmt->columnText(0));
}

// What tells a reader the file holds results, and computed with what options.
Status markResults(Database& db, const std::string& options_key) {
  DAMSCOPE_RETURN_IF_ERROR(setMeta(db, kOptionsKey, options_key));
  return setMeta(db, kVersionKey, std::to_string(kAnalysisSchemaVersion));
}

Status writeAll(Database& db, const AnalysisTables& tables, const std::string& options_key) {
  AnalysisTables names;
  Status status;
  names.forEachTable([&](const auto& table) {
    using Table = std::decay_t<decltype(table)>;
    if (status.ok()) status = db.exec(std::string("DROP TABLE IF EXISTS ") + Table::kSqlName);
  });
  DAMSCOPE_RETURN_IF_ERROR(status);
  DAMSCOPE_RETURN_IF_ERROR(db.exec(analysisSchemaSql()));
  tables.forEachTable([&](const auto& table) {
    if (status.ok()) status = table_io::insertRows(db, table, 0);
  });
  DAMSCOPE_RETURN_IF_ERROR(status);
  return markResults(db, options_key);
}

Status replaceTables(Database& db, const AnalysisTables& tables,
                     const std::vector<std::string_view>& tables_to_replace) {
  Status status;
  tables.forEachTable([&](const auto& table) {
    using Table = std::decay_t<decltype(table)>;
    if (!status.ok() || !named(tables_to_replace, Table::kSqlName)) return;
    status = db.exec(std::string("DELETE FROM ") + Table::kSqlName);
    if (status.ok()) status = table_io::insertRows(db, table, 0);
  });
  return status;
}

// Runs `write` in one IMMEDIATE transaction: the write lock up front, so a
// concurrent writer makes this fail before anything changes rather than
// halfway; any failure rolls back.
//
// In WAL mode (what the collector and the importers leave), synchronous=
// NORMAL: a commit stays atomic and the file consistent, only the last commit
// can be lost on a power cut (sqlite.org/pragma.html#pragma_synchronous);
// FULL's fsync per commit made storing the comparison into a thousand ranks'
// files take seconds. Other journal modes keep SQLite's default.
template <typename Write>
Status inTransaction(Database& db, Write&& write) {
  if (auto mode = db.prepare("PRAGMA journal_mode"); mode.ok()) {
    if (auto row = mode->step(); row.ok() && row.value() && mode->columnText(0) == "wal") {
      DAMSCOPE_RETURN_IF_ERROR(db.exec("PRAGMA synchronous=NORMAL;"));
    }
  }
  DAMSCOPE_RETURN_IF_ERROR(db.exec("BEGIN IMMEDIATE;"));
  if (Status status = write(); !status.ok()) {
    (void)db.exec("ROLLBACK;");
    return status;
  }
  return db.exec("COMMIT;");
}

// SQLite's progress handler: a non-zero return interrupts the statement.
int pastDeadline(void* deadline) {
  return std::chrono::steady_clock::now() >
                 *static_cast<const std::chrono::steady_clock::time_point*>(deadline)
             ? 1
             : 0;
}

}  // namespace

Status checkPages(Database& db, std::chrono::microseconds budget) {
  const auto deadline = std::chrono::steady_clock::now() + budget;
  // Every 10,000 virtual machine steps: some microseconds apart.
  sqlite3_progress_handler(db.handle(), 10000, pastDeadline,
                           const_cast<std::chrono::steady_clock::time_point*>(&deadline));
  std::string problem;
  bool interrupted = false;
  if (auto check = db.prepare("PRAGMA quick_check(1)"); check.ok()) {
    auto row = check->step();
    if (row.ok() && *row) {
      if (check->columnText(0) != "ok") problem = std::string(check->columnText(0));
    } else if (!row.ok()) {
      interrupted = sqlite3_errcode(db.handle()) == SQLITE_INTERRUPT;
      if (!interrupted) problem = row.error().message();
    }
  } else {
    problem = check.error().message();
  }
  sqlite3_progress_handler(db.handle(), 0, nullptr, nullptr);
  if (problem.empty()) return okStatus();
  std::replace(problem.begin(), problem.end(), '\n', ' ');
  return Error(db.path() + ": the file is damaged (SQLite's quick_check: " + problem + ")");
}

std::string analysisSchemaSql() {
  return createTablesSql(AnalysisTables{});
}

Status storeAnalysis(Database& db, const AnalysisTables& tables, const std::string& options_key) {
  DAMSCOPE_RETURN_IF_ERROR(checkTraceStore(db));
  return inTransaction(db, [&] { return writeAll(db, tables, options_key); });
}

Status storeAnalysis(const std::string& path, const AnalysisTables& tables,
                     const std::string& options_key) {
  DAMSCOPE_ASSIGN_OR_RETURN(Database db, Database::open(path, Database::Mode::kReadWriteCreate));
  DAMSCOPE_RETURN_IF_ERROR(storeAnalysis(db, tables, options_key));
  return db.close();
}

Status storeAnalysisInNewFile(const std::string& path, const AnalysisTables& tables,
                              const std::string& options_key) {
  DAMSCOPE_ASSIGN_OR_RETURN(Database db, Database::open(path, Database::Mode::kReadWriteCreate));
  DAMSCOPE_RETURN_IF_ERROR(checkTraceStore(db));
  DAMSCOPE_RETURN_IF_ERROR(db.exec("PRAGMA synchronous=OFF; PRAGMA journal_mode=OFF; BEGIN;"));
  DAMSCOPE_RETURN_IF_ERROR(writeAll(db, tables, options_key));
  // Back to WAL, as every finished trace store is; still without an fsync.
  DAMSCOPE_RETURN_IF_ERROR(db.exec("COMMIT; PRAGMA journal_mode=WAL;"));
  return db.close();
}

Result<bool> storeAnalysisTables(const std::string& path, const AnalysisTables& tables,
                                 const std::vector<std::string_view>& tables_to_replace,
                                 const std::string& expected_options_key) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return Error(path + ": no such file");
  DAMSCOPE_ASSIGN_OR_RETURN(Database db, Database::open(path, Database::Mode::kReadWriteCreate));
  DAMSCOPE_RETURN_IF_ERROR(checkTraceStore(db));
  if (!hasAnalysis(db)) return Error(path + ": holds no analysis results of this layout to update");
  // Compare and set: the check is inside the IMMEDIATE transaction, which
  // holds the write lock, so no other analysis can store between it and the
  // write (issue 32: a run comparing ranks overwrote the newer results a
  // concurrent `--window all` had stored with its findings of `hta`).
  bool current = false;
  DAMSCOPE_RETURN_IF_ERROR(inTransaction(db, [&]() -> Status {
    current = hasAnalysis(db) && storedAnalysisOptions(db) == expected_options_key;
    if (!current) return okStatus();
    for (std::string_view name : tables_to_replace) {
      if (!db.hasTable(std::string(name))) {
        return Error(path + ": stored analysis is corrupt: table " + std::string(name) +
                     " is missing");
      }
    }
    return replaceTables(db, tables, tables_to_replace);
  }));
  DAMSCOPE_RETURN_IF_ERROR(db.close());
  return current;
}

std::string storedAnalysisOptions(Database& db) {
  return metaValue(db, kOptionsKey).value_or(std::string());
}

bool hasAnalysis(Database& db) {
  return metaValue(db, kVersionKey) == std::to_string(kAnalysisSchemaVersion);
}

Result<AnalysisTables> readAnalysis(Database& db, const std::vector<std::string_view>& skip) {
  DAMSCOPE_RETURN_IF_ERROR(checkTraceStore(db));
  if (!hasAnalysis(db)) {
    if (const std::optional<std::string> version = metaValue(db, kVersionKey)) {
      return Error(db.path() + ": analysis results of layout version " + *version +
                   "; this damscope reads version " + std::to_string(kAnalysisSchemaVersion) +
                   " (analyse the trace again)");
    }
    return Error(db.path() + ": holds no analysis results (analyse the trace first)");
  }
  AnalysisTables tables;
  Status status;
  tables.forEachTable([&](auto& table) {
    using Table = std::decay_t<decltype(table)>;
    if (!status.ok()) return;
    // Even a table this reader skips: results with one missing are damaged,
    // and a later store into it would fail halfway through a run.
    if (!db.hasTable(Table::kSqlName)) {
      status = Error(db.path() + ": stored analysis is corrupt: table " + Table::kSqlName +
                     " is missing");
    } else if (!named(skip, Table::kSqlName)) {
      status = table_io::readRows(db, table);
    }
  });
  if (!status.ok()) return status.error();
  return tables;
}

Result<AnalysisTables> readAnalysis(const std::string& path,
                                    const std::vector<std::string_view>& skip) {
  DAMSCOPE_ASSIGN_OR_RETURN(Database db, Database::open(path, Database::Mode::kReadOnly));
  return readAnalysis(db, skip);
}

}  // namespace damscope
