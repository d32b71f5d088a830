// Writes TraceTables into a trace-store file (trace/schema.sql).
//
// Two ways to use it:
// - saveTrace(): a whole trace at once (importers). The file appears under its
//   final name only when complete: it is written to a temporary name beside
//   the target and renamed at the end, so a failure leaves nothing behind.
// - TraceWriter: batch after batch (the collector). Each append() is one
//   transaction; with Mode::kStreaming the file is in WAL mode with
//   synchronous=NORMAL, so a killed process leaves every committed batch.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "trace/sqlite_db.h"
#include "trace/tables.h"

namespace damscope {

struct WriterOptions {
  enum class Mode {
    // No rollback journal and no fsync while writing; indexes built once in
    // finish(); 16 KiB pages in a new file. For files that are renamed into
    // place only when complete.
    kBulkLoad,
    // WAL, synchronous=NORMAL, indexes up front so readers can query while
    // the file grows.
    kStreaming,
  };
  Mode mode = Mode::kBulkLoad;
  // false: this writer creates no indexes at all; its owner adds them later
  // with schemaIndexesSql(). The collector writes without them (index upkeep
  // halves its insert rate) and `damscope record` indexes the finished file.
  bool create_indexes = true;
};

// A value learned after its row was written. A streaming writer stores an
// NVTX range when it closes, before the range that encloses it has closed and
// got its id, and sees a thread's events before the thread is named; it sets
// such cells with an update in a later append. Integer columns only (string
// columns hold string ids; the string must be in the batch's pool).
struct RowUpdate {
  std::string_view table;   // a TraceTables table, e.g. "ranges"
  std::string_view column;  // one of its columns, e.g. "parent_id"
  int64_t id;               // the row's id
  int64_t value;            // kNullInt stores NULL
};

class TraceWriter {
 public:
  // Creates the schema in `db`, which must be empty.
  static Result<TraceWriter> create(Database db, WriterOptions options = {});

  TraceWriter(TraceWriter&&) = default;
  TraceWriter& operator=(TraceWriter&&) = default;

  // Appends every row of `batch` in one transaction. Row ids continue from the
  // previous batches, so references inside a batch (thread_id, parent_id, ...)
  // must already be global ids. Strings are written from the first id not yet
  // written: pass the same, growing StringPool with every batch. Meta and stats
  // rows replace the stored row with the same key or name.
  Status append(const TraceTables& batch);
  // The same, then applies `updates` to rows of this or earlier batches, in
  // the same transaction. An update naming an unknown table or column fails
  // the whole append.
  Status append(const TraceTables& batch, const std::vector<RowUpdate>& updates);

  // Builds the indexes (bulk mode), leaves the file in WAL mode and closes it.
  Status finish();

  // For in-memory databases: finishes and hands the open database back.
  Result<Database> finishAndRelease();

 private:
  TraceWriter(Database db, WriterOptions options) : db_(std::move(db)), options_(options) {}
  Status finishWithoutClosing();

  Database db_;
  WriterOptions options_;
  int64_t strings_written_ = 0;
  // Rows already written per event table, in TraceTables::forEachTable order.
  std::vector<int64_t> rows_written_;
  bool finished_ = false;
};

// Writes `tables` to `path` atomically (temporary file, then rename). Fails
// with ErrorCode::kOutputExists if `path` exists, unless `overwrite` is set.
Status saveTrace(const TraceTables& tables, const std::string& path, bool overwrite);

// Writes `tables` as a new trace store at `path`, in place (for a
// PendingFile's temporary path; saveTrace for anything else): a bulk-load
// TraceWriter, so without a journal or fsync, then left in WAL mode.
// v100_rank1's events (216 k rows) take about 70 ms of CPU.
Status writeTraceFile(const TraceTables& tables, const std::string& path);

// The statements of schema.sql before and after its "-- @indexes" marker.
std::string schemaTablesSql();
std::string schemaIndexesSql();

}  // namespace damscope
