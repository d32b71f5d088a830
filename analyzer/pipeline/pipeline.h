// The analysis pipeline: the one way every front end (the CLI, the GUI, the
// reports) turns trace files into a RunResult (DESIGN.md "The flow"):
//
//   for each input, one rank at a time:
//     open it: a run.db is read; a Kineto JSON or nsys export is imported,
//       or the run.db an earlier import made of it is reused
//     analyse it (analyzer/analyses/rank_analysis.h) and keep its RankResult
//       and what the cross-rank analysis needs; the event tables are dropped
//   cross-rank: stragglers, collective skew, and the findings on them
//   store: each rank's results into its run.db
//
// Only one rank's events are in memory at a time. Progress goes to the
// Progress the caller gives (stage, fraction of the whole run, the input);
// cancellation is checked inside importers and between analyses, and a
// cancelled or failed run leaves no partial file: a fresh import stays under
// a temporary name (trace/pending_file.h) until its results are stored in it,
// and results go into an existing run.db in one transaction, after every rank
// is analysed.
//
// The pipeline knows nothing of command-line flags: options are named for
// what they do, and errors carry a code (trace/result.h) that front ends turn
// into their own advice.
#pragma once

#include <string>
#include <vector>

#include "analyzer/result/analysis_result.h"
#include "trace/progress.h"
#include "trace/result.h"

namespace damscope {

struct PipelineOptions {
  AnalysisOptions analysis;
  bool store = true;     // write imports and results to run.db files
  std::string output;    // run.db for an imported trace (one input only); empty: the default
  bool replace = false;  // import again over a run.db that holds another import
};

// Analyses `inputs` as the ranks of one run, in input order; each rank's
// RankResult::store says where its results went.
Result<RunResult> analyzeRun(const std::vector<std::string>& inputs, const PipelineOptions& options,
                             const Progress& progress = {});

// The results an earlier analyzeRun stored, read back without analysing.
Result<RankResult> readStoredRank(const std::string& run_db);
Result<RunResult> readStoredRun(const std::vector<std::string>& run_dbs);

// Where an imported trace goes by default: its name without the trace
// suffixes, with .db, in the current directory
// ("traces/resnet50.pt.trace.json.gz" -> "resnet50.db").
std::string defaultStoreName(const std::string& input);

}  // namespace damscope
