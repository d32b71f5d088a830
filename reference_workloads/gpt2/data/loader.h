// The data loader: batches in order (first, first + 1, ...; strided across
// data-parallel ranks, LoaderOptions), made inline on
// the training thread or by worker threads through a bounded prefetch queue.
//
//   workers 0      the training thread makes each batch when it asks for it
//   workers W > 0  W threads make batches; at most `prefetch` of them are
//                  made ahead of what the trainer has taken. With prefetch 0
//                  a worker starts batch i only once the trainer asks for it,
//                  and the trainer waits the whole production time.
// Batches are the same whatever W and prefetch (makeBatch is pure), and are
// delivered in order even when workers finish out of order.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "reference_workloads/gpt2/data/batch.h"
#include "reference_workloads/gpt2/data/token_source.h"

namespace damscope::gpt2 {

// What the loader reports, for the annotations (train/annotations.h); every
// call comes from the thread concerned. Implementations must be thread-safe.
class LoaderObserver {
 public:
  virtual ~LoaderObserver() = default;
  virtual void workerStarted(int worker) = 0;  // on the new worker thread
  virtual void beginLoad() = 0;                // a worker starts making a batch
  virtual void endLoad() = 0;
};

struct LoaderOptions {
  int workers = 0;
  int prefetch = 0;
  // The loader's i-th batch is batch i * stride + offset of the source: rank
  // r of a data-parallel job of N ranks takes every N-th batch from r
  // (stride N, offset r), so the ranks train on disjoint batches.
  int64_t stride = 1;
  int64_t offset = 0;
};

class Loader {
 public:
  // source and observer (may be null) must outlive the loader.
  Loader(const TokenSource& source, BatchSpec spec, LoaderOptions options, int64_t first_batch,
         LoaderObserver* observer);
  ~Loader();
  Loader(const Loader&) = delete;
  Loader& operator=(const Loader&) = delete;

  // The next batch in order, into out; blocks until it is made.
  void next(Batch& out);

 private:
  void workerLoop(int worker);
  // Batches with an index below this may be started.
  int64_t startLimit() const;

  const TokenSource& source_;
  const BatchSpec spec_;
  const LoaderOptions options_;
  LoaderObserver* observer_;

  std::mutex mutex_;
  std::condition_variable work_;   // workers wait for a batch they may start
  std::condition_variable ready_;  // the trainer waits for its batch
  int64_t next_to_start_;          // guarded by mutex_
  int64_t taken_;                  // batches handed to the trainer
  bool waiting_ = false;           // the trainer is blocked in next()
  bool stop_ = false;
  std::map<int64_t, Batch> done_;  // made, not yet taken
  std::vector<std::thread> threads_;
};

}  // namespace damscope::gpt2
