// The analysis pipeline (analyzer/pipeline/pipeline.h) as a front end uses it:
// run from a worker thread with progress and a cancel that leaves no file
// behind, results stored and read back whole, imports reused, other files
// never overwritten, nothing written without a store.
#include "analyzer/pipeline/pipeline.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <mutex>
#include <thread>

#include "analyzer/report/result_json.h"
#include "tests/stored_run.h"
#include "tests/test_support.h"
#include "analyzer/result/analysis_store.h"
#include "trace/sqlite_db.h"
#include "trace/trace_reader.h"
#include "trace/trace_writer.h"

namespace damscope {
namespace {

using testing::TempDir;

std::vector<std::string> filesIn(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Two ranks of a data-bound job, rank 1 with a slower loader.
struct TwoRanks {
  TempDir dir;
  std::vector<std::string> inputs{dir.file("rank0.json"), dir.file("rank1.json")};
  TwoRanks() {
    testing::writeFile(inputs[0], testing::dataBoundKinetoTrace(0, 0, 40));
    testing::writeFile(inputs[1], testing::dataBoundKinetoTrace(1, 200, 40));
  }
};

// The run's results as `damscope analyze` has them: no events kept.
Result<RunResult> analyze(const std::vector<std::string>& inputs, const PipelineOptions& options,
                          const Progress& progress = {}) {
  DAMSCOPE_ASSIGN_OR_RETURN(AnalysedRun opened,
                            openRun(inputs, options, EventsNeeded::kNone, progress));
  return std::move(opened.run);
}

// Runs the pipeline with its stores in `dir` (the current directory's role).
PipelineOptions storeIn(const std::string& dir, const std::string& input) {
  PipelineOptions o;
  o.output = dir + "/" + defaultStoreName(input);
  return o;
}

TEST(Pipeline, CancelHalfwayFromAnotherThreadLeavesNoFile) {
  TwoRanks job;
  const std::vector<std::string> before = filesIn(job.dir.path());
  // One input per run.db: store rank 1 into the test directory.
  const PipelineOptions options = storeIn(job.dir.path(), job.inputs[1]);
  CancelToken cancel;
  std::mutex mutex;
  std::condition_variable changed;
  bool halfway = false, cancelled = false;
  std::vector<ProgressUpdate> seen;
  std::vector<std::string> stages;
  const Progress progress(
      [&](const ProgressUpdate& u) {
        std::unique_lock lock(mutex);
        stages.emplace_back(u.stage);
        seen.push_back({{}, {}, u.fraction});
        if (u.stage == "storing" && !halfway) {
          // The events are written, the results about to be: hand over to
          // the UI thread and wait until it has pressed Cancel.
          halfway = true;
          changed.notify_all();
          changed.wait(lock, [&] { return cancelled; });
        }
      },
      &cancel);

  Result<RunResult> result = Error("not run");
  std::thread worker([&] { result = analyze({job.inputs[1]}, options, progress); });
  {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return halfway; });
    // The import is written, under a temporary name, waiting for its results.
    const std::vector<std::string> now = filesIn(job.dir.path());
    EXPECT_TRUE(std::any_of(now.begin(), now.end(), [](const std::string& f) {
      return f.rfind(".damscope-", 0) == 0;
    })) << "cancelled before anything was written: the test proves less than it says";
    cancel.cancel();
    cancelled = true;
    changed.notify_all();
  }
  worker.join();

  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code(), ErrorCode::kCancelled) << result.error().message();
  EXPECT_EQ(filesIn(job.dir.path()), before) << "no run.db, no temporary file";
  for (size_t i = 1; i < seen.size(); ++i) {
    EXPECT_GE(seen[i].fraction, seen[i - 1].fraction) << "progress never goes back";
  }
  EXPECT_NE(std::find(stages.begin(), stages.end(), "analysing"), stages.end());
}

