// Stores and loads the analysis tables (trace/analysis_tables.h) in a trace
// store file, beside its events.
//
// storeAnalysis() replaces every earlier result in one transaction: it drops
// the analysis tables, recreates them from trace/analysis_schema.sql and
// writes the new rows, or, on any failure, rolls back and leaves the file as
// it was. The event tables are never written, so a failed or interrupted
// analysis can neither corrupt the events nor leave half a result.
#pragma once

#include <string>

#include "trace/analysis_tables.h"
#include "trace/result.h"
#include "trace/sqlite_db.h"

namespace damscope {

// `db` must be a damscope trace store opened read-write.
Status storeAnalysis(Database& db, const AnalysisTables& tables);
Status storeAnalysis(const std::string& path, const AnalysisTables& tables);

// True when the file holds analysis results of this layout version.
bool hasAnalysis(Database& db);

// Loads stored results; an error when there are none (or of another version).
Result<AnalysisTables> readAnalysis(Database& db);
Result<AnalysisTables> readAnalysis(const std::string& path);

// The CREATE statements of trace/analysis_schema.sql.
std::string analysisSchemaSql();

}  // namespace damscope
