// The thread that writes a capture's batches to SQLite.
//
// Writing a batch takes time (about a second's worth of rows at ~1.3 M
// rows/s, bench/collector_bench), and while the collector's writer thread is
// inside SQLite nobody drains the per-thread NVTX rings, which then overflow
// at a few tens of thousands of ranges per second. So the writer thread only
// fills batches and hands each one here; this thread writes it while the
// next one fills. One batch is in flight at a time: if SQLite falls a whole
// batch behind, submit() waits, the rings fill, and their overflow is
// counted (memory stays bounded by two batches).
//
// Strings: the writer's string pool keeps growing while a batch is written,
// so each job carries the strings added since the previous job, and this
// thread interns them, in order, into its own pool; ids match on both sides.
#pragma once

#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/result.h"
#include "trace/tables.h"
#include "trace/trace_writer.h"

namespace damscope::collector {

class BatchStore {
 public:
  struct Job {
    TraceTables tables;                    // event tables, meta and stats (its pool unused)
    std::vector<std::string> new_strings;  // ids continue where the previous job's ended
    std::vector<RowUpdate> updates;        // table/column name static strings
  };

  explicit BatchStore(TraceWriter writer);
  ~BatchStore();  // stops the thread; the file keeps what was written
  BatchStore(const BatchStore&) = delete;
  BatchStore& operator=(const BatchStore&) = delete;

  // Hands `job` over, first waiting for the previous one to be written.
  // Returns the first error of any earlier job (writing stops at the first).
  Status submit(Job job);
  // Waits until every submitted job is written.
  Status flush();
  // Flushes, closes the file and stops the thread.
  Status finish();

 private:
  void run();
  Status write(Job& job);

  TraceWriter writer_;
  TraceTables store_;  // the file's strings, as written so far
  std::mutex mutex_;
  std::condition_variable changed_;
  std::optional<Job> pending_;  // mutex_
  bool busy_ = false;           // mutex_: a job is being written
  bool stopping_ = false;       // mutex_
  Status error_;                // mutex_
  std::thread thread_;
};

// Moves the event tables of `from` into `to` and leaves them empty in
// `from`; meta and stats are copied.
void moveBatchTables(TraceTables& from, TraceTables& to);

}  // namespace damscope::collector
