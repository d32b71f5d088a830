// Ctrl-C (or SIGTERM) as the cancel button of a command's long work: while a
// CancelOnInterrupt lives, the signal cancels interruptToken(), the work stops
// at its next check (base/progress.h) and removes what it had begun to
// write, and the command exits with kExitCancelled.
#pragma once

#include <csignal>

#include "base/progress.h"

namespace damscope {

// The token the signal cancels; hand it to the work's Progress.
CancelToken& interruptToken();

// Installs the handler for its lifetime. The first signal cancels the token
// (setting a lock-free atomic is async-signal-safe). A second one removes
// the pending files of this process (base/pending_file.h,
// removePendingFilesNow: unlink(2) only) and then ends the process with the
// signal's default action, as a second Ctrl-C always did.
class CancelOnInterrupt {
 public:
  CancelOnInterrupt();
  ~CancelOnInterrupt();
  CancelOnInterrupt(const CancelOnInterrupt&) = delete;
  CancelOnInterrupt& operator=(const CancelOnInterrupt&) = delete;

 private:
  struct sigaction old_int_ = {};
  struct sigaction old_term_ = {};
};

}  // namespace damscope
