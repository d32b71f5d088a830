// A subcommand's long work, run the same way by every subcommand: a progress
// line on stderr while it runs (progress_line.h), Ctrl-C as its cancel button
// (interrupt.h), and, when it fails, one line naming what is wrong and the
// exit code its cause asks for (commands.h).
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "base/progress.h"
#include "base/result.h"
#include "cli/interrupt.h"
#include "cli/progress_line.h"

namespace damscope {

// Calls work(progress) under a progress line titled `what`; the line is
// ended before this returns, so an error printed next stands on its own line.
template <typename Work>
auto runLongWork(std::string what, Work&& work) {
  CancelOnInterrupt interrupt;
  ProgressLine line(std::move(what));
  return std::forward<Work>(work)(line.progress(&interruptToken()));
}

// Prints "damscope: <message>", followed by `if_output_exists` where an
// output that exists stopped the work (ErrorCode::kOutputExists), and
// returns the exit code for the error.
int printFailure(const Error& error, std::string_view if_output_exists = {});

}  // namespace damscope
