// Ctrl-C as a cancel button: see interrupt.h.
#include "cli/interrupt.h"

#include <atomic>

#include "base/pending_file.h"

namespace damscope {
namespace {

// Signals received while the handler is installed.
std::atomic<int> g_interrupts{0};

}  // namespace

CancelToken& interruptToken() {
  static CancelToken token;
  return token;
}

extern "C" void onInterrupt(int signal) {
  if (g_interrupts.fetch_add(1) == 0) {
    interruptToken().cancel();
    return;
  }
  // The second: the user will not wait for the work to stop. What it began
  // to write goes, then the signal's default action ends the process as
  // Ctrl-C does (the shell sees death by SIGINT).
  removePendingFilesNow();
  ::signal(signal, SIG_DFL);
  ::raise(signal);
}

CancelOnInterrupt::CancelOnInterrupt() {
  g_interrupts.store(0);
  struct sigaction action = {};
  action.sa_handler = onInterrupt;
  action.sa_flags = 0;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &old_int_);
  sigaction(SIGTERM, &action, &old_term_);
}

CancelOnInterrupt::~CancelOnInterrupt() {
  sigaction(SIGINT, &old_int_, nullptr);
  sigaction(SIGTERM, &old_term_, nullptr);
}

}  // namespace damscope