TEST(Pipeline, CancelLeavesAnExistingRunDbAsItWas) {
  TwoRanks job;
  const std::string store = job.dir.file("rank0.db");
  ASSERT_TRUE(analyze({job.inputs[0]}, storeIn(job.dir.path(), job.inputs[0])).ok());
  const std::string bytes = testing::readFile(store);
  CancelToken cancel;
  const Progress progress(
      [&](const ProgressUpdate& u) {
        if (u.fraction > 0.3) cancel.cancel();
      },
      &cancel);
  PipelineOptions options;
  options.analysis.window.mode = WindowMode::kAll;  // would change the stored results
  options.stored_results = StoredResults::kIgnore;
  auto result = analyze({store}, options, progress);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code(), ErrorCode::kCancelled);
  EXPECT_EQ(testing::readFile(store), bytes);
  EXPECT_EQ(filesIn(job.dir.path()),
            (std::vector<std::string>{"rank0.db", "rank0.json", "rank1.json"}));
}

TEST(Pipeline, ProgressCoversTheRunInOrder) {
  TwoRanks job;
  PipelineOptions options;
  options.store = false;
  std::vector<double> fractions;
  std::vector<std::string> stages, details;
  const Progress progress(
      [&](const ProgressUpdate& u) {
        fractions.push_back(u.fraction);
        if (stages.empty() || stages.back() != u.stage) stages.emplace_back(u.stage);
        details.emplace_back(u.detail);
      },
      nullptr);
  ASSERT_TRUE(analyze(job.inputs, options, progress).ok());
  ASSERT_FALSE(fractions.empty());
  for (size_t i = 1; i < fractions.size(); ++i) EXPECT_GE(fractions[i], fractions[i - 1]);
  EXPECT_DOUBLE_EQ(fractions.back(), 1.0);
  EXPECT_NE(std::find(stages.begin(), stages.end(), "comparing ranks"), stages.end());
  EXPECT_NE(std::find(details.begin(), details.end(), job.inputs[1]), details.end())
      << "each rank's work names its input";
}

// The whole point of the result model: what is stored reads back equal.
TEST(Pipeline, StoredRunReadsBackAsTheRunItWas) {
  TwoRanks job;
  std::vector<std::string> stores;
  RunResult run;
  {
    // A run stores an imported trace in the current directory.
    const auto cwd = std::filesystem::current_path();
    std::filesystem::current_path(job.dir.path());
    auto result = analyze(job.inputs, {});
    std::filesystem::current_path(cwd);
    ASSERT_TRUE(result.ok()) << result.error().message();
    run = std::move(result.value());
  }
  ASSERT_EQ(run.ranks.size(), 2u);
  for (RankResult& r : run.ranks) {
    ASSERT_FALSE(r.store.empty());
    stores.push_back(job.dir.file(r.store));
    r.store = stores.back();  // stored under a relative name; read back by path
  }
  EXPECT_TRUE(run.ranks[1].comparison->straggler);
  auto stored = testing::readStoredRun(stores);
  ASSERT_TRUE(stored.ok()) << stored.error().message();
  EXPECT_TRUE(stored.value() == run);
  EXPECT_EQ(runJson(stored.value()), runJson(run));
  auto one = testing::readStoredRank(stores[1]);
  ASSERT_TRUE(one.ok());
  EXPECT_TRUE(one.value() == run.ranks[1]);
  // The events were stored beside the results, and no temporary file is left.
  EXPECT_EQ(readTrace(stores[0])->kernels.size(), 40u);
  EXPECT_EQ(filesIn(job.dir.path()),
            (std::vector<std::string>{"rank0.db", "rank0.json", "rank1.db", "rank1.json"}));
}

