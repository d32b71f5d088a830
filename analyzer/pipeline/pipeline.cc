// The analysis pipeline: see pipeline.h.
#include "analyzer/pipeline/pipeline.h"

#include <filesystem>
#include <map>
#include <optional>

#include "analyzer/analyses/cpu_device_work.h"
#include "analyzer/importers/trace_import.h"
#include "analyzer/report/result_rows.h"
#include "trace/analysis_store.h"
#include "trace/pending_file.h"
#include "trace/trace_reader.h"
#include "trace/trace_writer.h"

namespace damscope {
namespace {

// Shares of the whole run's progress: the ranks, then cross-rank and storing.
constexpr double kRanksShare = 0.9;
// Of one rank's share: opening (reading or importing) its trace, then analysing it.
constexpr double kOpenShare = 0.6;

bool samePath(const std::string& a, const std::string& b) {
  std::error_code ec;
  return std::filesystem::equivalent(a, b, ec) || a == b;
}

// True when `path` is a trace store an earlier import made of `input`.
bool importedFrom(const std::string& path, const std::string& input) {
  auto db = Database::open(path, Database::Mode::kReadOnly);
  if (!db.ok() || !isTraceStore(db.value())) return false;
  auto stmt = db->prepare("SELECT value FROM meta WHERE key='source_file'");
  if (!stmt.ok()) return false;
  auto row = stmt->step();
  return row.ok() && row.value() && samePath(std::string(stmt->columnText(0)), input);
}

// A trace store's events as the analyses see them: on a CPU run with the
// cpu device's ops (cpu_device_work.h), derived again on every read so that
// the stored results' kernel ids name the same rows.
Result<TraceTables> readEvents(const std::string& path, const Progress& progress) {
  DAMSCOPE_ASSIGN_OR_RETURN(TraceTables tables, readTrace(path, progress));
  deriveCpuDeviceWork(tables);
  return tables;
}

// One input, opened: its events, and where its results go.
struct OpenedRank {
  TraceTables tables;
  std::string store;                   // the run.db results go to; empty: not stored
  std::optional<PendingFile> pending;  // a fresh import, until its results are stored
};

Result<OpenedRank> openRank(const std::string& input, const PipelineOptions& options,
                            const Progress& progress) {
  OpenedRank rank;
  DAMSCOPE_ASSIGN_OR_RETURN(TraceFormat format, detectFormat(input));
  if (format == TraceFormat::kTraceStore) {
    DAMSCOPE_ASSIGN_OR_RETURN(rank.tables, readEvents(input, progress.part(0, 1, "reading")));
    if (options.store) rank.store = input;
    return rank;
  }
  const std::string store = options.output.empty() ? defaultStoreName(input) : options.output;
  std::error_code ec;
  if (options.store && std::filesystem::exists(store, ec)) {
    if (samePath(store, input)) return Error(store + ": output would overwrite the input");
    if (!options.replace) {
      if (!importedFrom(store, input)) {
        return Error(store + ": exists and was not imported from " + input,
                     ErrorCode::kOutputExists);
      }
      // Imported earlier: analyse those events.
      DAMSCOPE_ASSIGN_OR_RETURN(rank.tables, readEvents(store, progress.part(0, 1, "reading")));
      rank.store = store;
      return rank;
    }
  }
  DAMSCOPE_ASSIGN_OR_RETURN(rank.tables,
                            importTrace(input, nullptr, progress.part(0, 0.8, "importing")));
  // Stored with the import: a later read finds them and derives nothing.
  deriveCpuDeviceWork(rank.tables);
  if (options.store) {
    DAMSCOPE_ASSIGN_OR_RETURN(PendingFile file, PendingFile::create(store, /*replace=*/true));
    DAMSCOPE_RETURN_IF_ERROR(progress.checkCancelled());
    progress.part(0.8, 1, "writing").report(0);
    if (Status status = writeTraceFile(rank.tables, file.tempPath()); !status.ok()) {
      return Error(file.userMessage(status.error().message()), ErrorCode::kFailure);
    }
    rank.store = store;
    rank.pending = std::move(file);
  }
  return rank;
}

// What stays of a rank once its events are gone.
struct AnalysedRank {
  RankResult result;
  std::optional<PendingFile> pending;
  RankTimeline timeline;  // the cross-rank analysis's input
};

// Analyses an opened rank; its events stay with `opened`.
Result<AnalysedRank> analyseOpened(OpenedRank& opened, const std::string& input, size_t index,
                                   const PipelineOptions& options, CollectiveNames& names,
                                   const Progress& progress) {
  DAMSCOPE_ASSIGN_OR_RETURN(RankAnalysis analysis,
                            analyzeRank(opened.tables, options.analysis, progress));
  AnalysedRank out;
  out.result = buildRankResult(analysis, input, options.analysis);
  out.result.store = opened.store;
  out.pending = std::move(opened.pending);
  RankTimeline& t = out.timeline;
  t.rank = out.result.rank.value_or(static_cast<int32_t>(index));
  t.source = input;
  t.start_ns = out.result.window.start_ns.value_or(0);
  t.end_ns = out.result.window.end_ns.value_or(0);
  t.steps = analysedStepTimes(analysis);
  t.collectives = collectiveStarts(analysis, names);
  return out;
}

// What the inputs say of the job that cannot all be true: two of them claim
// the same rank, or they disagree on how many ranks there are. Likely traces
// of two different runs (or one given twice), which the comparison would mix.
std::vector<std::string> jobInconsistencies(const std::vector<AnalysedRank>& ranks) {
  std::vector<std::string> notes;
  std::map<int32_t, const RankResult*> by_rank;
  for (const AnalysedRank& a : ranks) {
    const RankResult& r = a.result;
    if (!r.rank) continue;
    auto [it, inserted] = by_rank.emplace(*r.rank, &r);
    if (!inserted) {
      notes.push_back("rank " + std::to_string(*r.rank) + " is claimed by both " +
                      it->second->source + " and " + r.source +
                      ": traces of two different runs, or one given twice? The comparison "
                      "treats them as two ranks");
    }
  }
  const RankResult* first_sized = nullptr;
  for (const AnalysedRank& a : ranks) {
    const RankResult& r = a.result;
    if (!r.world_size) continue;
    if (!first_sized) {
      first_sized = &r;
    } else if (*r.world_size != *first_sized->world_size) {
      notes.push_back("the traces disagree on the job's size: " + first_sized->source + " says " +
                      std::to_string(*first_sized->world_size) + " ranks, " + r.source + " says " +
                      std::to_string(*r.world_size));
      break;
    }
  }
  return notes;
}

// The cross-rank comparison and the findings on it, into each rank's result.
void compareRanks(std::vector<AnalysedRank>& ranks, const AnalysisOptions& options,
                  RunResult& run) {
  std::vector<std::string> inconsistencies = jobInconsistencies(ranks);
  std::vector<RankTimeline> timelines;
  for (AnalysedRank& r : ranks) timelines.push_back(std::move(r.timeline));
  CrossRankReport report = computeCrossRank(timelines, options.cross_rank);
  report.notes.insert(report.notes.begin(), inconsistencies.begin(), inconsistencies.end());
  for (size_t i = 0; i < ranks.size(); ++i) {
    RankResult& r = ranks[i].result;
    r.comparison = report.ranks[i];
    for (const std::string& n : report.notes) r.notes.push_back({"cross_rank", n});
    if (r.comparison->steps > 0) {
      // A straggler by collective start, not by step time (cross_rank.h):
      // the others wait about the median skew per step for it.
      const RankComparison& c = *r.comparison;
      const bool waited_for = c.straggler && c.last_to_start_pct >= 50 &&
                              c.slower_than_median_pct <= options.cross_rank.straggler_pct &&
                              c.median_step_ns > 0;
      const double wait_pct =
          waited_for ? 100.0 * double(c.median_start_skew_ns) / double(c.median_step_ns) : 0.0;
      addCrossRankFindings(r.findings, c.slower_than_median_pct, wait_pct, options.findings);
    }
  }
  run.cross_rank = std::move(report.ranks);
  run.cross_rank_notes = std::move(report.notes);
}

Status storeRank(AnalysedRank& rank, const std::vector<RankComparison>& job, size_t index) {
  const AnalysisTables rows = toAnalysisTables(rank.result, job, index);
  if (!rank.pending) return storeAnalysis(rank.result.store, rows);
  PendingFile& file = *rank.pending;
  if (Status status = storeAnalysis(file.tempPath(), rows); !status.ok()) {
    return Error(file.userMessage(status.error().message()), ErrorCode::kFailure);
  }
  return file.commit();
}

bool holdsAnalysis(const std::string& path) {
  auto db = Database::open(path, Database::Mode::kReadOnly);
  return db.ok() && isTraceStore(db.value()) && hasAnalysis(db.value());
}

// The run.db whose stored results stand for `input`: the input itself when it
// is an analysed run.db; for a trace, the run.db an earlier analysis imported
// it into, where analyzeRun would look for it. Empty: `input` must be analysed.
std::optional<std::string> storedResultsOf(const std::string& input,
                                           const PipelineOptions& options) {
  auto format = detectFormat(input);
  if (!format.ok()) return std::nullopt;  // analysing it says what is wrong
  if (format.value() == TraceFormat::kTraceStore) {
    if (holdsAnalysis(input)) return input;
    return std::nullopt;
  }
  if (!options.store || options.replace) return std::nullopt;
  const std::string store = options.output.empty() ? defaultStoreName(input) : options.output;
  std::error_code ec;
  if (std::filesystem::exists(store, ec) && !samePath(store, input) && importedFrom(store, input) &&
      holdsAnalysis(store)) {
    return store;
  }
  return std::nullopt;
}

}  // namespace

std::string defaultStoreName(const std::string& input) {
  std::string name = std::filesystem::path(input).filename().string();
  for (const char* suffix : {".gz", ".json", ".pt.trace", ".sqlite", ".sqlite3"}) {
    const std::string s(suffix);
    if (name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) {
      name.resize(name.size() - s.size());
    }
  }
  return name + ".db";
}

namespace {

// analyzeRun; with `tables`, each rank's events are kept there, in input order.
Result<RunResult> runPipeline(const std::vector<std::string>& inputs,
                              const PipelineOptions& options, const Progress& progress,
                              std::vector<TraceTables>* tables) {
  if (inputs.empty()) return Error("no trace to analyse");
  if (!options.output.empty() && inputs.size() > 1) {
    return Error(options.output + ": one run.db holds one trace, not " +
                 std::to_string(inputs.size()));
  }
  std::vector<AnalysedRank> ranks;
  CollectiveNames names;
  const double share = kRanksShare / static_cast<double>(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Progress part = progress.part(share * static_cast<double>(i),
                                        share * static_cast<double>(i + 1), "", inputs[i]);
    DAMSCOPE_ASSIGN_OR_RETURN(OpenedRank opened,
                              openRank(inputs[i], options, part.part(0, kOpenShare)));
    auto rank = analyseOpened(opened, inputs[i], i, options, names,
                              part.part(kOpenShare, 1, "analysing"));
    if (!rank.ok()) return rank.error();
    ranks.push_back(std::move(rank.value()));
    if (tables) tables->push_back(std::move(opened.tables));
  }

  RunResult run;
  if (ranks.size() > 1) {
    progress.part(kRanksShare, kRanksShare, "comparing ranks").report(0);
    compareRanks(ranks, options.analysis, run);
  }
  // Nothing has been written where a user can see it yet; from here on the
  // run is stored whole.
  DAMSCOPE_RETURN_IF_ERROR(progress.checkCancelled());
  const Progress storing = progress.part(kRanksShare, 1, "storing");
  for (size_t i = 0; i < ranks.size(); ++i) {
    if (!ranks[i].result.store.empty()) {
      storing.report(static_cast<double>(i) / static_cast<double>(ranks.size()));
      if (Status status = storeRank(ranks[i], run.cross_rank, i); !status.ok()) {
        return Error(status.error().message(), ErrorCode::kFailure);
      }
    }
    run.ranks.push_back(std::move(ranks[i].result));
  }
  storing.report(1);
  return run;
}

}  // namespace

Result<RunResult> analyzeRun(const std::vector<std::string>& inputs, const PipelineOptions& options,
                             const Progress& progress) {
  return runPipeline(inputs, options, progress, nullptr);
}

Result<RankResult> readStoredRank(const std::string& run_db) {
  DAMSCOPE_ASSIGN_OR_RETURN(AnalysisTables rows, readAnalysis(run_db));
  DAMSCOPE_ASSIGN_OR_RETURN(StoredRank stored, toRankResult(rows, run_db));
  return std::move(stored.rank);
}

Result<RunResult> readStoredRun(const std::vector<std::string>& run_dbs) {
  RunResult run;
  for (const std::string& path : run_dbs) {
    DAMSCOPE_ASSIGN_OR_RETURN(AnalysisTables rows, readAnalysis(path));
    DAMSCOPE_ASSIGN_OR_RETURN(StoredRank stored, toRankResult(rows, path));
    if (run.ranks.empty()) {
      run.cross_rank = std::move(stored.job);
      for (const AnalysisNote& n : stored.rank.notes) {
        if (n.analysis == "cross_rank") run.cross_rank_notes.push_back(n.message);
      }
    }
    run.ranks.push_back(std::move(stored.rank));
  }
  return run;
}

Result<AnalysedTrace> openAnalysedTrace(const std::string& input, const PipelineOptions& options,
                                        const Progress& progress) {
  AnalysedTrace out;
  if (const std::optional<std::string> stored = storedResultsOf(input, options)) {
    DAMSCOPE_ASSIGN_OR_RETURN(out.tables, readEvents(*stored, progress.part(0, 1, "reading")));
    DAMSCOPE_ASSIGN_OR_RETURN(out.result, readStoredRank(*stored));
    return out;
  }
  DAMSCOPE_ASSIGN_OR_RETURN(OpenedRank opened,
                            openRank(input, options, progress.part(0, kOpenShare)));
  CollectiveNames names;
  DAMSCOPE_ASSIGN_OR_RETURN(
      AnalysedRank rank,
      analyseOpened(opened, input, 0, options, names, progress.part(kOpenShare, 1, "analysing")));
  DAMSCOPE_RETURN_IF_ERROR(progress.checkCancelled());
  if (!rank.result.store.empty()) {
    if (Status status = storeRank(rank, {}, 0); !status.ok()) {
      return Error(status.error().message(), ErrorCode::kFailure);
    }
  }
  out.tables = std::move(opened.tables);
  out.result = std::move(rank.result);
  out.analysed = true;
  return out;
}

Result<AnalysedRun> openAnalysedRun(const std::vector<std::string>& inputs,
                                    const PipelineOptions& options, const Progress& progress) {
  std::vector<std::string> stores;
  for (const std::string& input : inputs) {
    std::optional<std::string> stored = storedResultsOf(input, options);
    if (!stored) break;
    stores.push_back(std::move(*stored));
  }
  AnalysedRun out;
  if (inputs.empty() || stores.size() < inputs.size()) {
    DAMSCOPE_ASSIGN_OR_RETURN(out.run, runPipeline(inputs, options, progress, &out.tables));
    return out;
  }
  const double share = 1.0 / static_cast<double>(stores.size());
  for (size_t i = 0; i < stores.size(); ++i) {
    const Progress part = progress.part(share * static_cast<double>(i),
                                        share * static_cast<double>(i + 1), "reading", inputs[i]);
    DAMSCOPE_ASSIGN_OR_RETURN(TraceTables tables, readEvents(stores[i], part));
    out.tables.push_back(std::move(tables));
  }
  DAMSCOPE_ASSIGN_OR_RETURN(out.run, readStoredRun(stores));
  return out;
}

Result<RunResult> resultsOfRun(const std::vector<std::string>& inputs,
                               const PipelineOptions& options, const Progress& progress) {
  std::vector<std::string> stores;
  for (const std::string& input : inputs) {
    std::optional<std::string> stored = storedResultsOf(input, options);
    if (!stored) return analyzeRun(inputs, options, progress);
    stores.push_back(std::move(*stored));
  }
  progress.part(0, 1, "reading").report(0);
  return readStoredRun(stores);
}

}  // namespace damscope
