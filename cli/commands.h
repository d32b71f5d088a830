// The `damscope` subcommands. Each returns the process exit code: 0 on
// success, 2 on bad input (after printing one line naming the file and what
// is wrong), 1 on an internal failure, 130 when interrupted.
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "collector/attach_client.h"
#include "collector/record_launcher.h"
#include "base/result.h"

namespace damscope {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitBadInput = 2;
constexpr int kExitCancelled = 130;  // 128 + SIGINT, as shells report Ctrl-C

// The exit code for an error the libraries returned, by its code.
inline int exitCodeOf(const Error& error) {
  switch (error.code()) {
    case ErrorCode::kBadInput:
    case ErrorCode::kOutputExists:
      return kExitBadInput;
    case ErrorCode::kCancelled:
      return kExitCancelled;
    case ErrorCode::kFailure:
      return kExitFailure;
  }
  return kExitFailure;
}

struct ImportArgs {
  std::string input;
  std::string output;  // empty: derived from the input's name, in the current directory
  bool force = false;
};
int runImport(const ImportArgs& args);

struct InfoArgs {
  std::string input;
  bool json = false;
};
int runInfo(const InfoArgs& args);

struct AnalyzeArgs {
  std::vector<std::string> inputs;  // one per rank: run.db, Kineto JSON or nsys SQLite
  std::string output;               // run.db for an imported trace (one input only)
  std::string format = "text";      // text | json
  std::string window = "hta";       // hta | all
  double tokens_per_step = std::numeric_limits<double>::quiet_NaN();
  double samples_per_step = std::numeric_limits<double>::quiet_NaN();
  std::vector<std::string> thresholds;  // RULE=VALUE
  // The model, for MFU: a preset, and/or its size and shape.
  std::string model;
  double params = std::numeric_limits<double>::quiet_NaN();
  int64_t layers = 0, seq = 0, d_model = 0, heads = 0;
  // The device's peak: a row of the device table, or figures.
  std::string gpu;
  double peak_tflops = std::numeric_limits<double>::quiet_NaN();
  double peak_bw_gbs = std::numeric_limits<double>::quiet_NaN();
  std::string precision;  // fp32 | tf32 | fp16 | bf16 | fp8 | fp64
  bool no_store = false;  // analyse in memory, write nothing
  bool force = false;     // re-import over an existing run.db
  int jobs = 0;           // ranks analysed at once; 0: one per core
  bool reanalyze = false;  // analyse events even where results are stored
};
int runAnalyze(const AnalyzeArgs& args);

// `damscope export RUN --chrome out.json[.gz]`: one rank's events and analysis
// as a Chrome trace (analyzer/report/chrome_trace.h).
struct ExportArgs {
  std::string input;   // run.db or any trace analyze accepts
  std::string chrome;  // the Chrome trace to write; .gz compresses
  bool no_store = false;
  bool force = false;  // replace an existing output
};
int runExport(const ExportArgs& args);

// `damscope report RUN... [-o FILE]`: the diagnosis as an HTML, Markdown or
// JSON document (analyzer/report/report_html.h).
struct ReportArgs {
  std::vector<std::string> inputs;  // one per rank; the first is shown in full
  std::string output;               // "" : NAME-report.html here; "-": stdout
  std::string format;               // html | md | json; "": from the output's suffix
  bool no_store = false;
  bool force = false;  // replace an existing output
};
int runReport(const ReportArgs& args);

// `damscope diff BEFORE AFTER`: two runs side by side (analyzer/result/run_diff.h).
struct DiffArgs {
  std::vector<std::string> runs;    // BEFORE AFTER, one file each
  std::vector<std::string> before;  // or several ranks a side
  std::vector<std::string> after;
  std::string format = "text";  // text | json
  bool no_store = false;
};
int runDiff(const DiffArgs& args);

// `damscope ops RUN... [--by ...]`: where the time goes, by op, module,
// range or GPU annotation (analyzer/analyses/op_breakdown.h).
struct OpsArgs {
  std::vector<std::string> inputs;  // run.db or trace; one table each
  std::string by = "op";            // op | leaf-op | module | range | annotation
  std::string sort = "gpu";         // gpu | cpu | calls
  bool shapes = false;              // a row per input shape
  int64_t top = 20;                 // rows shown; 0: all
  std::string format = "text";      // text | json
  std::string window = "hta";       // hta | all
  bool no_store = false;
};
int runOps(const OpsArgs& args);

// `damscope plan`: memory, time, cost and the network wall before a run
// (analyzer/planner/training_plan.h, docs/plan.md). NaN or 0: not given.
struct PlanArgs {
  std::string model;  // a preset; the shape flags override its fields
  double params = std::numeric_limits<double>::quiet_NaN();
  int64_t layers = 0, d_model = 0, heads = 0, seq = 0, vocab = 0;
  std::string gpu;
  int64_t gpus = 1, nodes = 0;
  double link_gbs = std::numeric_limits<double>::quiet_NaN();
  std::string precision = "bf16";
  int64_t batch = 8, grad_accum = 1;
  std::string checkpointing = "none";
  int zero = 0;
  bool flash_attention = false;
  bool no_master_weights = false;
  std::string mfu = "30-50";  // LOW[-HIGH] percent
  double tokens = std::numeric_limits<double>::quiet_NaN();
  double gpu_watts = std::numeric_limits<double>::quiet_NaN();
  // The defaults are assumptions the plan prints beside what they decide: a
  // host's share of 200 W per node; a GPU-hour at USD 2.00 (an assumed rate:
  // cloud prices vary several-fold by provider and commitment); 0.48 kg CO2
  // per kWh, the world's 2023 average (Ember, "Global Electricity Review
  // 2024": 480 gCO2/kWh).
  double host_watts = 200;
  double usd_per_gpu_hour = 2.0;
  double co2_kg_per_kwh = 0.48;
  std::string format = "text";  // text | json
  // What-if on a recorded run (analyzer/planner/what_if.h) instead of a plan
  // from the flags above: the run, and KEY=VALUE requests in order.
  std::string run;
  std::vector<std::string> what_ifs;
};
int runPlan(const PlanArgs& args);

// `damscope record [options] -- CMD ARGS...`: runs CMD with the collector
// injected; returns CMD's exit code (and dies of CMD's signal if one killed it).
using RecordArgs = collector::RecordOptions;
int runRecord(const RecordArgs& args);

// `damscope attach PID [--duration S | --steps N] [-o run.db]`.
using AttachArgs = collector::AttachOptions;
int runAttach(const AttachArgs& args);

// Finalizes each of `paths` that is a collector trace its recorder did not
// finalize (killed, or stopped while finalizing), saying so on stderr; a
// file that cannot be finalized is left as it is, with the reason
// (cli/unfinished_recordings.cc).
void finalizeUnfinishedRecordings(const std::vector<std::string>& paths);

// Prints "damscope: <message>" on stderr.
void printError(const std::string& message);

}  // namespace damscope
