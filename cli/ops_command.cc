// `damscope ops TRACE... [--by op|leaf-op|module|range|annotation]`: where the
// GPU and host time goes, by op, module, range or GPU annotation
// (analyzer/analyses/op_breakdown.h). Each input is opened through the
// pipeline with its events (analyzer/pipeline/pipeline.h, stored as analyze
// stores it unless --no-store) and its op table computed from them
// (analyzer/pipeline/op_analysis.h); the tables print one per input, as text
// or as one JSON document (docs/ops.md).
#include <fmt/format.h>

#include <cstdio>

#include "analyzer/pipeline/op_analysis.h"
#include "analyzer/pipeline/pipeline.h"
#include "analyzer/report/op_table.h"
#include "analyzer/report/text_format.h"
#include "cli/commands.h"
#include "cli/long_work.h"
#include "cli/window_flag.h"

namespace damscope {
namespace {

Result<OpBreakdownOptions> opOptions(const OpsArgs& args) {
  OpBreakdownOptions ops;
  const std::optional<OpGrouping> grouping = opGroupingFromText(args.by);
  if (!grouping) {
    return Error("--by " + args.by + ": expected op, leaf-op, module, range or annotation");
  }
  ops.grouping = *grouping;
  if (args.sort == "gpu") {
    ops.sort = OpSort::kGpu;
  } else if (args.sort == "cpu") {
    ops.sort = OpSort::kCpu;
  } else if (args.sort == "calls") {
    ops.sort = OpSort::kCalls;
  } else {
    return Error("--sort " + args.sort + ": expected gpu, cpu or calls");
  }
  if (args.top < 0) return Error("--top must be 0 (every row) or more");
  ops.top = static_cast<size_t>(args.top);
  ops.by_shape = args.shapes;
  return ops;
}

Result<PipelineOptions> pipelineOptions(const OpsArgs& args) {
  PipelineOptions options;
  Result<WindowMode> window = windowModeFlag(args.window);
  if (!window.ok()) return window.error();
  options.analysis.window.mode = *window;
  options.store = !args.no_store;
  return options;
}

Result<OpBreakdownReport> opsOf(const std::string& input, const PipelineOptions& options,
                                const OpBreakdownOptions& ops, const Progress& progress) {
  // Opening (import, or reading a run.db back) is half the work, the op
  // table's analysis the other half.
  DAMSCOPE_ASSIGN_OR_RETURN(AnalysedRun opened,
                            openRun({input}, options, EventsNeeded::kFirstRank,
                                    progress.part(0, 0.5)));
  return analyseOps(opened.tables.front(), options.analysis, ops,
                    progress.part(0.5, 1, "attributing", input));
}

}  // namespace

int runOps(const OpsArgs& args) {
  if (args.format != "text" && args.format != "json") {
    printError("--format " + args.format + ": expected text or json");
    return kExitBadInput;
  }
  Result<OpBreakdownOptions> ops = opOptions(args);
  if (!ops.ok()) return printFailure(ops.error());
  Result<PipelineOptions> options = pipelineOptions(args);
  if (!options.ok()) return printFailure(options.error());

  nlohmann::json ranks = nlohmann::json::array();
  for (const std::string& input : args.inputs) {
    Result<OpBreakdownReport> table = runLongWork("attributing", [&](const Progress& progress) {
      return opsOf(input, options.value(), ops.value(), progress);
    });
    if (!table.ok()) return printFailure(table.error(), "pass --no-store to analyse in memory");
    if (args.format == "json") {
      nlohmann::json rank = opTableJson(table.value());
      rank["input"] = input;
      ranks.push_back(std::move(rank));
      continue;
    }
    if (args.inputs.size() > 1) fmt::print("{}\n", terminalName(input));
    fmt::print("{}", terminalSafe(opTableText(table.value())));
    if (args.inputs.size() > 1) fmt::print("\n");
  }
  if (args.format == "json") {
    fmt::print("{}\n", nlohmann::json{{"ranks", std::move(ranks)}}.dump(
                                  2, ' ', false, nlohmann::json::error_handler_t::replace));
  }
  std::fflush(stdout);
  return kExitOk;
}

}  // namespace damscope
