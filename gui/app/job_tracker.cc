// Background jobs, the newest winning: see job_tracker.h.
#include "gui/app/job_tracker.h"

#include <algorithm>

namespace damscope {

JobTracker::~JobTracker() {
  cancel();
  for (QFuture<void>& f : running_) f.waitForFinished();
}

void JobTracker::cancel() {
  if (current_) current_->cancel.cancel();
}

void JobTracker::abandon() {
  cancel();
  current_.reset();
}

bool JobTracker::finish(uint64_t id) {
  if (!isCurrent(id)) return false;
  current_.reset();
  return true;
}

void JobTracker::forgetFinished() {
  std::erase_if(running_, [](const QFuture<void>& f) { return f.isFinished(); });
}

}  // namespace damscope
