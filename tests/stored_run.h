// What run.db files hold, read back through the pipeline's one door
// (analyzer/pipeline/pipeline.h) for tests that check what was stored: an
// error, not an analysis, when a file holds no results.
#pragma once

#include <string>
#include <vector>

#include "analyzer/pipeline/pipeline.h"

namespace damscope::testing {

inline Result<RunResult> readStoredRun(const std::vector<std::string>& run_dbs) {
  for (const std::string& db : run_dbs) {
    PipelineOptions probe;
    probe.store = false;
    DAMSCOPE_ASSIGN_OR_RETURN(RankSource source, classifyRank(db, probe));
    if (source.file.format != TraceFormat::kTraceStore || !source.holds_results) {
      return Error(db + ": holds no stored results");
    }
  }
  DAMSCOPE_ASSIGN_OR_RETURN(AnalysedRun opened,
                            openRun(run_dbs, PipelineOptions{}, EventsNeeded::kNone));
  return std::move(opened.run);
}

inline Result<RankResult> readStoredRank(const std::string& run_db) {
  DAMSCOPE_ASSIGN_OR_RETURN(RunResult run, readStoredRun({run_db}));
  return std::move(run.ranks.front());
}

}  // namespace damscope::testing
