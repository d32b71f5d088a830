// The recorded program's signals: see process_signals.h.
//
// The handlers use only atomics, sigaction, clock_gettime, nanosleep,
// getpid, gettid and tgkill: all async-signal-safe (signal-safety(7)); no
// allocation, no lock.
#include "collector/process_signals.h"

#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>

namespace damscope::collector {
namespace {

constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE};

std::atomic<int> g_terminating_signal{0};
struct sigaction g_previous_action[NSIG];
std::atomic<bool> g_fatal_claimed{false};
std::atomic<int> g_fatal_signal{0};      // the handler's request to the writer
std::atomic<bool> g_fatal_saved{false};  // the writer's answer: committed
std::atomic<pid_t> g_owner_pid{0};
std::atomic<pid_t> g_writer_tid{0};
std::atomic<bool> g_window_open{false};

int64_t monotonicNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

pid_t currentTid() {
  return static_cast<pid_t>(syscall(SYS_gettid));
}

void onTerminatingSignal(int sig) {
  g_terminating_signal.store(sig, std::memory_order_relaxed);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigaction(sig, &dfl, nullptr);
}

void passSignalOn(int sig, siginfo_t* info, void* context) {
  const struct sigaction& previous = g_previous_action[sig];
  if (previous.sa_handler == SIG_IGN) return;
  if (previous.sa_handler != SIG_DFL) {
    if (previous.sa_flags & SA_SIGINFO) {
      previous.sa_sigaction(sig, info, context);
    } else {
      previous.sa_handler(sig);
    }
    return;
  }
  // The default action, restored on entry. A fault (si_code > 0) recurs when
  // the faulting instruction runs again after this returns, and the kernel
  // then applies the default action. A signal a process sent (kill, raise,
  // abort: si_code <= 0) does not recur, so it is sent again to this thread;
  // blocked while the handler runs, it is delivered, to the default action,
  // as the handler returns. Google Breakpad does the same
  // (src/client/linux/handler/exception_handler.cc, SignalHandler).
  if (info == nullptr || info->si_code <= 0) {
    syscall(SYS_tgkill, getpid(), currentTid(), sig);
  }
}

void onFatalSignal(int sig, siginfo_t* info, void* context) {
  const int saved_errno = errno;
  sigaction(sig, &g_previous_action[sig], nullptr);
  // Not in a forked child (no writer there), not on the writer itself (it
  // cannot wait for itself), once, and only while something is recorded.
  if (getpid() == g_owner_pid.load() && currentTid() != g_writer_tid.load() &&
      g_window_open.load() && !g_fatal_claimed.exchange(true)) {
    g_fatal_signal.store(sig);
    const int64_t deadline = monotonicNs() + kFatalSignalWaitNs;
    const timespec pause{0, 1'000'000};
    while (!g_fatal_saved.load() && monotonicNs() < deadline) nanosleep(&pause, nullptr);
  }
  errno = saved_errno;
  passSignalOn(sig, info, context);
}

}  // namespace

void installTerminatingSignalHandlers() {
  for (int sig : {SIGINT, SIGTERM}) {
    struct sigaction current {};
    if (sigaction(sig, nullptr, &current) == 0 && current.sa_handler == SIG_DFL &&
        !(current.sa_flags & SA_SIGINFO)) {
      struct sigaction handler {};
      handler.sa_handler = &onTerminatingSignal;
      sigemptyset(&handler.sa_mask);
      handler.sa_flags = SA_RESTART;
      sigaction(sig, &handler, nullptr);
    }
  }
}

void installFatalSignalHandlers() {
  g_owner_pid.store(getpid());
  for (int sig : kFatalSignals) {
    struct sigaction handler {};
    handler.sa_sigaction = &onFatalSignal;
    sigemptyset(&handler.sa_mask);
    // SA_ONSTACK: a thread that has an alternate stack (set up by the program
    // for stack overflows) keeps using it.
    handler.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigaction(sig, &handler, &g_previous_action[sig]);
  }
}

void setWriterThreadForSignals() {
  g_writer_tid.store(currentTid());
}

void setWindowOpenForSignals(bool open) {
  g_window_open.store(open);
}

int pendingTerminatingSignal() {
  return g_terminating_signal.load(std::memory_order_relaxed);
}

const char* terminatingSignalName(int sig) {
  switch (sig) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    default:
      return "signal";
  }
}

const char* pendingFatalSignal() {
  if (g_fatal_saved.load()) return nullptr;
  switch (g_fatal_signal.load()) {
    case 0:
      return nullptr;
    case SIGSEGV:
      return "signal SIGSEGV";
    case SIGBUS:
      return "signal SIGBUS";
    case SIGABRT:
      return "signal SIGABRT";
    case SIGFPE:
      return "signal SIGFPE";
    default:
      return "signal";
  }
}

void fatalSignalSaved() {
  g_fatal_saved.store(true);
}

}  // namespace damscope::collector
