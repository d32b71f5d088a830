// damscope: why is this GPU training run slow, and what do I change first?
// The command-line front end; every subcommand is a thin call into the
// trace/ and analyzer/ libraries.
#include <CLI/CLI.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "cli/commands.h"

int main(int argc, char** argv) {
  using namespace damscope;
  CLI::App app{"damscope: find why a GPU training run is slow and what to change first",
               "damscope"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "damscope " DAMSCOPE_VERSION);

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
                      "Tokens per step, for throughput (above 0, at most 1e12)");
  analyze->add_option("--samples-per-step", analyze_args.samples_per_step,
                      "Samples per step, for throughput (above 0, at most 1e12)");
  analyze->add_option(
      "--threshold", analyze_args.thresholds,
      "Override a finding rule's threshold, RULE=VALUE (repeatable; docs/analysis.md)");
  analyze->add_option("--model", analyze_args.model,
                      "Model preset for MFU: gpt2-124m, gpt2-350m, gpt2-774m, gpt2-1.5b, "
                      "llama2-7b, llama2-13b, llama3-8b");
  analyze->add_option("--params", analyze_args.params, "Model parameter count N, for MFU");
  analyze->add_option("--layers", analyze_args.layers, "Model layers (MFU's attention term)");
  analyze->add_option("--seq", analyze_args.seq, "Sequence length (MFU's attention term)");
  analyze->add_option("--d-model", analyze_args.d_model, "Model width (MFU's attention term)");
  analyze->add_option("--heads", analyze_args.heads, "Attention heads (memory estimate)");
  analyze->add_option("--gpu", analyze_args.gpu,
                      "The device's row of the device table (docs/devices.md), e.g. a100-80gb, "
                      "h100-sxm; default: matched from the trace");
  analyze->add_option("--peak-tflops", analyze_args.peak_tflops,
                      "The peak to measure MFU against, TFLOP/s (a device the table lacks)");
  analyze->add_option("--peak-bw-gbs", analyze_args.peak_bw_gbs,
                      "The memory bandwidth for the roofline, GB/s");
  analyze->add_option("--precision", analyze_args.precision,
                      "The precision of the peak: fp32, tf32, fp16, bf16, fp8, fp64 "
                      "(default: the model annotation's, else the matrix kernels')");
  analyze->add_flag("--no-store", analyze_args.no_store, "Analyse in memory; write nothing");
  analyze->add_flag("-f,--force", analyze_args.force, "Re-import over an existing run.db");
  analyze->add_option("-j,--jobs", analyze_args.jobs,
                      "Ranks analysed at once (default: one per core); the output is the same");
  analyze->add_flag("--reanalyze", analyze_args.reanalyze,
                    "Analyse the events again even where a run.db holds results stored with "
                    "the same options (by default those are read, and only the comparison "
                    "between ranks is computed)");

  ExportArgs export_args;
  CLI::App* export_cmd = app.add_subcommand(
      "export",
      "Write one rank's events and analysis as a Chrome trace (JSON, .gz compressed) that Perfetto "
      "UI (ui.perfetto.dev) and chrome://tracing open: host threads, GPU streams, launch arrows, "
      "counters, steps, and the idle gaps named by cause. Analyses the trace first if it holds no "
      "stored analysis (storing it as analyze does).");
  export_cmd
      ->add_option("trace", export_args.input,
                   "run.db, Kineto JSON (.json/.json.gz) or nsys SQLite (one rank)")
      ->required();
  export_cmd
      ->add_option("--chrome", export_args.chrome,
                   "Chrome trace to write (out.json, or out.json.gz to compress)")
      ->required();
  export_cmd->add_flag("--no-store", export_args.no_store,
                       "Analyse in memory; write nothing but the export");
  export_cmd->add_flag("-f,--force", export_args.force, "Replace the output if it exists");

  ReportArgs report_args;
  CLI::App* report = app.add_subcommand(
      "report",
      "Write the diagnosis as a document: a self-contained HTML page (verdict, D·A·M scorecard, "
      "MFU, findings with evidence, a representative step's timeline, roofline, top kernels), "
      "Markdown for an issue or pull request, or the JSON analysis document. Reads the results "
      "stored in a run.db; analyses (and stores) a trace that has none.");
  report
      ->add_option("traces", report_args.inputs,
                   "run.db, Kineto JSON (.json/.json.gz) or nsys SQLite; one per rank, the first "
                   "shown in full")
      ->required();
  report->add_option("-o,--output", report_args.output,
                     "report.html, report.md or report.json (default: NAME-report.html here; "
                     "- for stdout)");
  report->add_option("--format", report_args.format,
                     "html, md or json (default: from the output's suffix, else html)");
  report->add_flag("--no-store", report_args.no_store,
                   "Analyse in memory; write nothing but the report");
  report->add_flag("-f,--force", report_args.force, "Replace the output if it exists");

  OpsArgs ops_args;
  CLI::App* ops = app.add_subcommand(
      "ops",
      "Where the time goes, by op, module and range: every kernel, copy and memset charged to "
      "the op that launched it (and backward work to its forward op's module) and to every "
      "enclosing range; per name, the calls, GPU and host time (total and self), their share of "
      "the analysed steps, and FLOP/s with the roofline place where FLOPs are known.");
  ops->add_option("traces", ops_args.inputs,
                  "run.db, Kineto JSON (.json/.json.gz) or nsys SQLite; a table each")
      ->required();
  ops->add_option("--by", ops_args.by,
                  "op (default: framework ops, nested ones counted in their parents), leaf-op "
                  "(the innermost op only), module (nn.Module), range (NVTX, record_function) "
                  "or annotation (GPU user annotations)");
  ops->add_option("--sort", ops_args.sort, "gpu (default), cpu or calls: largest first");
  ops->add_flag("--shapes", ops_args.shapes, "A row per op and input shape (\"Input Dims\")");
  ops->add_option("--top", ops_args.top, "Rows shown (default 20; 0: all)");
  ops->add_option("--format", ops_args.format, "Output: text (default) or json");
  ops->add_option("--window", ops_args.window,
                  "hta (default: leave out the last step, as HTA does) or all");
  ops->add_flag("--no-store", ops_args.no_store, "Analyse in memory; write nothing");
  ops->footer(
      "Usage: damscope ops TRACE... [--by op|leaf-op|module|range|annotation] "
      "[--sort gpu|cpu|calls] [--shapes] [--top N] [--format text|json]");

  PlanArgs plan_args;
  CLI::App* plan = app.add_subcommand(
      "plan",
      "Plan a training run before it exists: FLOPs per layer and per step, memory per GPU by "
      "component against the device, step time at an MFU band, total time, GPU-hours, energy, "
      "cost and CO2, the data-parallel gradient traffic against the link, and whether it fits "
      "(docs/plan.md). Every default is printed with the figure it decides.");
  plan->add_option("--model", plan_args.model,
                   "Model preset: gpt2-124m, gpt2-350m, gpt2-774m, gpt2-1.5b, llama2-7b, "
                   "llama2-13b, llama3-8b (the flags below override its fields)");
  plan->add_option("--params", plan_args.params, "Parameter count N (without --model)");
  plan->add_option("--layers", plan_args.layers, "Transformer layers L");
  plan->add_option("--d-model", plan_args.d_model, "Model width d");
  plan->add_option("--heads", plan_args.heads, "Attention heads");
  plan->add_option("--seq", plan_args.seq, "Sequence length S (tokens)");
  plan->add_option("--vocab", plan_args.vocab, "Vocabulary size (the logits' memory)");
  plan->add_option("--gpu", plan_args.gpu,
                   "The device's row of the device table (docs/devices.md), e.g. a100-sxm4-80gb, "
                   "h100-sxm");
  plan->add_option("--gpus", plan_args.gpus, "Data-parallel GPUs (default 1)");
  plan->add_option("--nodes", plan_args.nodes, "Nodes (default: one per 8 GPUs)");
  plan->add_option("--link-gbs", plan_args.link_gbs,
                   "Per-GPU link bandwidth for the all-reduce, GB/s per direction (default: the "
                   "device's peer link on one node, 25 GB/s between nodes)");
  plan->add_option("--precision", plan_args.precision,
                   "Training precision: bf16 (default), fp16, fp8, tf32, fp32, fp64");
  plan->add_option("--batch", plan_args.batch, "Micro-batch, sequences per GPU (default 8)");
  plan->add_option("--grad-accum", plan_args.grad_accum,
                   "Micro-batches per optimizer step (default 1)");
  plan->add_option("--checkpointing", plan_args.checkpointing,
                   "Activation recomputation: none (default), selective or full");
  plan->add_option("--zero", plan_args.zero, "ZeRO stage 0 (default) to 3");
  plan->add_flag("--flash-attention", plan_args.flash_attention,
                 "Fused attention: no S x S scores stored");
  plan->add_flag("--no-master-weights", plan_args.no_master_weights,
                 "Mixed precision without fp32 master weights");
  plan->add_option("--mfu", plan_args.mfu,
                   "Share of the peak sustained, percent: LOW-HIGH (default 30-50) or one value");
  plan->add_option("--tokens", plan_args.tokens,
                   "Tokens to train on (default 20 per parameter, Chinchilla)");
  plan->add_option("--gpu-watts", plan_args.gpu_watts,
                   "Power per GPU, W (default: the device's maximum power)");
  plan->add_option("--host-watts", plan_args.host_watts, "Power per node's host, W (default 200)");
  plan->add_option("--usd-per-gpu-hour", plan_args.usd_per_gpu_hour,
                   "Price of a GPU-hour, USD (default 2.00)");
  plan->add_option("--co2-kg-per-kwh", plan_args.co2_kg_per_kwh,
                   "Grid carbon intensity, kg CO2 per kWh (default 0.48, the 2023 world average)");
  plan->add_option("--format", plan_args.format, "Output: text (default) or json");
  // What-if on a recorded run: the run says what the flags above describe,
  // so they cannot be given with one.
  CLI::Option* plan_run = plan->add_option(
      "run", plan_args.run,
      "A recorded run (RUN.db, or any trace analyze reads): estimate what-ifs from its own "
      "measured breakdown instead of planning from flags");
  for (CLI::Option* option : plan->get_options()) {
    if (option->get_name() != "--format" && option->get_name() != "--help" && option != plan_run) {
      option->excludes(plan_run);
    }
  }
  plan->add_option("--what-if", plan_args.what_ifs,
                   "With a run: KEY=VALUE, repeatable, combined in order: data=hidden, "
                   "overlap=on, precision=bf16|fp16|tf32, checkpointing=full|selective, batch=N "
                   "(default: each that applies to the run)")
      ->needs(plan_run);

  DiffArgs diff_args;
  CLI::App* diff = app.add_subcommand(
      "diff",
      "Compare two runs: did the fix work, and what leads now? Step time, the verdict, the "
      "D·A·M scorecard, HTA breakdown, GPU utilization, kernel categories, the kernels that moved "
      "most and the findings that appeared or disappeared. Each run is a run.db or a trace, "
      "analysed first when it holds no stored analysis (stored as analyze does).");
  diff->add_option("runs", diff_args.runs, "BEFORE AFTER: a run.db or trace each");
  diff->add_option("--before", diff_args.before,
                   "The rank files of the run before, for multi-rank runs (with --after)");
  diff->add_option("--after", diff_args.after,
                   "The rank files of the run after; ranks are paired in the order given");
  diff->add_option("--format", diff_args.format, "Output: text (default) or json");
  diff->add_flag("--no-store", diff_args.no_store, "Analyse in memory; write nothing");
  diff->footer(
      "Usage: damscope diff BEFORE AFTER\n"
      "       damscope diff --before B_RANK0 B_RANK1... --after A_RANK0 A_RANK1...");

  RecordArgs record_args;
  CLI::App* record = app.add_subcommand(
      "record",
      "Run a command with damscope injected (CUDA_INJECTION64_PATH, NVTX_INJECTION64_PATH) and "
      "record its GPU activity, NVTX ranges and CPU use into run.db; one file per process "
      "(run.rank<N>.db, run.pid<PID>.db). Passes the command's exit code through.");
  record->add_option("-o,--output", record_args.output, "Output trace file (default: run.db)");
  record->add_option("--duration", record_args.duration_s,
                     "Stop recording after S seconds (the command keeps running)");
  record->add_option("--delay", record_args.delay_s, "Start recording after S seconds");
  record->add_flag("--on-demand", record_args.on_demand,
                   "Load dormant; record only the windows `damscope attach` opens");
  record->add_flag("-f,--force", record_args.force, "Replace the files of an earlier run");
  record->add_option("--sample-hz", record_args.sample_hz,
                     "CPU and memory samples per second (default 100; 0: off)");
  record->add_option("--buffer-size", record_args.buffer_mb, "CUPTI buffer size in MB (default 8)");
  record->add_option("--buffers", record_args.buffers, "CUPTI buffers in the pool (default 16)");
  record
      ->add_option("--max-size", record_args.max_size_mb,
                   "Stop recording when a trace file reaches this many MB (default 4096; 0 or "
                   "'unlimited': no limit)")
      ->transform([](const std::string& value) { return value == "unlimited" ? "0" : value; });
  record->add_option("--counters", record_args.counters,
                     "Measure hardware counters per kernel into kernel_metrics: flops (SASS "
                     "floating-point instructions), dram (DRAM bytes read and written), or "
                     "flops,dram. Every kernel is replayed and runs alone: the program runs "
                     "much slower and its kernel times are not representative");
  // The command is everything after "--" (split off before parsing, below),
  // or everything from the first argument that is not a record option.
  record->prefix_command();
  record->footer("Usage: damscope record [OPTIONS] -- CMD ARGS...");

  AttachArgs attach_args;
  CLI::App* attach = app.add_subcommand(
      "attach",
      "Record a window of a process started with `damscope record --on-demand`: for a duration, "
      "a number of steps, or until Ctrl-C. Each window is its own file.");
  attach->add_option("pid", attach_args.pid, "Process id")->required();
  auto* duration =
      attach->add_option("--duration", attach_args.duration_s, "Window length in seconds");
  auto* steps = attach->add_option("--steps", attach_args.steps,
                                   "Close the window after N step ranges (step, ProfilerStep#N)");
  duration->excludes(steps);
  attach->add_option("-o,--output", attach_args.output,
                     "Output trace file (default: the process's <run>.capture<N>.db)");

  // `record ... -- CMD ARGS`: CMD's arguments are never damscope's, so they
  // are taken out before CLI11 sees them.
  std::vector<std::string> command_after_separator;
  if (argc > 1 && std::string_view(argv[1]) == "record") {
    for (int j = 2; j < argc; ++j) {
      if (std::string_view(argv[j]) == "--") {
        command_after_separator.assign(argv + j + 1, argv + argc);
        argc = j;
        break;
      }
    }
  }

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
  if (*export_cmd) return runExport(export_args);
  if (*diff) return runDiff(diff_args);
  if (*ops) return runOps(ops_args);
  if (*plan) return runPlan(plan_args);
  if (*report) return runReport(report_args);
  if (*record) {
    record_args.command =
        command_after_separator.empty() ? record->remaining() : command_after_separator;
    return runRecord(record_args);
  }
  if (*attach) return runAttach(attach_args);
  return kExitBadInput;
}
