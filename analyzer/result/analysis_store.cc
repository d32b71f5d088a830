// Stores and loads the analysis tables: see analysis_store.h.
#include "analyzer/result/analysis_store.h"

#include <algorithm>
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

}  // namespace

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

Status storeAnalysisTables(const std::string& path, const AnalysisTables& tables,
                           const std::vector<std::string_view>& tables_to_replace) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return Error(path + ": no such file");
  DAMSCOPE_ASSIGN_OR_RETURN(Database db, Database::open(path, Database::Mode::kReadWriteCreate));
  DAMSCOPE_RETURN_IF_ERROR(checkTraceStore(db));
  if (!hasAnalysis(db)) return Error(path + ": holds no analysis results of this layout to update");
  DAMSCOPE_RETURN_IF_ERROR(
      inTransaction(db, [&] { return replaceTables(db, tables, tables_to_replace); }));
  return db.close();
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
    if (status.ok() && !named(skip, Table::kSqlName)) status = table_io::readRows(db, table);
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
