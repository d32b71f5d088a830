// Finalizing, on first open, the recordings their recorder could not finish.
//
// `damscope record` finalizes its files (collector/trace_finalizer.h) after
// the command ends; a record that was itself killed, or stopped while it
// finalized, leaves a file that is complete up to its last commit but
// unsorted and unindexed, which the analyses (written for the store's time
// order) must not read as it is. `info` and `analyze` finish that job the
// first time they open such a file, and say so in one line.
#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/progress_line.h"
#include "collector/trace_finalizer.h"

namespace damscope {

void finalizeUnfinishedRecordings(const std::vector<std::string>& paths) {
  for (const std::string& path : paths) {
    // Anything that is not a collector trace is the caller's to judge.
    Result<bool> needed = collector::needsFinalize(path);
    if (!needed.ok() || !needed.value()) continue;
    Result<collector::FinalizeReport> report = Error("");
    {
      ProgressLine line("finalizing " + path);
      line.progress().part(0, 1, "sorting and indexing").report(0);
      report = collector::finalizeTraceFile(path);
    }
    if (!report.ok()) {
      printError(report.error().message());
      continue;
    }
    printError(path +
               ": finalized the recording (sorted and indexed; its recorder had not finished it)");
    if (const std::string note = collector::abruptEndNote(path, report.value()); !note.empty()) {
      printError(note);
    }
  }
}

}  // namespace damscope
