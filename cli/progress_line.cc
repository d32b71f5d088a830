// ProgressLine on stderr: see progress_line.h.
#include "cli/progress_line.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>

namespace damscope {

ProgressLine::ProgressLine(std::string what)
    : what_(std::move(what)), watcher_([this] { watch(); }) {}

ProgressLine::~ProgressLine() {
  {
    std::lock_guard lock(mutex_);
    done_ = true;
  }
  wake_.notify_all();
  watcher_.join();
  if (printed_ && isatty(STDERR_FILENO)) std::fputc('\n', stderr);
}

void ProgressLine::watch() {
  const auto start = std::chrono::steady_clock::now();
  const bool tty = isatty(STDERR_FILENO);
  const char* last_stage = nullptr;
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, std::chrono::seconds(1), [this] { return done_; })) {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const char* stage = stage_.load();
    if (tty) {
      std::fprintf(stderr, "\rdamscope: %s: %s... %.0f s   ", what_.c_str(), stage, elapsed);
    } else if (stage != last_stage) {
      std::fprintf(stderr, "damscope: %s: %s... (%.0f s)\n", what_.c_str(), stage, elapsed);
    }
    std::fflush(stderr);
    last_stage = stage;
    printed_ = true;
  }
}

}  // namespace damscope