// The GUI's way in: every rank's events with the run's results, the same
// results analyze gives, whether analysed now or read back.
TEST(Pipeline, AnalysedRunKeepsEveryRanksEventsWithTheResults) {
  TwoRanks job;
  PipelineOptions options;
  options.store = false;
  auto fresh = openRun(job.inputs, options, EventsNeeded::kEveryRank);
  ASSERT_TRUE(fresh.ok()) << fresh.error().message();
  auto plain = analyze(job.inputs, options);
  ASSERT_TRUE(plain.ok());
  EXPECT_TRUE(fresh->run == plain.value());
  ASSERT_EQ(fresh->tables.size(), 2u);
  EXPECT_EQ(fresh->tables[1].kernels.size(), 40u);
  EXPECT_TRUE(fresh->run.ranks[1].comparison->straggler);

  std::vector<std::string> stores;
  for (size_t i = 0; i < job.inputs.size(); ++i) {
    stores.push_back(job.dir.file("rank" + std::to_string(i) + ".db"));
  }
  {
    const auto cwd = std::filesystem::current_path();
    std::filesystem::current_path(job.dir.path());
    ASSERT_TRUE(analyze(job.inputs, {}).ok());
    std::filesystem::current_path(cwd);
  }
  std::vector<std::string> stages;
  const Progress progress([&](const ProgressUpdate& u) { stages.emplace_back(u.stage); }, nullptr);
  auto stored = openRun(stores, {}, EventsNeeded::kEveryRank, progress);
  ASSERT_TRUE(stored.ok()) << stored.error().message();
  EXPECT_EQ(std::find(stages.begin(), stages.end(), "analysing"), stages.end())
      << "results read back, not analysed again";
  ASSERT_EQ(stored->tables.size(), 2u);
  EXPECT_EQ(stored->tables[0].kernels.size(), 40u);
  EXPECT_TRUE(stored->run.cross_rank == fresh->run.cross_rank);
  EXPECT_TRUE(stored->run.ranks[1].findings == fresh->run.ranks[1].findings);
}

TEST(Pipeline, ReusesItsImportAndNeverOverwritesAnotherFile) {
  TwoRanks job;
  PipelineOptions options = storeIn(job.dir.path(), job.inputs[0]);
  ASSERT_TRUE(analyze({job.inputs[0]}, options).ok());
  options.stored_results = StoredResults::kIgnore;  // its events, not its results
  std::vector<std::string> stages;
  const Progress progress([&](const ProgressUpdate& u) { stages.emplace_back(u.stage); }, nullptr);
  ASSERT_TRUE(analyze({job.inputs[0]}, options, progress).ok());
  EXPECT_NE(std::find(stages.begin(), stages.end(), "reading"), stages.end());
  EXPECT_EQ(std::find(stages.begin(), stages.end(), "parsing"), stages.end())
      << "not imported again";

  // rank0.db holds rank 0's import: rank 1 must not go there.
  PipelineOptions other = options;
  auto refused = analyze({job.inputs[1]}, other);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code(), ErrorCode::kOutputExists);
  EXPECT_EQ(refused.error().message().find("--"), std::string::npos) << "no flag names here";
  other.replace = true;
  auto replaced = analyze({job.inputs[1]}, other);
  ASSERT_TRUE(replaced.ok()) << replaced.error().message();
  EXPECT_EQ(replaced->ranks[0].rank, 1);
  EXPECT_EQ(testing::readStoredRank(options.output)->rank, 1);
}

TEST(Pipeline, WithoutAStoreNothingIsWritten) {
  TwoRanks job;
  const std::vector<std::string> before = filesIn(job.dir.path());
  PipelineOptions options = storeIn(job.dir.path(), job.inputs[0]);
  options.store = false;
  auto result = analyze({job.inputs[0]}, options);
  ASSERT_TRUE(result.ok());
  EXPECT_TRUE(result->ranks[0].store.empty());
  EXPECT_EQ(filesIn(job.dir.path()), before);
}

