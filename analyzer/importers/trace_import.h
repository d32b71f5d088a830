// The importer front door: recognises a trace file by its content (never by
// its extension) and runs the matching importer, producing neutral
// TraceTables. Importers are plugins behind this: Kineto JSON (plain or
// gzip) and Nsight Systems SQLite exports.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "base/progress.h"
#include "base/result.h"
#include "trace/sqlite_db.h"
#include "trace/tables.h"

namespace damscope {

enum class TraceFormat {
  kKinetoJson,  // PyTorch profiler / Kineto Chrome-trace JSON, plain or gzip
  kNsysSqlite,  // nsys export --type sqlite
  kTraceStore,  // already a damscope trace store (run.db)
};

std::string_view formatDescription(TraceFormat format);

// A trace file recognised by its content, and opened when it is a SQLite
// database (a run.db or an nsys export), so that whoever recognised it reads
// it without recognising or opening it again. The database is opened
// read-only (Database::Mode::kReadOnly: where the file could be written, a
// read-write connection that refuses writes until told otherwise).
struct TraceInput {
  std::string path;
  TraceFormat format = TraceFormat::kKinetoJson;
  std::optional<Database> db;  // set for kTraceStore and kNsysSqlite
};

// Looks at the first bytes (and, for SQLite, the tables) of `path`. Errors
// name the file: missing, unreadable, a damaged SQLite file, a SQLite file of
// another kind, or nothing damscope reads.
Result<TraceInput> openTraceInput(const std::string& path);

// openTraceInput(path)'s format alone.
Result<TraceFormat> detectFormat(const std::string& path);

// Where import time went, for progress and benchmarks.
struct ImportTimings {
  // A JSON file is read (a .gz: decompressed) on a second thread while it
  // is parsed: parse_s is the whole import's time, read_s (decompress_s)
  // the part of it that thread worked.
  double read_s = 0;  // 0 for gzip, which is read as it is decompressed
  double decompress_s = 0;
  double parse_s = 0;
  size_t file_bytes = 0;
  size_t json_bytes = 0;  // uncompressed JSON size (0 for SQLite sources)
};

// Imports a Kineto JSON or nsys SQLite file. A damscope trace store is not an
// import source: the error says so.
//
// Reports to `progress` under one stage: "reading" (nsys), "reading and
// parsing" (plain Kineto JSON) or "decompressing and parsing" (.json.gz);
// where address space is too short to parse a JSON file while it is read
// (StreamingFile), "reading" or "decompressing", then "parsing". Fractions
// never decrease and end at 1. When `progress` is cancelled the import stops at its next check
// (every MiB of file or JSON, every 64K rows of an export) and returns cancelledError()
// (ErrorCode::kCancelled); importers write nothing anyway.
Result<TraceTables> importTrace(const std::string& path, ImportTimings* timings = nullptr,
                                const Progress& progress = {});
// The same, of an input already recognised (and opened): its database is
// used and closed.
Result<TraceTables> importTrace(TraceInput input, ImportTimings* timings = nullptr,
                                const Progress& progress = {});

}  // namespace damscope
