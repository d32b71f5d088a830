// `damscope analyze RUN.db|TRACE.json.gz|NSYS.sqlite [more ranks...]`: checks
// the flags, runs the analysis pipeline (analyzer/pipeline/pipeline.h) with a
// progress line and Ctrl-C as its cancel button (cli/interrupt.h), and prints
// the diagnosis: a human summary, or JSON with --format json
// (docs/analysis-json.md).
#include <fmt/format.h>

#include <cmath>
#include <tuple>
#include <vector>

#include "analyzer/pipeline/pipeline.h"
#include "analyzer/report/result_json.h"
#include "analyzer/report/result_text.h"
#include "analyzer/report/text_format.h"
#include "cli/commands.h"
#include "cli/long_work.h"
#include "cli/window_flag.h"

namespace damscope {
namespace {

bool given(double v) {
  return !std::isnan(v);
}

// --model, --params, --layers, --seq, --d-model, --heads: the model MFU and
// the memory estimate count.
Status modelOptions(const AnalyzeArgs& args, AnalysisOptions& options) {
  const bool shape = args.layers > 0 || args.seq > 0 || args.d_model > 0 || args.heads > 0;
  if (args.model.empty() && !given(args.params)) {
    if (shape) return Error("--layers/--seq/--d-model/--heads need --params or --model");
    return okStatus();
  }
  ModelShape m;
  if (!args.model.empty()) {
    auto preset = findModelPreset(args.model);
    if (!preset.ok()) return Error("--model: " + preset.error().message());
    m = preset.value();
  } else {
    m.name = "the given model";
  }
  if (given(args.params)) {
    if (!(args.params > 0 && std::isfinite(args.params))) {
      return Error("--params must be a positive number");
    }
    m.params = args.params;
  }
  for (const auto& [value, field, flag] :
       {std::tuple{args.layers, &m.layers, "--layers"}, std::tuple{args.seq, &m.seq_len, "--seq"},
        std::tuple{args.d_model, &m.d_model, "--d-model"},
        std::tuple{args.heads, &m.heads, "--heads"}}) {
    if (value < 0) return Error(std::string(flag) + " must be positive");
    if (value > 0) *field = value;
  }
  options.mfu.model = m;
  return okStatus();
}

// --gpu, --peak-tflops, --peak-bw-gbs, --precision: the peak MFU and the
// roofline measure against.
Status deviceOptions(const AnalyzeArgs& args, AnalysisOptions& options) {
  if (!args.gpu.empty()) {
    auto match = findDeviceSpecByName(args.gpu);
    if (!match.ok()) return Error("--gpu: " + match.error().message());
    options.device.device = match->spec;
  }
  // Up to 100 PFLOP/s and 100 TB/s: no single device comes near.
  if (given(args.peak_tflops)) {
    if (!(args.peak_tflops > 0 && args.peak_tflops <= 1e5)) {
      return Error("--peak-tflops must be between 0 and 100000 TFLOP/s");
    }
    options.device.peak_flops_per_s = args.peak_tflops * 1e12;
  }
  if (given(args.peak_bw_gbs)) {
    if (!(args.peak_bw_gbs > 0 && args.peak_bw_gbs <= 1e5)) {
      return Error("--peak-bw-gbs must be between 0 and 100000 GB/s");
    }
    options.device.bandwidth_bytes_per_s = args.peak_bw_gbs * 1e9;
  }
  if (!args.precision.empty()) {
    options.precision = precisionFromText(args.precision);
    if (!options.precision) {
      return Error("--precision " + args.precision +
                   ": expected fp32, tf32, fp16, bf16, fp8 or fp64");
    }
  }
  return okStatus();
}

// The options key (PipelineOptions::options_key): every flag that changes a
// rank's results, and the version of damscope that computed them.
std::string optionsKey(const AnalyzeArgs& args) {
  std::string thresholds;
  for (const std::string& t : args.thresholds) thresholds += t + ",";
  return fmt::format(
      "damscope {}; window={}; tokens_per_step={}; samples_per_step={}; thresholds={}; model={}; "
      "params={}; layers={}; seq={}; d_model={}; heads={}; gpu={}; peak_tflops={}; "
      "peak_bw_gbs={}; precision={}",
      DAMSCOPE_VERSION, args.window, args.tokens_per_step, args.samples_per_step, thresholds,
      args.model, args.params, args.layers, args.seq, args.d_model, args.heads, args.gpu,
      args.peak_tflops, args.peak_bw_gbs, args.precision);
}

// The pipeline's options from the flags; an error names the flag.
Result<PipelineOptions> pipelineOptions(const AnalyzeArgs& args) {
  PipelineOptions options;
  Result<WindowMode> window = windowModeFlag(args.window);
  if (!window.ok()) return window.error();
  options.analysis.window.mode = *window;
  if (args.format != "text" && args.format != "json") {
    return Error("--format " + args.format + ": expected text or json");
  }
  if (!args.output.empty() && args.inputs.size() > 1) {
    return Error("-o/--output names one run.db: it cannot be used with several inputs");
  }
  // At most 1e12 a step: the largest published steps hold 16M tokens (Llama
  // 3 405B, arXiv:2407.21783, 3.4.1); more would put figures such as
  // tokens/s out of any range they can have (1e308 made them infinite).
  constexpr double kMaxPerStep = 1e12;
  for (double v : {args.tokens_per_step, args.samples_per_step}) {
    if (!std::isnan(v) && !(v > 0 && v <= kMaxPerStep)) {
      return Error("--tokens-per-step/--samples-per-step must be positive numbers of at most 1e12");
    }
  }
  options.analysis.steps.tokens_per_step = args.tokens_per_step;
  options.analysis.steps.samples_per_step = args.samples_per_step;
  for (const std::string& t : args.thresholds) {
    if (Status s = overrideThreshold(options.analysis.findings.rules, t); !s.ok()) {
      return Error("--threshold " + s.error().message());
    }
  }
  DAMSCOPE_RETURN_IF_ERROR(modelOptions(args, options.analysis));
  DAMSCOPE_RETURN_IF_ERROR(deviceOptions(args, options.analysis));
  if (args.jobs < 0) return Error("-j/--jobs must be 0 (one per core) or more");
  options.store = !args.no_store;
  options.output = args.output;
  options.replace = args.force;
  options.jobs = args.jobs;
  options.options_key = optionsKey(args);
  options.stored_results =
      args.reanalyze || args.force ? StoredResults::kIgnore : StoredResults::kReuseSameOptions;
  options.summaries_only = true;  // neither the text nor the JSON shows every bubble
  return options;
}

}  // namespace

int runAnalyze(const AnalyzeArgs& args) {
  auto options = pipelineOptions(args);
  if (!options.ok()) {
    printError(options.error().message());
    return kExitBadInput;
  }
  finalizeUnfinishedRecordings(args.inputs);
  Result<AnalysedRun> opened = runLongWork("analyzing", [&](const Progress& progress) {
    return openRun(args.inputs, options.value(), EventsNeeded::kNone, progress);
  });
  if (!opened.ok()) {
    return printFailure(opened.error(), "use -o to choose another file, or --force to replace it");
  }
  const RunResult& run = opened->run;

  if (args.format == "json") {
    fmt::print("{}\n", runJsonText(run));
    return kExitOk;
  }
  SummaryTextOptions text;
  text.more_findings = "in --format json and the findings table";
  text.remedies[static_cast<size_t>(Remedy::kDevice)] = "--gpu NAME or --peak-tflops X";
  text.remedies[static_cast<size_t>(Remedy::kModel)] = "--model NAME or --params N";
  text.remedies[static_cast<size_t>(Remedy::kTokens)] = "--tokens-per-step N";
  fmt::print("{}", terminalSafe(formatRunSummary(run, text)));
  std::vector<std::string> stores;
  for (const RankResult& r : run.ranks) {
    if (!r.store.empty()) stores.push_back(r.store);
  }
  if (stores.size() > 2) {
    fmt::print("\nResults stored in each rank's run.db ({} files, {} ... {})\n", stores.size(),
               terminalName(stores.front()), terminalName(stores.back()));
  } else {
    for (const std::string& store : stores) {
      fmt::print(
          "\nResults stored in {} (tables steps, breakdown, gaps, scorecard, findings, summary, "
          "...)\n",
          terminalName(store));
    }
  }
  return kExitOk;
}

}  // namespace damscope
