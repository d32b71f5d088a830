// The recorded program's signals, as the collector meets them. The handlers
// are async-signal-safe and only talk to the writer thread through atomics
// (signal-safety(7)); the writer asks what is pending on each turn of its
// loop (collector.cc) and does the work.
//
// Terminating signals (SIGINT, SIGTERM): when the program left them at their
// default action, the handler notes the signal and restores the default, so
// a second one ends the process at once; the writer closes the window, then
// raises the signal again. A program that handles them itself exits through
// exit(), which closes the window too.
//
// Fatal signals (SIGSEGV, SIGBUS, SIGABRT, SIGFPE): the thread that took one
// asks the writer to commit what is buffered and waits for that, bounded
// (kFatalSignalWaitNs), then hands the signal on as if damscope were not
// there: to the handler the program had installed before damscope started,
// or to the default action. It runs once per process: on entry the signal's
// previous disposition is restored (SA_RESETHAND, but back to the program's
// own handler), so a second fault, on any thread, goes straight there. It
// does not wait in a forked child (no writer there), on the writer itself,
// or while no window is open.
#pragma once

#include <cstdint>

namespace damscope::collector {

// A crashing thread waits this long for the writer to save what is buffered,
// then lets the signal proceed whatever happened (the writer may itself need
// a lock the crashed thread holds, malloc's for one).
constexpr int64_t kFatalSignalWaitNs = 2'000'000'000;

// Installed once, at start-up, by the process that records.
void installTerminatingSignalHandlers();
void installFatalSignalHandlers();

// What the fatal-signal handler needs to know, as atomics: which thread is
// the writer (call on it), and whether a window is open.
void setWriterThreadForSignals();
void setWindowOpenForSignals(bool open);

// The writer's side. pendingTerminatingSignal: 0, or the SIGINT/SIGTERM the
// program received; terminatingSignalName its name ("SIGINT"). A fatal signal
// a thread waits on, as "signal SIGSEGV", until fatalSignalSaved() answers
// it; null when none.
int pendingTerminatingSignal();
const char* terminatingSignalName(int sig);
const char* pendingFatalSignal();
void fatalSignalSaved();

}  // namespace damscope::collector
