// The analysis pipeline: see pipeline.h.
#include "analyzer/pipeline/pipeline.h"

#include <pthread.h>

#include <filesystem>
#include <future>
#include <map>
#include <optional>

#include "analyzer/analyses/cpu_device_work.h"
#include "analyzer/importers/io/input_file.h"
#include "analyzer/importers/trace_import.h"
#include "analyzer/pipeline/parallel_ranks.h"
#include "analyzer/report/result_rows.h"
#include "trace/analysis_store.h"
#include "base/pending_file.h"
#include "trace/trace_reader.h"
#include "trace/trace_writer.h"

namespace damscope {
namespace {

// Shares of the whole run's progress: the ranks, then cross-rank and storing.
constexpr double kRanksShare = 0.9;
// Of one rank's share: opening (reading or importing) its trace, analysing
// it (while a fresh import's events are written), storing its results.
constexpr double kOpenShare = 0.6;
constexpr double kStoreStart = 0.95;
// Storing the comparison into each rank's file waits on the disk more than it
// computes (per file: opening it, its schema read, a commit, and at close the
// WAL checkpoint with its syncs), and holds no events, so it runs more
// writers than -j's jobs: four per job. Measured with bench/scale_bench.sh's
// merge of 1,000 run.db files on a busy 2-core machine: 11.1 s with two
// writers, 8.9 s with four, 6.8 s with eight.
constexpr int kCrossRankWritersPerJob = 4;

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
  bool events_to_write = false;        // the import's events are not in `pending` yet
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
                            importTrace(input, nullptr, progress.part(0, 1, "importing")));
  // Stored with the import: a later read finds them and derives nothing.
  deriveCpuDeviceWork(rank.tables);
  if (options.store) {
    DAMSCOPE_ASSIGN_OR_RETURN(PendingFile file, PendingFile::create(store, /*replace=*/true));
    rank.store = store;
    rank.pending = std::move(file);
    rank.events_to_write = true;
  }
  return rank;
}

// A fresh import's events, written into its pending file on a thread of its
// own while the analysis reads the same tables (both only read them): the
// store costs about as much as the analysis, so a first analysis takes the
// longer of the two instead of their sum. Joined by wait() or on destruction.
class EventWriter {
 public:
  explicit EventWriter(const OpenedRank& rank) {
    if (!rank.events_to_write) return;
    writing_ =
        std::async(std::launch::async, [&tables = rank.tables, path = rank.pending->tempPath()] {
          pthread_setname_np(pthread_self(), "store-events");  // as top and perf show it
          return writeTraceFile(tables, path);
        });
  }
  Status wait() { return writing_.valid() ? writing_.get() : okStatus(); }

 private:
  std::future<Status> writing_;
};

// What stays of a rank once its events are gone.
struct AnalysedRank {
  RankResult result;
  std::optional<PendingFile> pending;
};

// Analyses an opened rank; its events stay with `opened`.
Result<AnalysedRank> analyseOpened(OpenedRank& opened, const std::string& input,
                                   const PipelineOptions& options, const Progress& progress) {
  DAMSCOPE_ASSIGN_OR_RETURN(RankAnalysis analysis,
                            analyzeRank(opened.tables, options.analysis, progress));
  AnalysedRank out;
  out.result = buildRankResult(analysis, input, options.analysis);
  out.result.store = opened.store;
  out.pending = std::move(opened.pending);
  return out;
}

