// Loads a trace-store file into the in-memory TraceTables, column by column.
#pragma once

#include <string>

#include "trace/result.h"
#include "trace/sqlite_db.h"
#include "trace/tables.h"

namespace damscope {

// True when `db` has the meta table and "format" marker of a damscope store.
bool isTraceStore(Database& db);

// Checks that `db` is a damscope store of the schema version this build
// reads; the error says what it is instead.
Status checkTraceStore(Database& db);

Result<TraceTables> readTrace(Database& db);
Result<TraceTables> readTrace(const std::string& path);

}  // namespace damscope
