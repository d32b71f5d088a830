// Progress on stderr for work that takes longer than a second. The work
// reports through a damscope::Progress (base/progress.h) that progress()
// hands out; a watcher thread wakes once a second and, after the first
// second, prints the current stage, how far it is and the elapsed time, so
// quick commands stay silent. On a terminal it rewrites one line; otherwise
// it prints a line per change of stage.
#pragma once

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "base/progress.h"

namespace damscope {

class ProgressLine {
 public:
  explicit ProgressLine(std::string what);
  ~ProgressLine();  // stops the watcher and ends the line it printed, if any
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // A Progress that reports to this line and stops when `cancel` (may be
  // null) is cancelled. It must not outlive the line.
  Progress progress(const CancelToken* cancel = nullptr);

 private:
  void watch();

  std::string what_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::string stage_;     // mutex_
  double fraction_ = 0;   // mutex_
  bool done_ = false;     // mutex_
  bool printed_ = false;  // watcher thread only, then the destructor
  std::thread watcher_;
};

}  // namespace damscope
