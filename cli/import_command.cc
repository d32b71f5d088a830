// `damscope import TRACE [-o run.db]`: converts a trace into a damscope trace store.
#include <fmt/format.h>

#include <chrono>
#include <filesystem>

#include "analyzer/importers/trace_import.h"
#include "analyzer/pipeline/pipeline.h"
#include "analyzer/report/text_format.h"
#include "cli/commands.h"
#include "cli/progress_line.h"
#include "trace/trace_writer.h"

namespace damscope {

void printError(const std::string& message) {
  // One line: a message can quote a path or a name from the trace.
  fmt::print(stderr, "damscope: {}\n", terminalName(message));
}

int runImport(const ImportArgs& args) {
  const std::string output = args.output.empty() ? defaultStoreName(args.input) : args.output;
  std::error_code ec;
  if (std::filesystem::equivalent(args.input, output, ec)) {
    printError(output + ": output would overwrite the input");
    return kExitBadInput;
  }
  const auto start = std::chrono::steady_clock::now();
  ImportTimings timings;
  Result<TraceTables> tables = Error("");
  {
    ProgressLine line("importing " + args.input);
    const Progress progress = line.progress();
    tables = importTrace(args.input, &timings, progress.part(0, 0.8));
    if (tables.ok()) {
      progress.part(0.8, 1, "writing").report(0);
      if (Status saved = saveTrace(tables.value(), output, args.force); !saved.ok()) {
        tables = saved.error();
      }
    }
  }
  if (!tables.ok()) {
    std::string message = tables.error().message();
    if (tables.error().code() == ErrorCode::kOutputExists) message += " (use --force to overwrite)";
    printError(message);
    return kExitBadInput;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const TraceTables& t = tables.value();
  fmt::print(
      "{} -> {}: {} kernels, {} memcpys, {} memsets, {} API calls, {} ranges, {} counters ({:.2f} "
      "s)\n",
      terminalName(args.input), terminalName(output), withThousands(t.kernels.size()),
      withThousands(t.memcpys.size()), withThousands(t.memsets.size()),
      withThousands(t.api_calls.size()), withThousands(t.ranges.size()),
      withThousands(t.counters.size()), seconds);
  return kExitOk;
}

}  // namespace damscope
