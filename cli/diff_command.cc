// `damscope diff BEFORE AFTER [--format text|json]`: the results of two runs
// (read back where stored, else analysed and stored as analyze does:
// analyzer/pipeline/pipeline.h), compared (analyzer/result/run_diff.h) and
// printed: the human diff (analyzer/report/diff_text.h) or JSON
// (analyzer/report/diff_json.h, docs/export-and-diff.md). Several ranks a side
// with --before FILES... --after FILES...; Ctrl-C cancels.
#include <fmt/format.h>

#include "analyzer/pipeline/pipeline.h"
#include "analyzer/report/diff_json.h"
#include "analyzer/report/diff_text.h"
#include "analyzer/report/text_format.h"
#include "cli/commands.h"
#include "cli/long_work.h"

namespace damscope {
namespace {

struct Sides {
  std::vector<std::string> before;
  std::vector<std::string> after;
};

// Which files are before and which after; an error names the flags.
Result<Sides> sides(const DiffArgs& args) {
  if (args.format != "text" && args.format != "json") {
    return Error("--format " + args.format + ": expected text or json");
  }
  const bool lists = !args.before.empty() || !args.after.empty();
  if (lists && !args.runs.empty()) {
    return Error("give BEFORE AFTER, or --before FILES... --after FILES..., not both");
  }
  if (lists) {
    if (args.before.empty() || args.after.empty()) {
      return Error("--before and --after go together: each names the rank files of one run");
    }
    return Sides{args.before, args.after};
  }
  if (args.runs.size() != 2) {
    return Error("expected two runs, BEFORE AFTER (see damscope diff --help)");
  }
  return Sides{{args.runs[0]}, {args.runs[1]}};
}

Result<RunDiff> diffSides(const Sides& s, const PipelineOptions& options,
                          const Progress& progress) {
  DAMSCOPE_ASSIGN_OR_RETURN(AnalysedRun before,
                            openRun(s.before, options, EventsNeeded::kNone, progress.part(0, 0.5)));
  DAMSCOPE_ASSIGN_OR_RETURN(AnalysedRun after,
                            openRun(s.after, options, EventsNeeded::kNone, progress.part(0.5, 1)));
  return diffRuns(before.run, after.run);
}

}  // namespace

int runDiff(const DiffArgs& args) {
  auto which = sides(args);
  if (!which.ok()) {
    printError(which.error().message());
    return kExitBadInput;
  }
  PipelineOptions options;
  options.store = !args.no_store;
  Result<RunDiff> diff = runLongWork("comparing", [&](const Progress& progress) {
    return diffSides(which.value(), options, progress);
  });
  if (!diff.ok()) {
    return printFailure(diff.error(),
                        "pass --no-store to compare without storing, or give the run.db itself");
  }
  if (args.format == "json") {
    fmt::print("{}\n", runDiffJsonText(diff.value()));
  } else {
    fmt::print("{}", terminalSafe(formatRunDiff(diff.value())));
  }
  return kExitOk;
}

}  // namespace damscope
