// The thread that writes a capture's batches: see batch_store.h.
#include "collector/batch_store.h"

#include <pthread.h>

#include <utility>

namespace damscope::collector {

void moveBatchTables(TraceTables& from, TraceTables& to) {
  to.meta = from.meta;
  to.stats = from.stats;
  // A moved-from table is valid but unspecified: leave an empty one behind.
  auto move = [](auto& source, auto& target) { target = std::exchange(source, {}); };
  move(from.processes, to.processes);
  move(from.threads, to.threads);
  move(from.devices, to.devices);
  move(from.kernels, to.kernels);
  move(from.memcpys, to.memcpys);
  move(from.memsets, to.memsets);
  move(from.api_calls, to.api_calls);
  move(from.ranges, to.ranges);
  move(from.syncs, to.syncs);
  move(from.counters, to.counters);
  move(from.kernel_metrics, to.kernel_metrics);
  move(from.lost_spans, to.lost_spans);
}

BatchStore::BatchStore(TraceWriter writer) : writer_(std::move(writer)) {
  thread_ = std::thread([this] { run(); });
}

BatchStore::~BatchStore() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

Status BatchStore::submit(Job job) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return !pending_ || !error_.ok(); });
  if (!error_.ok()) return error_;
  pending_ = std::move(job);
  changed_.notify_all();
  return okStatus();
}

Status BatchStore::flush() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return (!pending_ && !busy_) || !error_.ok(); });
  return error_;
}

Status BatchStore::finish() {
  DAMSCOPE_RETURN_IF_ERROR(flush());
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
  return writer_.finish();
}

Status BatchStore::write(Job& job) {
  for (const std::string& s : job.new_strings) store_.strings.intern(s);
  moveBatchTables(job.tables, store_);
  Status status = writer_.append(store_, job.updates);
  // The rows are in the file (or lost with the error): only strings, meta and
  // stats carry over.
  TraceTables done;
  moveBatchTables(store_, done);
  return status;
}

void BatchStore::run() {
  pthread_setname_np(pthread_self(), "damscope-store");
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return pending_ || stopping_; });
    if (!pending_) return;  // stopping with nothing left
    Job job = std::move(*pending_);
    pending_.reset();
    busy_ = true;
    changed_.notify_all();  // room for the next job
    lock.unlock();
    Status status = write(job);
    lock.lock();
    busy_ = false;
    if (!status.ok() && error_.ok()) error_ = status;
    changed_.notify_all();
    if (!error_.ok()) {
      // Nothing more is written after a failure; drop what waits.
      pending_.reset();
    }
  }
}

}  // namespace damscope::collector
