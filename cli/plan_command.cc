// `damscope plan --model NAME --gpu KEY [--gpus N] ...`: the napkin math
// before a run (analyzer/planner/training_plan.h), as text or JSON
// (docs/plan.md). Reads no file: every input is a flag, and a wrong one is
// exit 2 with the flag named.
//
// `damscope plan RUN [--what-if KEY=VALUE ...]`: what-if on a recorded run
// (analyzer/planner/what_if.h), the run opened as report opens it (results
// stored earlier are read back, else it is analysed and stored).
#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "analyzer/pipeline/pipeline.h"
#include "analyzer/planner/training_plan.h"
#include "analyzer/planner/what_if.h"
#include "analyzer/report/plan_report.h"
#include "analyzer/report/what_if_report.h"
#include "cli/commands.h"
#include "cli/long_work.h"

namespace damscope {
namespace {

// "40" or "30-50", percentages of the peak.
Status parseUtilization(const std::string& text, PlanRequest& request) {
  const size_t dash = text.find('-');
  try {
    size_t used = 0;
    const double low = std::stod(text.substr(0, dash), &used);
    if (used != (dash == std::string::npos ? text.size() : dash)) throw std::invalid_argument("");
    double high = low;
    if (dash != std::string::npos) {
      const std::string rest = text.substr(dash + 1);
      high = std::stod(rest, &used);
      if (used != rest.size()) throw std::invalid_argument("");
    }
    request.utilization_low = low / 100;
    request.utilization_high = high / 100;
  } catch (const std::exception&) {
    return Error("--mfu " + text + ": expected LOW or LOW-HIGH, percentages (30-50)");
  }
  return {};
}

Result<ModelShape> modelOf(const PlanArgs& args) {
  ModelShape m;
  if (!args.model.empty()) {
    DAMSCOPE_ASSIGN_OR_RETURN(m, findModelPreset(args.model));
  } else if (std::isnan(args.params)) {
    return Error("--model or --params: the model's size is needed");
  } else {
    m.name = "model";
  }
  if (!std::isnan(args.params)) m.params = args.params;
  const auto set = [](std::optional<int64_t>& field, int64_t value) {
    if (value != 0) field = value;
  };
  set(m.layers, args.layers);
  set(m.d_model, args.d_model);
  set(m.heads, args.heads);
  set(m.seq_len, args.seq);
  set(m.vocab, args.vocab);
  return m;
}

Result<PlanRequest> requestOf(const PlanArgs& args) {
  PlanRequest r;
  DAMSCOPE_ASSIGN_OR_RETURN(r.model, modelOf(args));
  if (args.gpu.empty()) return Error("--gpu: the device's row is needed (docs/devices.md)");
  DAMSCOPE_ASSIGN_OR_RETURN(DeviceSpecMatch device, findDeviceSpecByName(args.gpu));
  r.device = device.spec;
  const std::optional<Precision> precision = precisionFromText(args.precision);
  if (!precision) return Error("--precision " + args.precision + ": expected fp32, tf32, fp16, bf16, fp8 or fp64");
  r.precision = *precision;
  const std::optional<Checkpointing> checkpointing = checkpointingFromText(args.checkpointing);
  if (!checkpointing) {
    return Error("--checkpointing " + args.checkpointing + ": expected none, selective or full");
  }
  r.checkpointing = *checkpointing;
  r.micro_batch = args.batch;
  r.grad_accum = args.grad_accum;
  r.zero_stage = args.zero;
  r.flash_attention = args.flash_attention;
  r.master_weights = !args.no_master_weights;
  r.gpus = args.gpus;
  r.nodes = args.nodes;
  if (!std::isnan(args.link_gbs)) r.link_bytes_per_s = args.link_gbs * 1e9;
  if (Status ok = parseUtilization(args.mfu, r); !ok.ok()) return ok.error();
  if (!std::isnan(args.tokens)) r.tokens = args.tokens;
  if (!std::isnan(args.gpu_watts)) r.gpu_watts = args.gpu_watts;
  r.host_watts = args.host_watts;
  r.usd_per_gpu_hour = args.usd_per_gpu_hour;
  r.kg_co2_per_kwh = args.co2_kg_per_kwh;
  return r;
}

Result<std::vector<WhatIf>> whatIfsOf(const PlanArgs& args) {
  std::vector<WhatIf> requests;
  for (const std::string& text : args.what_ifs) {
    DAMSCOPE_ASSIGN_OR_RETURN(WhatIf request, parseWhatIf(text));
    requests.push_back(request);
  }
  return requests;
}

int runWhatIf(const PlanArgs& args) {
  Result<std::vector<WhatIf>> requests = whatIfsOf(args);
  if (!requests.ok()) {
    printError(requests.error().message());
    return kExitBadInput;
  }
  Result<AnalysedRun> opened = runLongWork("opening the run", [&](const Progress& progress) {
    return openRun({args.run}, PipelineOptions{}, EventsNeeded::kNone, progress);
  });
  if (!opened.ok()) return printFailure(opened.error());
  const RankResult& rank = opened->run.ranks.front();
  if (requests->empty()) *requests = applicableWhatIfs(rank);
  Result<WhatIfReport> report = estimateWhatIfs(rank, *requests);
  if (!report.ok()) {
    printError(report.error().message());
    return kExitBadInput;
  }
  if (args.format == "json") {
    fmt::print("{}\n", whatIfJson(*report).dump(2));
  } else {
    fmt::print("{}", whatIfText(*report));
  }
  return kExitOk;
}

}  // namespace

int runPlan(const PlanArgs& args) {
  if (args.format != "text" && args.format != "json") {
    printError("--format " + args.format + ": expected text or json");
    return kExitBadInput;
  }
  if (!args.run.empty()) return runWhatIf(args);
  Result<PlanRequest> request = requestOf(args);
  if (!request.ok()) {
    printError(request.error().message());
    return kExitBadInput;
  }
  Result<TrainingPlan> plan = planTraining(*request);
  if (!plan.ok()) {
    printError(plan.error().message());
    return kExitBadInput;
  }
  if (args.format == "json") {
    fmt::print("{}\n", planJson(*plan).dump(2));
  } else {
    fmt::print("{}", planText(*plan));
  }
  return kExitOk;
}

}  // namespace damscope
