// `damscope analyze RUN.db|TRACE.json.gz|NSYS.sqlite [more ranks...]`: checks
// the flags, runs the analysis pipeline (analyzer/pipeline/pipeline.h) with a
// progress line and Ctrl-C as its cancel button (cli/interrupt.h), and prints
// the diagnosis: a human summary, or JSON with --format json
// (docs/analysis-json.md).
#include <fmt/format.h>

#include "analyzer/pipeline/pipeline.h"
#include "analyzer/report/result_json.h"
#include "analyzer/report/result_text.h"
#include "analyzer/report/text_format.h"
#include "cli/commands.h"
#include "cli/interrupt.h"
#include "cli/progress_line.h"

namespace damscope {
namespace {

// The pipeline's options from the flags; an error names the flag.
Result<PipelineOptions> pipelineOptions(const AnalyzeArgs& args) {
  PipelineOptions options;
  if (args.window == "hta") {
    options.analysis.window.mode = WindowMode::kHta;
  } else if (args.window == "all") {
    options.analysis.window.mode = WindowMode::kAll;
  } else {
    return Error("--window " + args.window + ": expected hta or all");
  }
  if (args.format != "text" && args.format != "json") {
    return Error("--format " + args.format + ": expected text or json");
  }
  if (!args.output.empty() && args.inputs.size() > 1) {
    return Error("-o/--output names one run.db: it cannot be used with several inputs");
  }
  for (double v : {args.tokens_per_step, args.samples_per_step}) {
    if (!std::isnan(v) && !(v > 0 && std::isfinite(v))) {
      return Error("--tokens-per-step/--samples-per-step must be positive numbers");
    }
  }
  options.analysis.steps.tokens_per_step = args.tokens_per_step;
  options.analysis.steps.samples_per_step = args.samples_per_step;
  for (const std::string& t : args.thresholds) {
    if (Status s = overrideThreshold(options.analysis.findings.rules, t); !s.ok()) {
      return Error("--threshold " + s.error().message());
    }
  }
  options.store = !args.no_store;
  options.output = args.output;
  options.replace = args.force;
  return options;
}

}  // namespace

int runAnalyze(const AnalyzeArgs& args) {
  auto options = pipelineOptions(args);
  if (!options.ok()) {
    printError(options.error().message());
    return kExitBadInput;
  }
  Result<RunResult> run = Error("");
  {
    CancelOnInterrupt interrupt;
    ProgressLine line("analyzing");
    run = analyzeRun(args.inputs, options.value(), line.progress(&interruptToken()));
  }
  if (!run.ok()) {
    std::string message = run.error().message();
    if (run.error().code() == ErrorCode::kOutputExists) {
      message += " (use -o to choose another file, or --force to replace it)";
    }
    printError(message);
    return exitCodeOf(run.error());
  }

  if (args.format == "json") {
    fmt::print("{}\n", runJsonText(run.value()));
    return kExitOk;
  }
  SummaryTextOptions text;
  text.more_findings = "in --format json and the findings table";
  fmt::print("{}", terminalSafe(formatRunSummary(run.value(), text)));
  for (const RankResult& r : run->ranks) {
    if (!r.store.empty()) {
      fmt::print(
          "\nResults stored in {} (tables steps, breakdown, gaps, scorecard, findings, summary, "
          "...)\n",
          terminalSafe(r.store));
    }
  }
  return kExitOk;
}

}  // namespace damscope