// The cross-rank analysis's input from a rank's result: its analysed steps
// and its collectives, their names given ids that `names` keeps equal across
// the ranks of the job (assigned in input order, so the same whatever order
// the ranks were analysed in).
RankTimeline rankTimeline(const RankResult& r, size_t index, CollectiveNames& names) {
  RankTimeline t;
  t.rank = r.rank.value_or(static_cast<int32_t>(index));
  t.source = r.source;
  t.start_ns = r.window.start_ns.value_or(0);
  t.end_ns = r.window.end_ns.value_or(0);
  const size_t first = static_cast<size_t>(r.window.first_step);
  for (size_t s = first; s < first + static_cast<size_t>(r.window.step_count) && s < r.steps.size();
       ++s) {
    t.steps.push_back({r.steps[s].number, r.steps[s].dur});
  }
  std::vector<int32_t> job_id(r.collective_names.size());
  for (size_t n = 0; n < r.collective_names.size(); ++n) {
    job_id[n] =
        names.try_emplace(r.collective_names[n], static_cast<int32_t>(names.size())).first->second;
  }
  t.collectives.reserve(r.collective_starts.size());
  for (const RankCollective& c : r.collective_starts) {
    t.collectives.push_back({job_id[static_cast<size_t>(c.name)], c.start_ns});
  }
  return t;
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
  CrossRankReport report;
  {
    CollectiveNames names;
    std::vector<RankTimeline> timelines;
    timelines.reserve(ranks.size());
    for (size_t i = 0; i < ranks.size(); ++i) {
      timelines.push_back(rankTimeline(ranks[i].result, i, names));
    }
    report = computeCrossRank(timelines, options.cross_rank);
  }
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

// Where a rank's results are written: its run.db, or a fresh import's
// temporary file until the whole run is stored.
std::string storePath(const AnalysedRank& rank) {
  return rank.pending ? rank.pending->tempPath() : rank.result.store;
}

Status storeFailure(const AnalysedRank& rank, const Status& status) {
  if (!rank.pending) return Error(status.error().message(), ErrorCode::kFailure);
  return Error(rank.pending->userMessage(status.error().message()), ErrorCode::kFailure);
}

// Waits for a fresh import's events to be written: a SQLite file has one
// writer at a time.
Status eventsWritten(const AnalysedRank& rank, EventWriter& events) {
  const Status status = events.wait();
  return status.ok() ? okStatus() : storeFailure(rank, status);
}

// The rank's own results, before any comparison with other ranks: into a
// fresh import's file in bulk, or into the run.db it came from.
Status storeRankResults(const AnalysedRank& rank, const AnalysisTables& tables,
                        const std::string& options_key) {
  const Status status = rank.pending ? storeAnalysisInNewFile(storePath(rank), tables, options_key)
                                     : storeAnalysis(storePath(rank), tables, options_key);
  return status.ok() ? okStatus() : storeFailure(rank, status);
}

// What the cross-rank comparison changed in a stored rank: its findings and
// metrics, its notes, and the job's comparison table.
Status storeCrossRank(const AnalysedRank& rank, const std::vector<RankComparison>& job,
                      size_t index) {
  static const std::vector<std::string_view> kTables = {
      FindingTable::kSqlName, FindingEvidenceTable::kSqlName, MetricTable::kSqlName,
      NoteTable::kSqlName, RankComparisonTable::kSqlName};
  if (Status status =
          storeAnalysisTables(storePath(rank), toAnalysisTables(rank.result, job, index), kTables);
      !status.ok()) {
    return storeFailure(rank, status);
  }
  return okStatus();
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

// A rank's results stored earlier under the same options, read back as if
// just analysed: without what an earlier comparison with other ranks added,
// which this run's comparison computes again. Empty when `store` holds no
// results under options.options_key. One open of the file: a merge of a
// thousand ranks spends its time opening files.
Result<std::optional<AnalysedRank>> readStoredResults(const std::string& store,
                                                      const std::string& input,
                                                      const PipelineOptions& options) {
  auto db = Database::open(store, Database::Mode::kReadOnly);
  if (!db.ok() || !isTraceStore(db.value()) || !hasAnalysis(db.value()) ||
      storedAnalysisOptions(db.value()) != options.options_key) {
    return std::optional<AnalysedRank>();
  }
  // The job's comparison table is computed again; the bubbles only with them.
  std::vector<std::string_view> skip = {RankComparisonTable::kSqlName};
  if (options.summaries_only) skip.push_back(GapTable::kSqlName);
  DAMSCOPE_ASSIGN_OR_RETURN(AnalysisTables rows, readAnalysis(db.value(), skip));
  DAMSCOPE_ASSIGN_OR_RETURN(StoredRank stored, toRankResult(rows, store));
  AnalysedRank out;
  out.result = std::move(stored.rank);
  out.result.source = input;
  out.result.store = options.store ? store : std::string();
  out.result.comparison.reset();
  removeCrossRankFindings(out.result.findings);
  std::erase_if(out.result.notes, [](const AnalysisNote& n) { return n.analysis == "cross_rank"; });
  return std::optional<AnalysedRank>(std::move(out));
}

// The run.db whose stored results may stand for `input` when reusing them
// (readStoredResults checks them): the input itself when it is a SQLite
// file, else the run.db an earlier import of the trace went to.
std::optional<std::string> reusableStore(const std::string& input, const PipelineOptions& options) {
  if (auto head = readFilePrefix(input, 16); head.ok() && isSqlite(head.value())) return input;
  return storedResultsOf(input, options);
}

// One rank: its stored results when the options allow, else its events
// opened, analysed and (with options.store) its own results stored.
Result<AnalysedRank> analyseRank(const std::string& input, const PipelineOptions& options,
                                 const Progress& progress, TraceTables* tables) {
  if (options.reuse_stored_results && !tables) {
    if (const std::optional<std::string> store = reusableStore(input, options)) {
      DAMSCOPE_ASSIGN_OR_RETURN(std::optional<AnalysedRank> stored,
                                readStoredResults(*store, input, options));
      if (stored) {
        progress.part(0, 1, "reading results").report(1);
        return std::move(*stored);
      }
    }
  }
  DAMSCOPE_ASSIGN_OR_RETURN(OpenedRank opened,
                            openRank(input, options, progress.part(0, kOpenShare)));
  EventWriter events(opened);
  DAMSCOPE_ASSIGN_OR_RETURN(
      AnalysedRank rank,
      analyseOpened(opened, input, options, progress.part(kOpenShare, kStoreStart, "analysing")));
  if (!rank.result.store.empty()) {
    const AnalysisTables tables = toAnalysisTables(rank.result);  // while the events are written
    DAMSCOPE_RETURN_IF_ERROR(eventsWritten(rank, events));
    progress.part(kStoreStart, 1, "storing").report(0);
    DAMSCOPE_RETURN_IF_ERROR(progress.checkCancelled());
    DAMSCOPE_RETURN_IF_ERROR(storeRankResults(rank, tables, options.options_key));
  }
  if (options.summaries_only) rank.result.gaps = std::vector<GapResult>();  // and its memory
  if (tables) *tables = std::move(opened.tables);
  return rank;
}

// analyzeRun; with `tables`, each rank's events are kept there, in input order.
//
// The ranks are analysed options.jobs at a time, each storing its own results
// as soon as it has them (into a fresh import's temporary file, or into the
// run.db it came from); then, with several ranks, the comparison adds its
// findings and table to each. Fresh imports become visible only once the whole
// run is stored; a run.db given as input may keep its new single-rank results
// when a later rank fails.
Result<RunResult> runPipeline(const std::vector<std::string>& inputs,
                              const PipelineOptions& options, const Progress& progress,
                              std::vector<TraceTables>* tables) {
  if (inputs.empty()) return Error("no trace to analyse");
  if (!options.output.empty() && inputs.size() > 1) {
    return Error(options.output + ": one run.db holds one trace, not " +
                 std::to_string(inputs.size()));
  }
  const size_t n = inputs.size();
  std::vector<AnalysedRank> ranks(n);
  if (tables) {
    tables->clear();
    tables->resize(n);
  }
  const ParallelProgress analysing(progress.part(0, kRanksShare), n);
  DAMSCOPE_RETURN_IF_ERROR(forEachPiece(n, options.jobs, [&](size_t i) -> Status {
    DAMSCOPE_RETURN_IF_ERROR(progress.checkCancelled());
    const Progress part = analysing.piece(i).part(0, 1, "", inputs[i]);
    DAMSCOPE_ASSIGN_OR_RETURN(
        ranks[i], analyseRank(inputs[i], options, part, tables ? &(*tables)[i] : nullptr));
    return okStatus();
  }));

  RunResult run;
  if (n > 1) {
    progress.part(kRanksShare, kRanksShare, "comparing ranks").report(0);
    compareRanks(ranks, options.analysis, run);
    DAMSCOPE_RETURN_IF_ERROR(progress.checkCancelled());
    const ParallelProgress storing(progress.part(kRanksShare, 1, "storing"), n);
    const int writers = static_cast<int>(threadsFor(options.jobs, n)) * kCrossRankWritersPerJob;
    DAMSCOPE_RETURN_IF_ERROR(forEachPiece(n, writers, [&](size_t i) -> Status {
      if (ranks[i].result.store.empty()) return okStatus();
      DAMSCOPE_RETURN_IF_ERROR(storeCrossRank(ranks[i], run.cross_rank, i));
      storing.piece(i).report(1);
      return okStatus();
    }));
  }
  DAMSCOPE_RETURN_IF_ERROR(progress.checkCancelled());
  run.ranks.reserve(n);
  for (AnalysedRank& rank : ranks) {
    if (rank.pending) {
      if (Status status = rank.pending->commit(); !status.ok()) {
        return Error(status.error().message(), ErrorCode::kFailure);
      }
    }
    run.ranks.push_back(std::move(rank.result));
  }
  progress.report(1);
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
  EventWriter events(opened);
  DAMSCOPE_ASSIGN_OR_RETURN(
      AnalysedRank rank,
      analyseOpened(opened, input, options, progress.part(kOpenShare, 1, "analysing")));
  if (!rank.result.store.empty()) {
    const AnalysisTables tables = toAnalysisTables(rank.result);  // while the events are written
    DAMSCOPE_RETURN_IF_ERROR(eventsWritten(rank, events));
    DAMSCOPE_RETURN_IF_ERROR(progress.checkCancelled());
    DAMSCOPE_RETURN_IF_ERROR(storeRankResults(rank, tables, options.options_key));
    if (rank.pending) {
      if (Status status = rank.pending->commit(); !status.ok()) {
        return Error(status.error().message(), ErrorCode::kFailure);
      }
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
