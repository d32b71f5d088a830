// `damscope import TRACE [-o run.db]`: converts a trace into a damscope trace store.
#include <fmt/format.h>

#include <chrono>
#include <filesystem>

#include "analyzer/importers/trace_import.h"
#include "cli/commands.h"
#include "cli/progress_line.h"
#include "cli/text_format.h"
#include "trace/trace_writer.h"

namespace damscope {

// "traces/resnet50.pt.trace.json.gz" -> "resnet50.db" (in the current directory).
std::string defaultOutputName(const std::string& input) {
  std::string name = std::filesystem::path(input).filename().string();
  for (const char* suffix : {".gz", ".json", ".pt.trace", ".sqlite", ".sqlite3"}) {
    const std::string s(suffix);
    if (name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) {
      name.resize(name.size() - s.size());
    }
  }
  return name + ".db";
}

void printError(const std::string& message) {
  fmt::print(stderr, "damscope: {}\n", message);
}

int runImport(const ImportArgs& args) {
  const std::string output = args.output.empty() ? defaultOutputName(args.input) : args.output;
  std::error_code ec;
  if (std::filesystem::equivalent(args.input, output, ec)) {
    printError(output + ": output would overwrite the input");
    return kExitBadInput;
  }
  const auto start = std::chrono::steady_clock::now();
  ImportTimings timings;
  Result<TraceTables> tables = Error("");
  {
    ProgressLine progress("importing " + args.input);
    progress.stage("parsing");
    tables = importTrace(args.input, &timings);
    if (tables.ok()) {
      progress.stage("writing");
      // saveTrace refuses an existing output too, but only the CLI knows the
      // flag that overrides it.
      if (!args.force && std::filesystem::exists(output, ec)) {
        tables = Error(output + ": output exists (use --force to overwrite)");
      } else if (Status saved = saveTrace(tables.value(), output, args.force); !saved.ok()) {
        tables = saved.error();
      }
    }
  }
  if (!tables.ok()) {
    printError(tables.error().message());
    return kExitBadInput;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const TraceTables& t = tables.value();
  fmt::print(
      "{} -> {}: {} kernels, {} memcpys, {} memsets, {} API calls, {} ranges, {} counters ({:.2f} "
      "s)\n",
      args.input, output, withThousands(t.kernels.size()), withThousands(t.memcpys.size()),
      withThousands(t.memsets.size()), withThousands(t.api_calls.size()),
      withThousands(t.ranges.size()), withThousands(t.counters.size()), seconds);
  return kExitOk;
}

}  // namespace damscope
