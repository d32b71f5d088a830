// What a front end asks of the analysis pipeline (analyzer/pipeline/
// pipeline.h): the analysis options, where results go, and what results
// stored earlier count for. Named for what they do, not for the CLI's flags.
#pragma once

#include <cstdint>
#include <string>

#include "analyzer/analyses/rank_analysis.h"

namespace damscope {

// What a rank's results stored earlier (in its run.db) are taken for. The
// one place this is decided is useStoredResults (rank_source.h).
enum class StoredResults : uint8_t {
  // They are the rank's results, whatever options computed them: what the
  // user analysed last, shown as it was stored (report, export, diff, the
  // GUI). When every rank's are, the comparison between the ranks stored
  // with them is shown too.
  kShow,
  // They stand for an analysis only when stored under the same options_key
  // (analyze): ranks analysed one by one (on their own nodes, say) are then
  // put together reading no event table, and only the comparison between
  // the ranks given is computed anew.
  kReuseSameOptions,
  // Every rank is analysed from its events (analyze --reanalyze, --force).
  kIgnore,
};

struct PipelineOptions {
  AnalysisOptions analysis;
  // Write imports and results to run.db files: a run.db input gets its
  // results stored in it, a trace is imported into a run.db (output, else
  // defaultStoreName) with its results. False: nothing is written.
  bool store = true;
  // False: a trace that is not a run.db is imported into memory only, and
  // no run.db of an earlier import is looked for (the GUI: opening a file
  // never writes beside it). Run.db inputs still get their results stored.
  bool store_imports = true;
  std::string output;    // run.db for an imported trace (one input only); empty: the default
  bool replace = false;  // import again over a run.db that holds another import
  // Ranks analysed at once, each on a thread of its own and holding its own
  // events: 0 is one per hardware thread. Results do not depend on it.
  int jobs = 1;
  // Names the analysis options, as text that differs whenever the results
  // would (the CLI's analysis flags and damscope's version); stored with the
  // results (see StoredResults::kReuseSameOptions).
  std::string options_key;
  StoredResults stored_results = StoredResults::kShow;
  // Each rank's result without its bubbles (RankResult::gaps; stored in its
  // run.db all the same): what the text and JSON outputs need, so that a run
  // of a thousand ranks holds a thousand summaries, not a thousand gap lists.
  bool summaries_only = false;
};

}  // namespace damscope
