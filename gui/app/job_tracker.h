// Background jobs of one kind, the newest winning (style rule 13; KDAB
// Hotspot's habit: heavy work in a thread pool, results delivered back by
// queued calls, stale results dropped). The GUI's loader (run_loader.h), the
// timeline's background build (timeline_view.h) and the re-analysis of a time
// window (window_analyser.h) each keep one.
//
// run() asks the current job to stop (its CancelToken), gives the new one the
// next id and a fresh token, and starts it on Qt's global thread pool. Its
// result comes back to the context object's thread by a queued call and is
// delivered only if no job has started since: a stale result is dropped,
// never shown. cancel() only asks; a cancelled job's result is still
// delivered (the work says it was cancelled, as the pipeline does), unless a
// newer job replaced it or abandon() dropped it.
//
// Threads: the tracker itself is used on the context's thread only; a worker
// sees only its own Job, which it holds by shared_ptr. The destructor cancels
// and waits for every job still running, so no worker outlives its tracker
// (keep the tracker a member of the context object, whose pending queued
// calls Qt discards when it is destroyed).
#pragma once

#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include <QFuture>
#include <QObject>
#include <QtConcurrent/QtConcurrentRun>

#include "base/progress.h"

namespace damscope {

class JobTracker {
 public:
  struct Job {
    uint64_t id = 0;
    CancelToken cancel;
  };
  // What run() does with the job it replaces, besides cancelling it: wait for
  // it to stop (work that must not overlap, such as two pipelines writing the
  // same run.db), or let it finish alongside and drop its result.
  enum class Overlap { kWaitForPrevious, kRunAlongside };

  explicit JobTracker(QObject* context) : context_(context) {}
  ~JobTracker();
  JobTracker(const JobTracker&) = delete;
  JobTracker& operator=(const JobTracker&) = delete;

  // Starts `work(const Job&) -> R` on the thread pool; `deliver(R)` runs on
  // the context's thread when the job is still the newest. Returns its id.
  template <class Work, class Deliver>
  uint64_t run(Work work, Deliver deliver, Overlap overlap = Overlap::kRunAlongside);

  // Asks the current job to stop.
  void cancel();
  // Asks the current job to stop and drops whatever it delivers: the work it
  // was doing is no longer wanted (another run shown without a job).
  void abandon();
  // A job has started and its result has not been delivered or dropped.
  bool busy() const { return current_ != nullptr; }
  // `id` is the newest job and still running: what a progress report checks
  // before it is shown.
  bool isCurrent(uint64_t id) const { return current_ && current_->id == id; }

 private:
  // Ends job `id` if it is the current one; false when it is stale.
  bool finish(uint64_t id);
  void forgetFinished();

  QObject* context_;
  std::shared_ptr<Job> current_;
  uint64_t last_id_ = 0;
  std::vector<QFuture<void>> running_;  // every job started and not known to have finished
};

template <class Work, class Deliver>
uint64_t JobTracker::run(Work work, Deliver deliver, Overlap overlap) {
  cancel();
  if (overlap == Overlap::kWaitForPrevious) {
    for (QFuture<void>& f : running_) f.waitForFinished();
  }
  forgetFinished();
  auto job = std::make_shared<Job>();
  job->id = ++last_id_;
  current_ = job;
  running_.push_back(QtConcurrent::run(
      [this, job, work = std::move(work), deliver = std::move(deliver), context = context_] {
        auto result = work(static_cast<const Job&>(*job));
        QMetaObject::invokeMethod(
            context,
            [this, id = job->id, result = std::move(result), deliver] {
              if (finish(id)) deliver(result);
            },
            Qt::QueuedConnection);
      }));
  return job->id;
}

}  // namespace damscope
