// `damscope analyze RUN.db|TRACE.json.gz|NSYS.sqlite [more ranks...]`: imports
// what is not a damscope trace yet, runs every analysis, stores the results in
// each rank's run.db (analysis tables, one transaction) and prints the
// diagnosis: a human summary, or JSON with --format json
// (docs/analysis-json.md).
#include <fmt/format.h>

#include <filesystem>
#include <memory>

#include "analyzer/analyses/rank_analysis.h"
#include "analyzer/importers/trace_import.h"
#include "analyzer/report/analysis_rows.h"
#include "analyzer/report/summary_json.h"
#include "analyzer/report/summary_text.h"
#include "cli/commands.h"
#include "cli/progress_line.h"
#include "trace/analysis_store.h"
#include "trace/trace_reader.h"
#include "trace/trace_writer.h"

namespace damscope {
namespace {

struct LoadedRank {
  std::string input;
  std::string store;  // run.db the results go to ("" with --no-store)
  TraceTables tables;
};

bool samePath(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (std::filesystem::equivalent(a, b, ec)) return true;
  return a == b;
}

// The store of an earlier `import`/`analyze` of the same input, if `path` is one.
bool importedFrom(const std::string& path, const std::string& input) {
  auto db = Database::open(path, Database::Mode::kReadOnly);
  if (!db.ok() || !isTraceStore(db.value())) return false;
  auto stmt = db->prepare("SELECT value FROM meta WHERE key='source_file'");
  if (!stmt.ok()) return false;
  auto row = stmt->step();
  return row.ok() && row.value() && samePath(std::string(stmt->columnText(0)), input);
}

Result<LoadedRank> load(const std::string& input, const AnalyzeArgs& args, ProgressLine& progress) {
  LoadedRank rank;
  rank.input = input;
  DAMSCOPE_ASSIGN_OR_RETURN(TraceFormat format, detectFormat(input));
  if (format == TraceFormat::kTraceStore) {
    progress.stage("reading");
    DAMSCOPE_ASSIGN_OR_RETURN(rank.tables, readTrace(input));
    if (!args.no_store) rank.store = input;
    return rank;
  }
  const std::string store = args.output.empty() ? defaultOutputName(input) : args.output;
  std::error_code ec;
  if (!args.no_store && std::filesystem::exists(store, ec)) {
    if (samePath(store, input)) return Error(store + ": output would overwrite the input");
    if (!args.force) {
      if (!importedFrom(store, input)) {
        return Error(store + ": exists and was not imported from " + input +
                     " (use -o to choose another file, or --force to replace it)");
      }
      // Imported earlier: analyse those events (use --force to re-import).
      progress.stage("reading");
      DAMSCOPE_ASSIGN_OR_RETURN(rank.tables, readTrace(store));
      rank.store = store;
      return rank;
    }
  }
  progress.stage("importing");
  DAMSCOPE_ASSIGN_OR_RETURN(rank.tables, importTrace(input));
  if (!args.no_store) {
    progress.stage("writing");
    DAMSCOPE_RETURN_IF_ERROR(saveTrace(rank.tables, store, true));
    rank.store = store;
  }
  return rank;
}

}  // namespace

int runAnalyze(const AnalyzeArgs& args) {
  AnalysisOptions options;
  if (args.window == "hta") {
    options.window.mode = WindowMode::kHta;
  } else if (args.window == "all") {
    options.window.mode = WindowMode::kAll;
  } else {
    printError("--window " + args.window + ": expected hta or all");
    return kExitBadInput;
  }
  if (args.format != "text" && args.format != "json") {
    printError("--format " + args.format + ": expected text or json");
    return kExitBadInput;
  }
  if (!args.output.empty() && args.inputs.size() > 1) {
    printError("-o/--output names one run.db: it cannot be used with several inputs");
    return kExitBadInput;
  }
  for (double v : {args.tokens_per_step, args.samples_per_step}) {
    if (!std::isnan(v) && !(v > 0 && std::isfinite(v))) {
      printError("--tokens-per-step/--samples-per-step must be positive numbers");
      return kExitBadInput;
    }
  }
  options.steps.tokens_per_step = args.tokens_per_step;
  options.steps.samples_per_step = args.samples_per_step;
  for (const std::string& t : args.thresholds) {
    if (Status s = overrideThreshold(options.findings.rules, t); !s.ok()) {
      printError(s.error().message());
      return kExitBadInput;
    }
  }

  std::vector<std::unique_ptr<LoadedRank>> ranks;
  Result<RunAnalysis> run = Error("");
  {
    ProgressLine progress("analyzing");
    for (const std::string& input : args.inputs) {
      auto rank = load(input, args, progress);
      if (!rank.ok()) {
        progress.stage("");
        printError(rank.error().message());
        return kExitBadInput;
      }
      ranks.push_back(std::make_unique<LoadedRank>(std::move(rank.value())));
    }
    progress.stage("analyzing");
    std::vector<const TraceTables*> tables;
    std::vector<std::string> sources;
    for (const auto& r : ranks) tables.push_back(&r->tables), sources.push_back(r->input);
    run = analyzeRanks(tables, sources, options);
    if (!run.ok()) {
      printError(run.error().message());
      return kExitFailure;
    }
    progress.stage("storing results");
    for (size_t i = 0; i < ranks.size(); ++i) {
      if (ranks[i]->store.empty()) continue;
      const AnalysisTables rows = toAnalysisTables(run->ranks[i], &run.value(), options);
      if (Status s = storeAnalysis(ranks[i]->store, rows); !s.ok()) {
        printError(s.error().message());
        return kExitFailure;
      }
    }
  }

  if (args.format == "json") {
    nlohmann::json out = analysisJson(run.value(), options);
    for (size_t i = 0; i < ranks.size(); ++i) {
      out["ranks"][i]["stored_in"] =
          ranks[i]->store.empty() ? nlohmann::json(nullptr) : nlohmann::json(ranks[i]->store);
    }
    fmt::print("{}\n", out.dump(2));
    return kExitOk;
  }
  fmt::print("{}", formatRunSummary(run.value(), options));
  for (const auto& r : ranks) {
    if (!r->store.empty()) {
      fmt::print(
          "\nResults stored in {} (tables steps, breakdown, gaps, scorecard, findings, summary, "
          "...)\n",
          r->store);
    }
  }
  return kExitOk;
}

}  // namespace damscope