TEST(Pipeline, InputsThatCannotBeOneJobAreSaidSo) {
  TempDir dir;
  const std::string a = dir.file("a.json"), b = dir.file("b.json"), c = dir.file("c.json");
  testing::writeFile(a, testing::dataBoundKinetoTrace(0, 0));
  testing::writeFile(b, testing::dataBoundKinetoTrace(0, 0));  // rank 0 again
  std::string eight = testing::dataBoundKinetoTrace(1, 0);
  eight.replace(eight.find("\"world_size\":2"), 14, "\"world_size\":8");
  testing::writeFile(c, eight);
  PipelineOptions options;
  options.store = false;
  auto run = analyze({a, b, c}, options);
  ASSERT_TRUE(run.ok()) << run.error().message();
  const auto& notes = run->cross_rank_notes;
  auto said = [&](const std::string& text) {
    return std::any_of(notes.begin(), notes.end(),
                       [&](const std::string& n) { return n.find(text) != std::string::npos; });
  };
  EXPECT_TRUE(said("rank 0 is claimed by both " + a + " and " + b));
  EXPECT_TRUE(said("disagree on the job's size: " + a + " says 2 ranks, " + c + " says 8"));
  EXPECT_EQ(run->ranks[2].world_size, 8);
  bool in_rank_notes = false;
  for (const AnalysisNote& n : run->ranks[0].notes) in_rank_notes |= n.analysis == "cross_rank";
  EXPECT_TRUE(in_rank_notes) << "each rank's own summary says it too";
}

TEST(Pipeline, BadInputsAreErrorsWithTheirFileNamed) {
  TwoRanks job;
  testing::writeFile(job.dir.file("junk.json"), "{\"traceEvents\": [");
  auto junk = analyze({job.dir.file("junk.json")}, storeIn(job.dir.path(), "junk.json"));
  ASSERT_FALSE(junk.ok());
  EXPECT_EQ(junk.error().code(), ErrorCode::kBadInput);
  EXPECT_NE(junk.error().message().find("junk.json"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(job.dir.file("junk.db")));
  EXPECT_FALSE(analyze({}, {}).ok());
  PipelineOptions one_output;
  one_output.output = job.dir.file("x.db");
  EXPECT_FALSE(analyze(job.inputs, one_output).ok()) << "one run.db cannot hold two ranks";
}

// A data-parallel job of `n` ranks, rank 2 entering its all-reduces late.
struct Job {
  TempDir dir;
  std::vector<std::string> inputs;
  explicit Job(int n) {
    for (int r = 0; r < n; ++r) {
      inputs.push_back(dir.file("rank" + std::to_string(r) + ".json"));
      testing::writeFile(inputs.back(), testing::allReduceKinetoTrace(r, n, r == 2 ? 300 : 0));
    }
  }
};

// The ranks' stored runs with their sources made the inputs', so that a run
// read from run.db files compares equal to one analysed from the traces.
RunResult withSources(RunResult run, const std::vector<std::string>& sources) {
  for (size_t i = 0; i < run.ranks.size(); ++i) {
    run.ranks[i].source = sources[i];
    run.ranks[i].store.clear();
    if (run.ranks[i].comparison) run.ranks[i].comparison->source = sources[i];
    run.cross_rank[i].source = sources[i];
  }
  return run;
}

TEST(Pipeline, ParallelRanksGiveTheSameResultsInInputOrder) {
  Job job(5);
  PipelineOptions options;
  options.store = false;
  options.jobs = 1;
  auto serial = analyze(job.inputs, options);
  ASSERT_TRUE(serial.ok()) << serial.error().message();
  options.jobs = 3;
  auto parallel = analyze(job.inputs, options);
  ASSERT_TRUE(parallel.ok()) << parallel.error().message();
  EXPECT_TRUE(serial.value() == parallel.value());
  EXPECT_EQ(runJson(serial.value()), runJson(parallel.value()));
  ASSERT_EQ(parallel->ranks.size(), 5u);
  for (size_t i = 0; i < 5; ++i) EXPECT_EQ(parallel->ranks[i].source, job.inputs[i]);
  EXPECT_TRUE(parallel->ranks[2].comparison->straggler);
  EXPECT_GT(parallel->ranks[2].comparison->last_to_start_pct, 50);
}

// Each rank analysed alone (on its own node), then the job put together from
// the stored results: equal to analysing the whole job at once, without
// reading any event (the events are deleted from the run.db files first).
TEST(Pipeline, MergeFromStoredResultsEqualsTheFullAnalysis) {
  Job job(4);
  PipelineOptions whole;
  whole.store = false;
  auto full = analyze(job.inputs, whole);
  ASSERT_TRUE(full.ok()) << full.error().message();

  std::vector<std::string> stores;
  for (const std::string& input : job.inputs) {
    PipelineOptions alone = storeIn(job.dir.path(), input);
    alone.options_key = "defaults";
    ASSERT_TRUE(analyze({input}, alone).ok());
    stores.push_back(alone.output);
    auto db = Database::open(stores.back(), Database::Mode::kReadWriteCreate);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(db->exec("DELETE FROM kernels; DELETE FROM api_calls; DELETE FROM ranges;").ok());
  }
  PipelineOptions merge;
  merge.options_key = "defaults";
  merge.stored_results = StoredResults::kReuseSameOptions;
  merge.jobs = 2;
  std::vector<std::string> stages;
  const Progress progress([&](const ProgressUpdate& u) { stages.emplace_back(u.stage); }, nullptr);
  auto merged = analyze(stores, merge, progress);
  ASSERT_TRUE(merged.ok()) << merged.error().message();
  EXPECT_EQ(std::find(stages.begin(), stages.end(), "analysing"), stages.end());
  const RunResult expected = full.value();
  EXPECT_TRUE(withSources(merged.value(), job.inputs) == expected);
  EXPECT_EQ(runJson(withSources(merged.value(), job.inputs)), runJson(expected));

  // Stored back: each run.db now holds the job's comparison, and putting the
  // job together again changes nothing (the straggler found once, not twice).
  auto stored = testing::readStoredRun(stores);
  ASSERT_TRUE(stored.ok()) << stored.error().message();
  EXPECT_TRUE(stored->cross_rank == merged->cross_rank);
  EXPECT_TRUE(stored->ranks[2].findings == merged->ranks[2].findings);
  auto again = analyze(stores, merge);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again.value() == merged.value());
}

