// One capture window's trace file, written batch by batch.
//
// The collector writes one trace-store file per process and capture window.
// A CaptureWriter owns that file's TraceWriter (streaming mode: WAL,
// synchronous=NORMAL, one transaction per batch, no indexes until the file is
// finalized, trace_finalizer.h) and the batch being filled:
// the row builders (GPU activity, NVTX ranges, CPU samples) append rows to
// batch(), and commit() hands them to the file's store thread (batch_store.h),
// about once a second, so that a process killed at any moment leaves a valid
// file holding everything up to the last commit written.
//
// Row ids are global: a row's id is the number of rows of its table written
// before it, so references (thread_id, parent_id) can name rows of earlier
// batches. Values learned after a row was written (the parent of an NVTX
// range that closed before its parent, a thread's name) are set with
// update(), applied in the next commit's transaction.
//
// Meta and stats rows stay in the batch and are re-written (upserted) at every
// commit, so the file always holds their latest values.
//
// Used by the writer thread only; not thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/result.h"
#include "collector/batch_store.h"
#include "trace/tables.h"
#include "trace/trace_writer.h"

namespace damscope::collector {

struct ProcessInfo {
  int64_t pid = 0;
  std::string name;  // executable name (/proc/self/comm)
  std::string hostname;
  int32_t rank = kNullInt32;
  int32_t local_rank = kNullInt32;
  int32_t world_size = kNullInt32;
  std::string cmdline;
};

struct CaptureFileOptions {
  std::string path;
  // 0: unlimited. Otherwise the file stops growing at about this size: writes
  // beyond it fail exactly as on a full disk (SQLITE_FULL), and the collector
  // stops recording with everything before that point kept.
  int64_t max_file_bytes = 0;
  ProcessInfo process;
};

class CaptureWriter {
 public:
  // Creates `options.path`, which must not exist (it is claimed with O_EXCL,
  // so two processes never share a file), and writes the schema, the meta
  // identity rows and the process row (id 0).
  static Result<std::unique_ptr<CaptureWriter>> create(const CaptureFileOptions& options);
  ~CaptureWriter();  // without finish(): the file keeps what was written

  const std::string& path() const { return path_; }

  // The rows not yet written. Row builders append to its event tables; its
  // string pool is the file's, and grows for the whole capture.
  TraceTables& batch() { return batch_; }
  const TraceTables& batch() const { return batch_; }
  StringId intern(std::string_view text) { return batch_.strings.intern(text); }

  // The global id the next row appended to `table` (a table of batch()) gets.
  template <typename Table>
  int64_t nextId(const Table& table) const {
    return writtenBefore(table) + static_cast<int64_t>(table.size());
  }
  // True when row `id` of `table` is still in the batch.
  template <typename Table>
  bool inBatch(const Table& table, int64_t id) const {
    return id >= writtenBefore(table);
  }
  // The position in the batch of row `id`, which must be inBatch().
  template <typename Table>
  size_t batchIndex(const Table& table, int64_t id) const {
    return static_cast<size_t>(id - writtenBefore(table));
  }

  // Sets an integer cell of a row written by an earlier commit (see RowUpdate);
  // `table` and `column` must be string literals or kSqlName.
  void update(std::string_view table, std::string_view column, int64_t id, int64_t value);

  // The threads row of OS thread `tid`, added on first sight and named by
  // the namer (if set) then.
  int64_t threadId(int64_t tid);
  void setThreadNamer(std::function<std::string(int64_t tid)> namer) { namer_ = std::move(namer); }
  // Gives thread `tid` a name (adds the thread if new). A later name replaces
  // an earlier one unless `only_if_unnamed`.
  void nameThread(int64_t tid, std::string_view name, bool only_if_unnamed = false);

  void setMeta(const std::string& key, const std::string& value) { batch_.setMeta(key, value); }
  void addStat(const std::string& name, int64_t delta, const std::string& description) {
    batch_.addStat(name, delta, description);
  }
  int64_t stat(const std::string& name) const { return batch_.getStat(name); }

  // Rows waiting in the batch (all event tables).
  size_t pendingRows() const;
  // Rows of `table` written or waiting so far.
  template <typename Table>
  int64_t rowCount(const Table& table) const {
    return nextId(table);
  }

  // Drops the rows and updates waiting in the batch, unwritten; returns how
  // many rows. Meta, stats and lost_spans stay. For a file past its size limit.
  int64_t discardPendingRows();
  // The bytes of the file and its write-ahead log on disk now.
  int64_t fileBytes() const;

  // Hands the batch and the pending updates to the store thread, which
  // writes them in one transaction, and empties the event tables. Errors of
  // earlier batches surface here (a batch late). After a failure the writer
  // is dead: every later call returns the first error.
  Status commit();
  // Waits until every commit so far is in the file (the file stays open).
  Status waitUntilWritten() { return store_->flush(); }
  // Commits, waits for everything to be written and closes the file.
  Status finish();

 private:
  CaptureWriter(std::string path, TraceWriter writer);

  template <typename Table>
  int64_t writtenBefore(const Table& table) const;

  std::string path_;
  std::unique_ptr<BatchStore> store_;
  TraceTables batch_;
  size_t strings_handed_ = 0;  // strings of batch_'s pool already sent to the store
  std::vector<RowUpdate> updates_;
  // Rows written per table, in TraceTables::forEachTable order.
  std::vector<int64_t> written_;
  std::unordered_map<int64_t, int64_t> thread_rows_;  // OS tid -> threads.id
  std::unordered_map<int64_t, bool> thread_named_;    // OS tid -> has a name
  std::function<std::string(int64_t)> namer_;
  Status failure_;
  bool finished_ = false;
};

// The position of each table in TraceTables::forEachTable order.
template <typename Table>
constexpr size_t tableIndex() {
  using T = std::decay_t<Table>;
  if constexpr (std::is_same_v<T, MetaTable>) return 0;
  if constexpr (std::is_same_v<T, StatTable>) return 1;
  if constexpr (std::is_same_v<T, ProcessTable>) return 2;
  if constexpr (std::is_same_v<T, ThreadTable>) return 3;
  if constexpr (std::is_same_v<T, DeviceTable>) return 4;
  if constexpr (std::is_same_v<T, KernelTable>) return 5;
  if constexpr (std::is_same_v<T, MemcpyTable>) return 6;
  if constexpr (std::is_same_v<T, MemsetTable>) return 7;
  if constexpr (std::is_same_v<T, ApiCallTable>) return 8;
  if constexpr (std::is_same_v<T, RangeTable>) return 9;
  if constexpr (std::is_same_v<T, SyncTable>) return 10;
  if constexpr (std::is_same_v<T, CounterTable>) return 11;
  if constexpr (std::is_same_v<T, KernelMetricTable>) return 12;
  if constexpr (std::is_same_v<T, LostSpanTable>) return 13;
}

template <typename Table>
int64_t CaptureWriter::writtenBefore(const Table&) const {
  return written_[tableIndex<Table>()];
}

}  // namespace damscope::collector
