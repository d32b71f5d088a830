// A progress line on stderr for CLI work that takes longer than a second. A watcher
// thread wakes once a second; after the first second it prints the current
// stage and the elapsed time, so quick commands stay silent. On a terminal it
// rewrites one line; otherwise it prints a line per change of stage.
#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace damscope {

class ProgressLine {
 public:
  explicit ProgressLine(std::string what);
  ~ProgressLine();  // stops the watcher and ends the line it printed, if any
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // `stage` must outlive the ProgressLine (a string literal).
  void stage(const char* stage) { stage_.store(stage); }

 private:
  void watch();

  std::string what_;
  std::atomic<const char*> stage_{""};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  bool printed_ = false;
  std::thread watcher_;
};

}  // namespace damscope
