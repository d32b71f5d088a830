// Progress on stderr for work that takes longer than a second. A watcher
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

class Progress {
 public:
  explicit Progress(std::string what);
  ~Progress();  // stops the watcher and ends the line it printed, if any
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // `stage` must outlive the Progress (a string literal).
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
