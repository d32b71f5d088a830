// Loads a trace-store file into the in-memory TraceTables, column by column.
#pragma once

#include <string>

#include "base/progress.h"
#include "base/result.h"
#include "trace/sqlite_db.h"
#include "trace/tables.h"

namespace damscope {

// True when `db` has the meta table and "format" marker of a damscope store.
bool isTraceStore(Database& db);

// Checks that `db` is a damscope store of the schema version this build
// reads; the error says what it is instead.
Status checkTraceStore(Database& db);

// Reports progress table by table and stops with cancelledError() when cancelled.
Result<TraceTables> readTrace(Database& db, const Progress& progress = {});
Result<TraceTables> readTrace(const std::string& path, const Progress& progress = {});

}  // namespace damscope
