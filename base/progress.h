// Progress and cancellation for work that can take seconds: reading and
// decompressing a trace, parsing it, analysing it, storing results. A front
// end (the CLI's progress line, the GUI's progress bar and its Cancel button)
// hands the work a Progress; the work reports how far it is and checks, at
// points where stopping leaves nothing half-done, whether it should stop.
//
// A Progress covers a share [begin, end) of the whole job and carries a stage
// name and a detail (which input). part() carves a sub-share for nested work:
// an importer reports 0..1 of its own work and never needs to know that it is
// the first third of a three-rank job. Reports are calls of the front end's
// callback on the working thread; the callback must be cheap and safe to call
// from that thread (the GUI posts them to its UI thread). Work reports every
// few thousand events at most, so the cost is nil.
//
// Cancellation is cooperative: CancelToken::cancel() may be called from any
// thread; the work notices at its next check and returns an Error with code
// ErrorCode::kCancelled, leaving no partial output behind.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace damscope {

class CancelToken {
 public:
  void cancel() { cancelled_.store(true, std::memory_order_relaxed); }
  bool cancelled() const { return cancelled_.load(std::memory_order_relaxed); }

 private:
  std::atomic<bool> cancelled_{false};
};

struct ProgressUpdate {
  std::string_view stage;   // what is being done: "importing", "analysing", ...
  std::string_view detail;  // which input, e.g. its file name; may be empty
  double fraction = 0;      // of the whole job, 0..1
};

using ProgressCallback = std::function<void(const ProgressUpdate&)>;

class Progress {
 public:
  // Reports nowhere and is never cancelled.
  Progress() = default;
  // Reports to `callback` (may be empty) and stops when `cancel` (may be
  // null; must outlive every copy of this Progress) is cancelled.
  Progress(ProgressCallback callback, const CancelToken* cancel);

  // The share [begin, end) of this work, as fractions of it, under its own
  // stage and detail (empty: this one's).
  Progress part(double begin, double end, std::string stage = {}, std::string detail = {}) const;

  // `fraction` (clamped to 0..1) of this work is done.
  void report(double fraction) const;

  bool cancelled() const { return sink_ && sink_->cancel && sink_->cancel->cancelled(); }
  // cancelledError() when cancelled, else ok.
  Status checkCancelled() const;

 private:
  friend class ParallelProgress;
  struct Sink {
    ProgressCallback callback;
    const CancelToken* cancel = nullptr;
  };
  std::shared_ptr<const Sink> sink_;
  double begin_ = 0;
  double end_ = 1;
  std::string stage_;
  std::string detail_;
};

// The progress of pieces of work done on several threads at once (the ranks
// of a run analysed in parallel): piece i reports through piece(i), from one
// thread at a time; the front end's callback sees the pieces' mean, under a
// lock, so it is never called from two threads at once. Cancelling the whole
// cancels every piece.
class ParallelProgress {
 public:
  ParallelProgress(const Progress& whole, size_t pieces);
  Progress piece(size_t i) const;

 private:
  struct State {
    Progress whole;
    std::mutex mutex;
    std::vector<double> done;  // each piece's fraction
    double sum = 0;
  };
  std::shared_ptr<State> state_;
};

// The error every cancelled function returns: "cancelled", ErrorCode::kCancelled.
Error cancelledError();

}  // namespace damscope