TEST(Pipeline, ResultsStoredUnderOtherOptionsAreAnalysedAgain) {
  Job job(2);
  PipelineOptions alone = storeIn(job.dir.path(), job.inputs[0]);
  alone.options_key = "window=hta";
  ASSERT_TRUE(analyze({job.inputs[0]}, alone).ok());
  PipelineOptions other;
  other.options_key = "window=all";
  other.analysis.window.mode = WindowMode::kAll;
  other.stored_results = StoredResults::kReuseSameOptions;
  std::vector<std::string> stages;
  const Progress progress([&](const ProgressUpdate& u) { stages.emplace_back(u.stage); }, nullptr);
  auto run = analyze({alone.output}, other, progress);
  ASSERT_TRUE(run.ok()) << run.error().message();
  EXPECT_NE(std::find(stages.begin(), stages.end(), "analysing"), stages.end());
  EXPECT_EQ(run->ranks[0].window.mode, WindowMode::kAll);
}

TEST(Pipeline, SummariesOnlyDropTheBubblesButStoreThem) {
  Job job(2);
  PipelineOptions options = storeIn(job.dir.path(), job.inputs[0]);
  options.summaries_only = true;
  auto run = analyze({job.inputs[0]}, options);
  ASSERT_TRUE(run.ok()) << run.error().message();
  EXPECT_TRUE(run->ranks[0].gaps.empty());
  auto stored = testing::readStoredRank(options.output);
  ASSERT_TRUE(stored.ok());
  EXPECT_FALSE(stored->gaps.empty());
}

