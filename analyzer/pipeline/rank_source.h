// One input of a run, classified once: what the file is, which run.db holds
// its events and takes its results, and what results that run.db already
// holds. The pipeline (pipeline.h) classifies each input when it starts on
// it and works from this value to the end of the rank: the file is
// recognised once and each database opened once, and whether stored results
// stand for an analysis is decided in one function, useStoredResults.
//
// The run.db of an input:
//   - a run.db (TraceFormat::kTraceStore) is its own: its events are read
//     from it and, with PipelineOptions::store, its results stored into it;
//   - a trace (Kineto JSON, nsys export), with store and store_imports, goes
//     to PipelineOptions::output or defaultStoreName(input) in the current
//     directory. If that file exists and an earlier import of this same
//     trace made it, its events are read and its results reused as any
//     run.db's; if it holds anything else, classifying fails with
//     ErrorCode::kOutputExists, unless PipelineOptions::replace imports again
//     over it;
//   - otherwise the trace is imported into memory and nothing is stored.
#pragma once

#include <optional>
#include <string>

#include "analyzer/importers/trace_import.h"
#include "analyzer/pipeline/pipeline_options.h"
#include "base/result.h"
#include "trace/sqlite_db.h"

namespace damscope {

struct RankSource {
  TraceInput file;  // the input as given: its path, format and, for SQLite, its database
  std::optional<Database> import;  // a trace's earlier import (at `store`), opened
  // Where the rank's results go (and a fresh import's events); empty: they
  // are not stored.
  std::string store;
  bool holds_results = false;   // the run.db of events() holds results of this layout
  std::string results_options;  // the options key they were stored under

  // The run.db that holds the rank's events, opened read-only until results
  // are stored into it (Database::allowWrites); null for a trace to import.
  Database* events();
  const Database* events() const;
};

Result<RankSource> classifyRank(const std::string& input, const PipelineOptions& options);

// Whether the results stored in the source's run.db are taken for its
// analysis (PipelineOptions::stored_results says what they count for).
bool useStoredResults(const RankSource& source, const PipelineOptions& options);

// Where an imported trace goes by default: its name without the trace
// suffixes, with .db, in the current directory
// ("traces/resnet50.pt.trace.json.gz" -> "resnet50.db").
std::string defaultStoreName(const std::string& input);

}  // namespace damscope
