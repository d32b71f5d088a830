// The analysis pipeline: see pipeline.h.
#include "analyzer/pipeline/pipeline.h"

#include <pthread.h>

#include <chrono>
#include <future>
#include <optional>

#include "analyzer/analyses/cpu_device_work.h"
#include "analyzer/pipeline/job_consistency.h"
#include "analyzer/pipeline/parallel_ranks.h"
#include "analyzer/pipeline/straggler_cause.h"
#include "analyzer/result/analysis_store.h"
#include "analyzer/result/result_rows.h"
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
// The time a run spends checking the pages of the run.db files whose stored
// results it reuses (checkPages), shared evenly among its inputs. PRAGMA
// quick_check reads every page: v100_rank1's run.db (11.7 MB) took 140 ms on
// a busy 2-core machine, as long as reading its results back, so one rank's
// file of up to about 20 MB is checked whole; a merge of 1,000 ranks' files
// (README, 6.4-8.2 s) checks each as far as a quarter of a millisecond goes
// instead of adding some 30 ms a file (a 2.6 MB run.db, the same machine).
constexpr std::chrono::microseconds kPageCheckBudget{250'000};

// A trace store's events as the analyses see them: on a CPU run with the
// cpu device's ops (cpu_device_work.h), derived again on every read so that
// the stored results' kernel ids name the same rows.
Result<TraceTables> readEvents(Database& db, const Progress& progress) {
  DAMSCOPE_ASSIGN_OR_RETURN(TraceTables tables, readTrace(db, progress));
  deriveCpuDeviceWork(tables);
  return tables;
}

// What stays of a rank once its work is done.
struct OpenedRank {
  RankResult result;
  RankOrigin origin = RankOrigin::kAnalysed;
  // The options key of the results in its store: what the comparison's store
  // expects to find there (storeAnalysisTables).
  std::string options_key;
  std::vector<RankComparison> stored_job;  // read back: the comparison stored with it
  std::optional<PendingFile> pending;      // a fresh import, until the whole run is stored
  TraceTables tables;                      // its events, where the front end keeps them
};

// The comparison with other ranks taken out of a result read back: what this
// run's comparison computes again.
void dropComparison(RankResult& result) {
  result.comparison.reset();
  removeCrossRankFindings(result.findings);
  std::erase_if(result.notes, [](const AnalysisNote& n) { return n.analysis == "cross_rank"; });
}

// A rank's stored results, read back; with its events when `keep_events`.
Result<OpenedRank> readBack(RankSource& source, const PipelineOptions& options, bool keep_events,
                            const Progress& progress) {
  Database& db = *source.events();
  const bool show = options.stored_results == StoredResults::kShow;
  // The job's comparison table only where it is shown; the bubbles only
  // where they are wanted. A merge of a thousand ranks reads neither.
  std::vector<std::string_view> skip;
  if (!show) skip.push_back(RankComparisonTable::kSqlName);
  if (options.summaries_only) skip.push_back(GapTable::kSqlName);
  progress.part(0, keep_events ? 0.1 : 1, "reading results").report(0);
  DAMSCOPE_ASSIGN_OR_RETURN(AnalysisTables rows, readAnalysis(db, skip));
  DAMSCOPE_ASSIGN_OR_RETURN(StoredRank stored, toRankResult(rows, db.path()));
  OpenedRank out;
  out.origin = RankOrigin::kReadBack;
  out.options_key = source.results_options;
  out.result = std::move(stored.rank);
  if (show) {
    // As stored: the trace it was analysed from, the file it is in.
    out.stored_job = std::move(stored.job);
  } else {
    // In place of analysing this input now, stored where this run stores.
    out.result.source = source.file.path;
    out.result.store = source.store;
    dropComparison(out.result);
  }
  if (keep_events) {
    DAMSCOPE_ASSIGN_OR_RETURN(out.tables, readEvents(db, progress.part(0.1, 1, "reading")));
  }
  return out;
}

// A fresh import's events, written into its pending file on a thread of its
// own while the analysis reads the same tables (both only read them): the
// store costs about as much as the analysis, so a first analysis takes the
// longer of the two instead of their sum. Joined by wait() or on destruction.
class EventWriter {
 public:
  EventWriter(const TraceTables& tables, const std::optional<PendingFile>& pending) {
    if (!pending) return;
    writing_ = std::async(std::launch::async, [&tables, path = pending->tempPath()] {
      pthread_setname_np(pthread_self(), "store-events");  // as top and perf show it
      return writeTraceFile(tables, path);
    });
  }
  Status wait() { return writing_.valid() ? writing_.get() : okStatus(); }

 private:
  std::future<Status> writing_;
};

Error storeFailure(const std::optional<PendingFile>& pending, const Status& status) {
  if (!pending) return Error(status.error().message(), ErrorCode::kFailure);
  return Error(pending->userMessage(status.error().message()), ErrorCode::kFailure);
}

// A rank analysed from its events, read from its run.db or imported, and its
// own results stored (before any comparison with other ranks): into a fresh
// import's pending file in bulk, or into the run.db it was read from.
Result<OpenedRank> analyse(RankSource& source, const PipelineOptions& options, bool keep_events,
                           const Progress& progress) {
  const std::string input = source.file.path;
  OpenedRank out;
  out.options_key = options.options_key;
  const Progress opening = progress.part(0, kOpenShare);
  if (Database* db = source.events()) {
    DAMSCOPE_ASSIGN_OR_RETURN(out.tables, readEvents(*db, opening.part(0, 1, "reading")));
  } else {
    DAMSCOPE_ASSIGN_OR_RETURN(
        out.tables, importTrace(std::move(source.file), nullptr, opening.part(0, 1, "importing")));
    // Stored with the import: a later read finds them and derives nothing.
    deriveCpuDeviceWork(out.tables);
    if (!source.store.empty()) {
      DAMSCOPE_ASSIGN_OR_RETURN(PendingFile file, PendingFile::create(source.store, true));
      out.pending = std::move(file);
    }
  }
  EventWriter events(out.tables, out.pending);
  DAMSCOPE_ASSIGN_OR_RETURN(RankAnalysis analysis,
                            analyzeRank(out.tables, options.analysis,
                                        progress.part(kOpenShare, kStoreStart, "analysing")));
  out.result = buildRankResult(analysis, input, options.analysis);
  out.result.store = source.store;
  if (!source.store.empty()) {
    const AnalysisTables rows = toAnalysisTables(out.result);  // while the events are written
    // A SQLite file has one writer at a time: the events first.
    if (Status written = events.wait(); !written.ok()) return storeFailure(out.pending, written);
    progress.part(kStoreStart, 1, "storing").report(0);
    DAMSCOPE_RETURN_IF_ERROR(progress.checkCancelled());
    Status stored = okStatus();
    if (out.pending) {
      stored = storeAnalysisInNewFile(out.pending->tempPath(), rows, options.options_key);
    } else {
      Database& db = *source.events();
      stored = db.allowWrites();
      if (stored.ok()) stored = storeAnalysis(db, rows, options.options_key);
    }
    if (!stored.ok()) return storeFailure(out.pending, stored);
  }
  if (options.summaries_only) out.result.gaps = std::vector<GapResult>();  // and its memory
  if (!keep_events) out.tables = TraceTables();
  return out;
}

// One rank: classified, then its stored results read back where they count,
// else its events analysed.
//
// Stored results are believed only once read back whole and checked
// (result_rows.h: every figure in its declared range, the rows consistent):
// results that fail are never shown. The events they were computed from
// are in the same run.db, so they are analysed again (and the results stored
// anew where this run stores), with a note saying why; if the events cannot
// be read either, the error names what was wrong with the results. A file
// whose pages are damaged (checkPages) is refused whole: neither its results
// nor its events can be believed.
Result<OpenedRank> openRank(const std::string& input, const PipelineOptions& options,
                            bool keep_events, std::chrono::microseconds page_check,
                            const Progress& progress) {
  DAMSCOPE_ASSIGN_OR_RETURN(RankSource source, classifyRank(input, options));
  if (!useStoredResults(source, options)) return analyse(source, options, keep_events, progress);
  DAMSCOPE_RETURN_IF_ERROR(checkPages(*source.events(), page_check));
  Result<OpenedRank> stored = readBack(source, options, keep_events, progress);
  if (stored.ok() || stored.error().code() == ErrorCode::kCancelled) return stored;
  Result<OpenedRank> again = analyse(source, options, keep_events, progress);
  if (!again.ok()) {
    if (again.error().code() == ErrorCode::kCancelled) return again;
    return Error(stored.error().message() +
                 "; and analysing its events failed: " + again.error().message());
  }
  again->result.notes.push_back(
      {"stored_results", stored.error().message() + "; analysed again from the events"});
  return again;
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

std::vector<RankTimeline> timelinesOf(const std::vector<const RankResult*>& ranks) {
  CollectiveNames names;
  std::vector<RankTimeline> timelines;
  timelines.reserve(ranks.size());
  for (size_t i = 0; i < ranks.size(); ++i) timelines.push_back(rankTimeline(*ranks[i], i, names));
  return timelines;
}

// The cross-rank comparison and the findings on it, into each rank's result.
void compareRanks(std::vector<OpenedRank>& ranks, const AnalysisOptions& options, RunResult& run) {
  std::vector<JobMember> members;
  members.reserve(ranks.size());
  for (const OpenedRank& r : ranks) {
    members.push_back({r.result.source, r.result.rank, r.result.world_size});
  }
  std::vector<std::string> inconsistencies = jobInconsistencies(members);
  std::vector<const RankResult*> results;
  results.reserve(ranks.size());
  for (const OpenedRank& r : ranks) results.push_back(&r.result);
  CrossRankReport report = computeCrossRank(timelinesOf(results), options.cross_rank);
  report.notes.insert(report.notes.begin(), inconsistencies.begin(), inconsistencies.end());
  for (size_t i = 0; i < ranks.size(); ++i) {
    RankResult& r = ranks[i].result;
    RankComparison& compared = report.ranks[i];
    // The exposed communication split: waiting for peers, then transfer.
    if (compared.collectives > 0 && r.scorecard && r.scorecard->run.total() > 0) {
      const Scorecard& card = r.scorecard->run;
      const int64_t exposed = card.ns[static_cast<size_t>(Axis::kExposedCommunication)];
      const int64_t waiting = std::min(compared.peer_wait_ns, exposed);
      const auto total = static_cast<double>(card.total());
      compared.waiting_pct = 100.0 * static_cast<double>(waiting) / total;
      compared.transfer_pct = 100.0 * static_cast<double>(exposed - waiting) / total;
    }
    r.comparison = compared;
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
      addCrossRankFindings(r.findings, c.slower_than_median_pct, wait_pct, r.framework,
                           options.findings);
      // The straggler's findings say what it spends that the median rank
      // does not.
      std::optional<std::string> cause;  // computed once, for the first such finding
      for (Finding& f : r.findings.findings) {
        if (!isCrossRankMetric(f.metric)) continue;
        if (!cause) cause = stragglerCauseWords(stragglerCause(r, results));
        if (!cause->empty()) f.title += ": " + *cause;
      }
    }
  }
  run.cross_rank = std::move(report.ranks);
  run.cross_rank_notes = std::move(report.notes);
}

// Where a rank's results are written: its run.db, or a fresh import's
// temporary file until the whole run is stored.
std::string storePath(const OpenedRank& rank) {
  return rank.pending ? rank.pending->tempPath() : rank.result.store;
}

// What the cross-rank comparison changed in a stored rank: its findings and
// metrics, its notes, and the job's comparison table; only into the results
// the comparison was made on. When another analysis has stored newer results
// in the file meanwhile, those stay, and the rank's notes say so.
Status storeCrossRank(OpenedRank& rank, const std::vector<RankComparison>& job, size_t index) {
  static const std::vector<std::string_view> kTables = {
      FindingTable::kSqlName, FindingEvidenceTable::kSqlName, MetricTable::kSqlName,
      NoteTable::kSqlName, RankComparisonTable::kSqlName};
  Result<bool> stored = storeAnalysisTables(
      storePath(rank), toAnalysisTables(rank.result, job, index), kTables, rank.options_key);
  if (!stored.ok()) return storeFailure(rank.pending, stored.error());
  if (!*stored) {
    rank.result.notes.push_back(
        {"cross_rank", storePath(rank) +
                           ": another analysis stored newer results in it meanwhile; the "
                           "comparison was not stored there"});
  }
  return okStatus();
}

// True when the ranks' results were all read back with one comparison
// between exactly these ranks, in this order: each rank's stored job table
// has a row per rank and its own at its position. A rank shown alone keeps
// the comparison it was stored with (the straggler it is, in its job).
bool storedWithTheirComparison(const std::vector<OpenedRank>& ranks) {
  for (size_t i = 0; i < ranks.size(); ++i) {
    const OpenedRank& r = ranks[i];
    if (r.origin != RankOrigin::kReadBack) return false;
    if (ranks.size() == 1) continue;
    if (r.stored_job.size() != ranks.size() || !r.result.comparison ||
        !(r.stored_job[i] == *r.result.comparison)) {
      return false;
    }
  }
  return true;
}

// The comparison between the ranks: with StoredResults::kShow, the one
// stored with them when they were all read back with it; else computed now
// and stored in each rank's run.db (with one rank, there is none).
Status crossRank(std::vector<OpenedRank>& ranks, const PipelineOptions& options,
                 const Progress& progress, RunResult& run) {
  if (options.stored_results == StoredResults::kShow && storedWithTheirComparison(ranks)) {
    run.cross_rank = std::move(ranks.front().stored_job);
    for (const AnalysisNote& n : ranks.front().result.notes) {
      if (n.analysis == "cross_rank") run.cross_rank_notes.push_back(n.message);
    }
    return okStatus();
  }
  for (OpenedRank& rank : ranks) {
    if (rank.origin == RankOrigin::kReadBack && options.stored_results == StoredResults::kShow) {
      dropComparison(rank.result);
    }
  }
  if (ranks.size() < 2) return okStatus();
  progress.part(kRanksShare, kRanksShare, "comparing ranks").report(0);
  compareRanks(ranks, options.analysis, run);
  DAMSCOPE_RETURN_IF_ERROR(progress.checkCancelled());
  const size_t n = ranks.size();
  const ParallelProgress storing(progress.part(kRanksShare, 1, "storing"), n);
  const int writers = static_cast<int>(threadsFor(options.jobs, n)) * kCrossRankWritersPerJob;
  return forEachPiece(n, writers, [&](size_t i) -> Status {
    if (ranks[i].result.store.empty()) return okStatus();
    DAMSCOPE_RETURN_IF_ERROR(storeCrossRank(ranks[i], run.cross_rank, i));
    storing.piece(i).report(1);
    return okStatus();
  });
}

}  // namespace

