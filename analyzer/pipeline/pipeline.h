// The analysis pipeline: the one way every front end (the CLI, the GUI, the
// reports) turns trace files into a RunResult (DESIGN.md "The flow"):
//
//   for each input, options.jobs ranks at a time (analyzer/pipeline/parallel_ranks.h):
//     open it: a run.db is read; a Kineto JSON or nsys export is imported,
//       or the run.db an earlier import made of it is reused; or, with
//       reuse_stored_results, the results stored in it are read instead
//     analyse it (analyzer/analyses/rank_analysis.h), store its results and
//       keep its RankResult (which holds what the cross-rank analysis needs);
//       the event tables are dropped
//   cross-rank: stragglers, collective skew, and the findings on them, added
//     to each rank's result and stored run.db
//
// At most options.jobs ranks' events are in memory at a time. Progress goes to the
// Progress the caller gives (stage, fraction of the whole run, the input);
// cancellation is checked inside importers and between analyses, and a
// cancelled or failed run leaves no partial file: a fresh import stays under
// a temporary name (base/pending_file.h) until the whole run is stored, and
// results go into an existing run.db in transactions (the rank's own results
// once it is analysed, then what the comparison with the other ranks adds),
// so it holds either its earlier results or complete new ones.
//
// Front ends that need a rank's events as well as its results (the Chrome
// trace export) open it with openAnalysedTrace; those that only read results
// (the diff) take resultsOfRun. Both read results stored earlier rather than
// analyse again, and analyse (and store) what has none.
//
// The pipeline knows nothing of command-line flags: options are named for
// what they do, and errors carry a code (base/result.h) that front ends turn
// into their own advice.
#pragma once

#include <string>
#include <vector>

#include "analyzer/result/analysis_result.h"
#include "base/progress.h"
#include "base/result.h"
#include "trace/tables.h"

namespace damscope {

struct PipelineOptions {
  AnalysisOptions analysis;
  bool store = true;     // write imports and results to run.db files
  std::string output;    // run.db for an imported trace (one input only); empty: the default
  bool replace = false;  // import again over a run.db that holds another import
  // Ranks analysed at once, each on a thread of its own and holding its own
  // events: 0 is one per hardware thread. Results do not depend on it.
  int jobs = 1;
  // Names the analysis options, as text that differs whenever the results
  // would (the CLI's analysis flags and damscope's version); stored with the
  // results. Results stored under another key are never reused.
  std::string options_key;
  // Take a rank's results stored earlier under options_key instead of
  // analysing its events again: ranks analysed one by one (on their own
  // nodes, say) are then put together reading no event table, only the
  // comparison between ranks is computed.
  bool reuse_stored_results = false;
  // Each rank's result without its bubbles (RankResult::gaps; stored in its
  // run.db all the same): what the text and JSON outputs need, so that a run
  // of a thousand ranks holds a thousand summaries, not a thousand gap lists.
  bool summaries_only = false;
};

// Analyses `inputs` as the ranks of one run, in input order; each rank's
// RankResult::store says where its results went.
Result<RunResult> analyzeRun(const std::vector<std::string>& inputs, const PipelineOptions& options,
                             const Progress& progress = {});

// One rank's events with its results: what an output that draws the events
// needs (the Chrome trace export). Results stored earlier are read back (a
// run.db analysed before, or a trace whose run.db from an earlier analysis
// holds them); otherwise `input` is analysed as analyzeRun analyses a run of
// one rank, and stored where analyzeRun stores.
struct AnalysedTrace {
  TraceTables tables;
  RankResult result;
  bool analysed = false;  // analysed now rather than read back
};
Result<AnalysedTrace> openAnalysedTrace(const std::string& input, const PipelineOptions& options,
                                        const Progress& progress = {});

// Every rank's events with the run's results: what a front end that draws
// several ranks side by side needs (the GUI). Results stored earlier are read
// back when every input has them; otherwise the run is analysed (and stored)
// as analyzeRun does, keeping each rank's events. All ranks' events stay in
// memory, unlike analyzeRun's one at a time.
struct AnalysedRun {
  RunResult run;
  std::vector<TraceTables> tables;  // run.ranks[i]'s events
};
Result<AnalysedRun> openAnalysedRun(const std::vector<std::string>& inputs,
                                    const PipelineOptions& options, const Progress& progress = {});

// The results of a run: read back when every input has stored results (as
// openAnalysedTrace finds them), else analyzeRun(inputs, ...).
Result<RunResult> resultsOfRun(const std::vector<std::string>& inputs,
                               const PipelineOptions& options, const Progress& progress = {});

// The results an earlier analyzeRun stored, read back without analysing.
Result<RankResult> readStoredRank(const std::string& run_db);
Result<RunResult> readStoredRun(const std::vector<std::string>& run_dbs);

// Where an imported trace goes by default: its name without the trace
// suffixes, with .db, in the current directory
// ("traces/resnet50.pt.trace.json.gz" -> "resnet50.db").
std::string defaultStoreName(const std::string& input);

}  // namespace damscope
