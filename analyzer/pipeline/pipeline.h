// The analysis pipeline: the one way every front end (the CLI's analyze,
// report, export and diff, the GUI's loader) turns trace files into a
// RunResult (DESIGN.md "The flow"). A front end parses its flags, calls
// openRun, and renders what it gets.
//
//   for each input, options.jobs ranks at a time (parallel_ranks.h):
//     classify it once (rank_source.h): its format, its run.db, what that holds
//     if its stored results count (useStoredResults): read them back
//     else: read its events from its run.db, or import the trace; analyse
//       them (analyzer/analyses/rank_analysis.h) and, where it has a store,
//       store its results (a fresh import's events are written on a second
//       thread while the analysis runs)
//     keep its RankResult, and its events where the front end needs them
//   cross-rank: with several ranks, stragglers, collective skew and the
//     findings on them, added to each rank's result and stored in its run.db;
//     with StoredResults::kShow and every rank read back, the comparison
//     stored with them instead
//
// Each input's database is opened once for the rank's work (and once more
// for storing the comparison, in a run of several ranks that computes one).
// At most options.jobs ranks' events are in memory at a time, besides those
// the front end keeps (EventsNeeded). Progress goes to the Progress the
// caller gives (stage, fraction of the whole run, the input); cancellation
// is checked inside importers and between stages, and a cancelled or failed
// run leaves no partial file: a fresh import stays under a temporary name
// (base/pending_file.h) until the whole run is stored, and results go into
// an existing run.db in transactions (the rank's own results once it is
// analysed, then what the comparison with the other ranks adds), so it holds
// either its earlier results or complete new ones.
//
// The pipeline knows nothing of command-line flags: options are named for
// what they do (pipeline_options.h), and errors carry a code (base/result.h)
// that front ends turn into their own advice.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/analyses/cross_rank.h"
#include "analyzer/pipeline/pipeline_options.h"
#include "analyzer/pipeline/rank_source.h"
#include "analyzer/result/analysis_result.h"
#include "base/progress.h"
#include "base/result.h"
#include "trace/tables.h"

namespace damscope {

// Which ranks' events a front end needs besides the results.
enum class EventsNeeded : uint8_t {
  kNone,       // results only: analyze, diff, the Markdown and JSON reports
  kFirstRank,  // and the first rank's: the HTML report's step strip, the Chrome export
  kEveryRank,  // and every rank's: the GUI draws them side by side
};

// How a rank's result came to be.
enum class RankOrigin : uint8_t {
  kAnalysed,  // analysed now from its events (and stored where RankResult::store says)
  kReadBack,  // its stored results read back
};

struct AnalysedRun {
  RunResult run;  // ranks in input order; each RankResult::store says where its results are
  // The events EventsNeeded asked for: none, run.ranks[0]'s, or every rank's
  // in input order; as the analyses saw them (a CPU run with its cpu
  // device's ops, cpu_device_work.h), so the results' event ids name them.
  std::vector<TraceTables> tables;
  std::vector<RankOrigin> origins;  // one per rank
};

Result<AnalysedRun> openRun(const std::vector<std::string>& inputs, const PipelineOptions& options,
                            EventsNeeded need, const Progress& progress = {});

// The cross-rank analysis's input (cross_rank.h) from the ranks' results, in
// their order: what openRun compared them on, for a front end that matches
// their collectives again (matchCollectives).
std::vector<RankTimeline> crossRankTimelines(const std::vector<RankResult>& ranks);

}  // namespace damscope
