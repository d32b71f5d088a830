// `damscope attach PID [--duration S | --steps N] [-o run.db]`: thin wrapper
// over collector/attach_client.h.
#include <fmt/format.h>
#include <signal.h>

#include <atomic>

#include "analyzer/report/text_format.h"
#include "cli/commands.h"
#include "cli/progress_line.h"
#include "collector/trace_finalizer.h"

namespace damscope {
namespace {

std::atomic<bool> g_interrupted{false};
void onInterrupt(int) {
  g_interrupted.store(true);
}

}  // namespace

int runAttach(const AttachArgs& args) {
  // Ctrl-C closes the window early; the file is still completed.
  struct sigaction handler {};
  handler.sa_handler = &onInterrupt;
  sigemptyset(&handler.sa_mask);
  sigaction(SIGINT, &handler, nullptr);
  sigaction(SIGTERM, &handler, nullptr);

  collector::AttachOutcome outcome;
  collector::AttachError error;
  const bool ok = collector::runAttach(
      args,
      [&](const std::string& path) {
        std::string until = "until Ctrl-C";
        if (args.duration_s > 0) until = fmt::format("for {} s", args.duration_s);
        if (args.steps > 0) until = fmt::format("for {} steps", args.steps);
        fmt::print(stderr, "damscope: recording process {} into {} {}\n", args.pid,
                   terminalName(path), until);
      },
      [] { return g_interrupted.load(); }, &outcome, &error);
  if (!ok) {
    printError(error.message);
    return error.kind == collector::AttachError::kBadInput ? kExitBadInput : kExitFailure;
  }
  // The window's file is complete; put it in time order.
  Result<collector::FinalizeReport> finalized = Error("");
  {
    ProgressLine line("finalizing " + outcome.path);
    line.progress().part(0, 1, "sorting and indexing").report(0);
    finalized = collector::finalizeTraceFile(outcome.path);
  }
  if (!finalized.ok()) {
    printError(finalized.error().message());
    return kExitFailure;
  }
  fmt::print("{}: {}\n", terminalName(outcome.path), terminalName(outcome.summary));
  return kExitOk;
}

}  // namespace damscope
