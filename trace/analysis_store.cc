// Stores and loads the analysis tables: see analysis_store.h.
#include "trace/analysis_store.h"

#include "trace/analysis_schema_sql.h"
#include "trace/table_io.h"
#include "trace/trace_reader.h"

namespace damscope {
namespace {

constexpr const char* kVersionKey = "analysis_schema_version";

Status writeAll(Database& db, const AnalysisTables& tables) {
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
  DAMSCOPE_ASSIGN_OR_RETURN(Statement meta,
                            db.prepare("INSERT INTO meta(key,value) VALUES(?,?) "
                                       "ON CONFLICT(key) DO UPDATE SET value=excluded.value"));
  const std::string version = std::to_string(kAnalysisSchemaVersion);
  meta.bindText(1, kVersionKey);
  meta.bindText(2, version);
  return meta.run();
}

}  // namespace

std::string analysisSchemaSql() {
  return kAnalysisSchemaSql;
}

Status storeAnalysis(Database& db, const AnalysisTables& tables) {
  DAMSCOPE_RETURN_IF_ERROR(checkTraceStore(db));
  // IMMEDIATE takes the write lock up front, so a concurrent writer makes
  // this fail before anything changes rather than halfway.
  DAMSCOPE_RETURN_IF_ERROR(db.exec("BEGIN IMMEDIATE;"));
  if (Status status = writeAll(db, tables); !status.ok()) {
    (void)db.exec("ROLLBACK;");
    return status;
  }
  return db.exec("COMMIT;");
}

Status storeAnalysis(const std::string& path, const AnalysisTables& tables) {
  DAMSCOPE_ASSIGN_OR_RETURN(Database db, Database::open(path, Database::Mode::kReadWriteCreate));
  DAMSCOPE_RETURN_IF_ERROR(storeAnalysis(db, tables));
  return db.close();
}

bool hasAnalysis(Database& db) {
  if (!db.hasTable("meta")) return false;
  auto stmt = db.prepare(std::string("SELECT value FROM meta WHERE key='") + kVersionKey + "'");
  if (!stmt.ok()) return false;
  auto row = stmt->step();
  return row.ok() && row.value() && stmt->columnText(0) == std::to_string(kAnalysisSchemaVersion);
}

Result<AnalysisTables> readAnalysis(Database& db) {
  DAMSCOPE_RETURN_IF_ERROR(checkTraceStore(db));
  if (!hasAnalysis(db)) {
    auto stmt = db.prepare(std::string("SELECT value FROM meta WHERE key='") + kVersionKey + "'");
    auto row = stmt.ok() ? stmt->step() : Result<bool>(false);
    if (row.ok() && row.value()) {
      return Error(db.path() + ": analysis results of layout version " +
                   std::string(stmt->columnText(0)) + "; this damscope reads version " +
                   std::to_string(kAnalysisSchemaVersion) + " (analyse the trace again)");
    }
    return Error(db.path() + ": holds no analysis results (analyse the trace first)");
  }
  AnalysisTables tables;
  Status status;
  tables.forEachTable([&](auto& table) {
    if (status.ok()) status = table_io::readRows(db, table);
  });
  if (!status.ok()) return status.error();
  return tables;
}

Result<AnalysisTables> readAnalysis(const std::string& path) {
  DAMSCOPE_ASSIGN_OR_RETURN(Database db, Database::open(path, Database::Mode::kReadOnly));
  return readAnalysis(db);
}

}  // namespace damscope
