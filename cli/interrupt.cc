// Ctrl-C as a cancel button: see interrupt.h.
#include "cli/interrupt.h"

namespace damscope {

CancelToken& interruptToken() {
  static CancelToken token;
  return token;
}

extern "C" void onInterrupt(int) {
  interruptToken().cancel();
}

CancelOnInterrupt::CancelOnInterrupt() {
  struct sigaction action = {};
  action.sa_handler = onInterrupt;
  action.sa_flags = SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &old_int_);
  sigaction(SIGTERM, &action, &old_term_);
}

CancelOnInterrupt::~CancelOnInterrupt() {
  sigaction(SIGINT, &old_int_, nullptr);
  sigaction(SIGTERM, &old_term_, nullptr);
}

}  // namespace damscope
