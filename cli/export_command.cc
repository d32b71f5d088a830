// `damscope export RUN --chrome out.json[.gz]`: opens one rank with its
// analysis (read back from the run.db, or computed now and stored as analyze
// stores it: analyzer/pipeline/pipeline.h), writes it as a Chrome trace
// (analyzer/report/chrome_trace.h) under a temporary name that becomes the
// output only once complete (base/pending_file.h), and says what it wrote.
// Ctrl-C cancels and leaves nothing.
#include <fmt/format.h>

#include <filesystem>

#include "analyzer/pipeline/pipeline.h"
#include "analyzer/report/chrome_trace.h"
#include "analyzer/report/text_format.h"
#include "base/pending_file.h"
#include "cli/commands.h"
#include "cli/long_work.h"

namespace damscope {
namespace {

// Share of the progress line that opening (and analysing) takes; writing the
// JSON takes the rest.
constexpr double kOpenShare = 0.5;

struct Written {
  ChromeTraceStats stats;
  std::string stored_in;  // the run.db the analysis was stored in now, if any
};

Result<Written> exportChrome(const ExportArgs& args, PendingFile& output,
                             const Progress& progress) {
  PipelineOptions options;
  options.store = !args.no_store;
  DAMSCOPE_ASSIGN_OR_RETURN(
      AnalysedRun opened,
      openRun({args.input}, options, EventsNeeded::kFirstRank, progress.part(0, kOpenShare)));
  const RankResult& rank = opened.run.ranks.front();
  DAMSCOPE_ASSIGN_OR_RETURN(std::unique_ptr<OutputSink> sink,
                            openFileSink(output.tempPath(), hasGzipSuffix(args.chrome)));
  Written out;
  DAMSCOPE_ASSIGN_OR_RETURN(out.stats,
                            writeChromeTrace(opened.tables.front(), rank, *sink,
                                             progress.part(kOpenShare, 1, "writing", args.chrome)));
  DAMSCOPE_RETURN_IF_ERROR(sink->close());
  DAMSCOPE_RETURN_IF_ERROR(output.commit());
  if (opened.origins.front() == RankOrigin::kAnalysed) out.stored_in = rank.store;
  return out;
}

}  // namespace

int runExport(const ExportArgs& args) {
  std::error_code ec;
  if (std::filesystem::equivalent(args.input, args.chrome, ec)) {
    printError(args.chrome + ": output would overwrite the input");
    return kExitBadInput;
  }
  auto output = PendingFile::create(args.chrome, args.force);
  if (!output.ok()) return printFailure(output.error(), "use --force to replace it");
  Result<Written> written = runLongWork("exporting", [&](const Progress& progress) {
    return exportChrome(args, output.value(), progress);
  });
  if (!written.ok()) {
    // The output was checked above: an output that exists is the run.db an
    // import would go to.
    const Error& e = written.error();
    return printFailure(Error(output->userMessage(e.message()), e.code()),
                        "pass --no-store to analyse in memory");
  }
  const ChromeTraceStats& s = written->stats;
  auto count = [](int64_t n, const char* one, const char* many) {
    return withThousands(n) + " " + (n == 1 ? one : many);
  };
  fmt::print("{}: Chrome trace of {} ({}, {}); open it in ui.perfetto.dev or chrome://tracing\n",
             terminalName(args.chrome), terminalName(args.input), count(s.rows, "event", "events"),
             count(s.flows, "launch arrow", "launch arrows"));
  if (s.skipped > 0) {
    fmt::print("{} rows without a time (or counter samples without a value) were left out\n",
               withThousands(s.skipped));
  }
  if (!written->stored_in.empty()) {
    fmt::print("Analysis stored in {}\n", terminalName(written->stored_in));
  }
  return kExitOk;
}

}  // namespace damscope
