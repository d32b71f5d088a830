// `damscope record [options] -- CMD ARGS...`: thin wrapper over
// collector/record_launcher.h.
#include <fmt/format.h>
#include <signal.h>
#include <sys/resource.h>

#include "analyzer/report/text_format.h"
#include "cli/commands.h"
#include "cli/progress_line.h"
#include "collector/trace_finalizer.h"

namespace damscope {

int runRecord(const RecordArgs& args) {
  Result<collector::PreparedRecord> prepared = collector::prepareRecord(args);
  if (!prepared.ok()) {
    printError(prepared.error().message());
    return kExitBadInput;
  }
  if (prepared->counters.any()) {
    // Kernel replay serializes and repeats every kernel (counter_session.h):
    // the user must know before a long run, not after.
    fmt::print(stderr,
               "damscope: --counters {}: every kernel launch waits for its kernel, which runs "
               "alone and is replayed until its counters are read; the program runs much slower "
               "(stats collector.counters_replay_ns says by how much) and the kernel times in this "
               "recording are "
               "not its normal ones. Record timing without --counters.\n",
               collector::counterListText(prepared->counters));
  }
  Result<collector::ChildStatus> status = collector::runRecorded(prepared.value());
  if (!status.ok()) {
    printError(status.error().message());
    return kExitFailure;
  }
  const std::vector<std::string> files = collector::listRunOutputs(prepared->output, prepared->rank);
  if (files.empty()) {
    std::string why =
        "no trace was written: the collector starts at a process's first NVTX call or CUDA "
        "initialization, and the command made neither";
    if (!collector::nvidiaDriverPresent()) {
      why += " (there is no NVIDIA driver on this machine, so CUDA cannot initialize)";
    }
    // A full disk, not the command, is then why (the collector said so too).
    if (Status space = collector::checkOutputSpace(prepared->output); !space.ok()) {
      why = "no trace was written: " + space.error().message();
    }
    // With --on-demand, windows are written only when attach asks, and
    // `attach -o` puts them elsewhere: no file here is no news.
    if (!args.on_demand) printError(why);
  } else {
    for (const std::string& file : files) {
      // The command has exited (or was killed): put its files in time order.
      Result<collector::FinalizeReport> finalized = Error("");
      {
        ProgressLine line("finalizing " + file);
        line.progress().part(0, 1, "sorting and indexing").report(0);
        finalized = collector::finalizeTraceFile(file, {status->end_ns});
      }
      if (!finalized.ok()) {
        printError(finalized.error().message());
      } else if (const std::string note = collector::abruptEndNote(file, finalized.value());
                 !note.empty()) {
        printError(note);
      }
      if (prepared->counters.any()) {
        Result<std::string> note = collector::countersNote(file);
        if (!note.ok()) {
          printError(note.error().message());
        } else if (!note->empty()) {
          fmt::print(stderr, "damscope: {}\n", terminalName(*note));
        }
      }
      fmt::print(stderr, "damscope: wrote {}\n", terminalName(file));
    }
  }
  if (status->signal != 0) {
    // Die as the command died, so that callers (shells, schedulers) see the
    // same status; no core file of our own for crash signals.
    rlimit no_core{0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    signal(status->signal, SIG_DFL);
    raise(status->signal);
  }
  return status->exit_code;
}

}  // namespace damscope