std::vector<RankTimeline> crossRankTimelines(const std::vector<RankResult>& ranks) {
  std::vector<const RankResult*> results;
  results.reserve(ranks.size());
  for (const RankResult& r : ranks) results.push_back(&r);
  return timelinesOf(results);
}

Result<AnalysedRun> openRun(const std::vector<std::string>& inputs, const PipelineOptions& options,
                            EventsNeeded need, const Progress& progress) {
  if (inputs.empty()) return Error("no trace to analyse");
  if (!options.output.empty() && inputs.size() > 1) {
    return Error(options.output + ": one run.db holds one trace, not " +
                 std::to_string(inputs.size()));
  }
  const size_t n = inputs.size();
  std::vector<OpenedRank> ranks(n);
  const ParallelProgress working(progress.part(0, kRanksShare), n);
  DAMSCOPE_RETURN_IF_ERROR(forEachPiece(n, options.jobs, [&](size_t i) -> Status {
    DAMSCOPE_RETURN_IF_ERROR(progress.checkCancelled());
    const bool keep_events =
        need == EventsNeeded::kEveryRank || (need == EventsNeeded::kFirstRank && i == 0);
    const Progress part = working.piece(i).part(0, 1, "", inputs[i]);
    DAMSCOPE_ASSIGN_OR_RETURN(ranks[i], openRank(inputs[i], options, keep_events,
                                                 kPageCheckBudget / static_cast<int64_t>(n), part));
    return okStatus();
  }));

  AnalysedRun out;
  DAMSCOPE_RETURN_IF_ERROR(crossRank(ranks, options, progress, out.run));
  DAMSCOPE_RETURN_IF_ERROR(progress.checkCancelled());
  // Fresh imports appear only now, each with its events and every result.
  out.run.ranks.reserve(n);
  out.origins.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    OpenedRank& rank = ranks[i];
    if (rank.pending) {
      if (Status status = rank.pending->commit(); !status.ok()) {
        return Error(status.error().message(), ErrorCode::kFailure);
      }
    }
    out.run.ranks.push_back(std::move(rank.result));
    out.origins.push_back(rank.origin);
    if (need == EventsNeeded::kEveryRank || (need == EventsNeeded::kFirstRank && i == 0)) {
      out.tables.push_back(std::move(rank.tables));
    }
  }
  progress.report(1);
  return out;
}

}  // namespace damscope
