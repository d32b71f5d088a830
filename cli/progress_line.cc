// Progress on stderr: see progress_line.h.
#include "cli/progress_line.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "analyzer/report/text_format.h"

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

Progress ProgressLine::progress(const CancelToken* cancel) {
  return Progress(
      [this](const ProgressUpdate& u) {
        std::lock_guard lock(mutex_);
        if (stage_ != u.stage) stage_.assign(u.stage);
        fraction_ = u.fraction;
      },
      cancel);
}

void ProgressLine::watch() {
  const auto start = std::chrono::steady_clock::now();
  const bool tty = isatty(STDERR_FILENO);
  // The path and the stage can name a file or a rank from the trace.
  const std::string what = terminalName(what_);
  std::string last_stage;
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, std::chrono::seconds(1), [this] { return done_; })) {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (tty) {
      std::fprintf(stderr, "\rdamscope: %s: %s... %.0f %%, %.0f s   ", what.c_str(),
                   terminalName(stage_).c_str(), 100.0 * fraction_, elapsed);
    } else if (stage_ != last_stage) {
      std::fprintf(stderr, "damscope: %s: %s... (%.0f s)\n", what.c_str(),
                   terminalName(stage_).c_str(), elapsed);
    }
    std::fflush(stderr);
    last_stage = stage_;
    printed_ = true;
  }
}

}  // namespace damscope
