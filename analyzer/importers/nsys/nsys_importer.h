// Importer for Nsight Systems SQLite exports (`nsys export --type sqlite`).
//
// Reads CUPTI_ACTIVITY_KIND_KERNEL / MEMCPY / MEMSET / RUNTIME /
// SYNCHRONIZATION, NVTX_EVENTS, StringIds, ThreadNames, PROCESSES,
// TARGET_INFO_GPU, TARGET_INFO_SESSION_START_TIME and the ENUM_* tables of
// newer exports. Columns are looked up by name, and a table or column that a
// given nsys version lacks reads as empty or NULL: the export schema changes
// between releases (2.9 in nsys 2022.2, 3.x later).
//
// nsys times are nanoseconds since the session start; adding
// TARGET_INFO_SESSION_START_TIME.utcEpochNs puts them on the Unix-epoch clock
// the trace store uses (meta "clock" says "session" when the table is absent).
#pragma once

#include <string>

#include "base/progress.h"
#include "base/result.h"
#include "trace/sqlite_db.h"
#include "trace/tables.h"

namespace damscope {

// True when `db` has the tables of an Nsight Systems export.
bool isNsysExport(Database& db);

// Reports the fraction of the export's event rows read to `progress` and
// returns cancelledError() when it is cancelled.
Result<TraceTables> importNsysSqlite(const std::string& path, const Progress& progress = {});
// The same, from the export already opened (the importer front door opens a
// file once to recognise it).
Result<TraceTables> importNsysSqlite(Database db, const Progress& progress = {});

}  // namespace damscope