// Every row of every table and index of a file, as text, in a fixed order
// (meta and stats by key: their ids follow the order of their upserts).
std::map<std::string, std::vector<std::string>> contentsOf(const std::string& path) {
  std::map<std::string, std::vector<std::string>> out;
  auto db = Database::open(path, Database::Mode::kReadOnly);
  EXPECT_TRUE(db.ok());
  if (!db.ok()) return out;
  std::vector<std::pair<std::string, std::string>> queries{
      {"schema", "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name"}};
  {
    auto objects = db->prepare("SELECT type, name, tbl_name FROM sqlite_schema ORDER BY name");
    while (objects->step().value()) {
      const std::string type(objects->columnText(0)), name(objects->columnText(1));
      const std::string table(objects->columnText(2));
      if (type == "table") {
        const char* order = name == "meta" ? "key" : name == "stats" ? "name" : "id";
        queries.emplace_back(name, "SELECT * FROM " + name + " ORDER BY " + order);
      } else if (name.rfind("sqlite_autoindex", 0) != 0) {
        // The index's own order, each entry with its row.
        queries.emplace_back(
            name, "SELECT * FROM " + table + " INDEXED BY " + name + " WHERE id >= 0 ORDER BY 1");
      }
    }
  }
  for (const auto& [name, sql] : queries) {
    auto stmt = db->prepare(sql);
    EXPECT_TRUE(stmt.ok()) << sql;
    if (!stmt.ok()) continue;
    while (stmt->step().value()) {
      std::string row;
      for (int c = 0; c < stmt->columnCount(); ++c) {
        row += std::to_string(stmt->columnType(c)) + ":" + std::string(stmt->columnText(c)) + "|";
      }
      out[name].push_back(std::move(row));
    }
  }
  return out;
}

// A first analysis writes its file in one go, without a journal
// (writeTraceFile, storeAnalysisInNewFile): the same events and results
// written batch by batch and stored into the finished file make the same
// tables, row for row and type for type, and SQLite finds the file sound.
TEST(Pipeline, AFirstAnalysisWritesTheFileSqliteWouldWrite) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  TempDir dir;
  const std::string in_one_go = dir.file("in_one_go.db"), inserted = dir.file("inserted.db");
  PipelineOptions options;
  options.output = in_one_go;
  auto run = analyze({testing::sharedTrace("kineto/v100_rank1.json.gz")}, options);
  ASSERT_TRUE(run.ok()) << run.error().message();

  auto events = readTrace(in_one_go);
  ASSERT_TRUE(events.ok()) << events.error().message();
  {
    auto db = Database::open(inserted, Database::Mode::kReadWriteCreate);
    ASSERT_TRUE(db.ok());
    auto writer = TraceWriter::create(std::move(db.value()));
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE(writer->append(events.value()).ok());
    ASSERT_TRUE(writer->finish().ok());
  }
  auto stored = Database::open(in_one_go, Database::Mode::kReadOnly);
  ASSERT_TRUE(stored.ok());
  auto results = readAnalysis(stored.value());
  ASSERT_TRUE(results.ok()) << results.error().message();
  ASSERT_TRUE(storeAnalysis(inserted, results.value(), storedAnalysisOptions(stored.value())).ok());
  EXPECT_GT(results->gaps.size(), 40000u);

  const auto a = contentsOf(in_one_go), b = contentsOf(inserted);
  ASSERT_EQ(a.size(), b.size());
  for (const auto& [name, rows] : a) {
    ASSERT_TRUE(b.count(name)) << name;
    EXPECT_EQ(rows.size(), b.at(name).size()) << name;
    EXPECT_TRUE(rows == b.at(name)) << name << " differs";
  }
  auto check = stored->prepare("PRAGMA integrity_check");
  ASSERT_TRUE(check.ok() && check->step().value());
  EXPECT_EQ(check->columnText(0), "ok");
}

}  // namespace
}  // namespace damscope
