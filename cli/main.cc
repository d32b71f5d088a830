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

  AnalyzeArgs analyze_args;
  CLI::App* analyze = app.add_subcommand(
      "analyze",
      "Diagnose a run: steps, GPU idle time and its causes, temporal breakdown, kernel and launch "
      "statistics, the D·A·M verdict and what to change first. Imports traces that are not a "
      "damscope trace yet (into NAME.db in the current directory), stores the results in each "
      "run.db and prints a summary. Several files are analysed as ranks of one job.");
  analyze
      ->add_option("traces", analyze_args.inputs,
                   "run.db, Kineto JSON (.json/.json.gz) or nsys SQLite; one per rank")
      ->required();
  analyze->add_option("-o,--output", analyze_args.output,
                      "run.db to import a trace into (default: the input's name with .db, here)");
  analyze->add_option("--format", analyze_args.format, "Output: text (default) or json");
  analyze->add_option("--window", analyze_args.window,
                      "hta (default: leave out the last step, as HTA does) or all");
  analyze->add_option("--tokens-per-step", analyze_args.tokens_per_step,
                      "Tokens per step, for throughput");
  analyze->add_option("--samples-per-step", analyze_args.samples_per_step,
                      "Samples per step, for throughput");
  analyze->add_option(
      "--threshold", analyze_args.thresholds,
      "Override a finding rule's threshold, RULE=VALUE (repeatable; docs/analysis.md)");
  analyze->add_flag("--no-store", analyze_args.no_store, "Analyse in memory; write nothing");
  analyze->add_flag("-f,--force", analyze_args.force, "Re-import over an existing run.db");

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
  if (*analyze) return runAnalyze(analyze_args);
  return kExitBadInput;
}
