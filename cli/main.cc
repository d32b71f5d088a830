// damscope: why is this GPU training run slow, and what do I change first?
// The command-line front end; every subcommand is a thin call into the
// trace/ and analyzer/ libraries.
#include <CLI/CLI.hpp>

#include "cli/commands.h"

int main(int argc, char** argv) {
  using namespace damscope;
  CLI::App app{"damscope: find why a GPU training run is slow and what to change first",
               "damscope"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "damscope 0.1.0");

  ImportArgs import_args;
  CLI::App* import = app.add_subcommand(
      "import",
      "Convert a PyTorch profiler JSON (.json/.json.gz) or Nsight Systems SQLite export "
      "into a damscope trace (run.db). The format is detected from the content.");
  import->add_option("trace", import_args.input, "Trace to import")->required();
  import->add_option(
      "-o,--output", import_args.output,
      "Output trace file (default: the input's name with .db, in the current directory)");
  import->add_flag("-f,--force", import_args.force, "Overwrite the output if it exists");

  InfoArgs info_args;
  CLI::App* info = app.add_subcommand(
      "info",
      "Show what a trace holds: ranks, devices, event counts, time span, import notes. "
      "Accepts a damscope trace or any importable trace.");
  info->add_option("trace", info_args.input, "Trace file")->required();
  info->add_flag("--json", info_args.json, "Print machine-readable JSON");

  // An unknown first word is a mistyped command, whatever CLI11 would call it.
  auto is_command = [&](const char* word) {
    for (const CLI::App* sub : app.get_subcommands({})) {
      if (sub->get_name() == word) return true;
    }
    return false;
  };
  if (argc > 1 && argv[1][0] != '-' && !is_command(argv[1])) {
    printError(std::string("'") + argv[1] + "' is not a damscope command (see damscope --help)");
    return kExitBadInput;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    const std::string command = argc > 1 && argv[1][0] != '-' ? std::string(" ") + argv[1] : "";
    printError(e.what() + std::string(" (see damscope") + command + " --help)");
    return kExitBadInput;
  }
  if (*import) return runImport(import_args);
  if (*info) return runInfo(info_args);
  return kExitBadInput;
}
