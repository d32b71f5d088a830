// The pipeline's one door (analyzer/pipeline/pipeline.h) as each front end
// walks through it: every input's database opened once for its work, every
// rank analysed once, stored results taken by the one rule each front end
// asks for, and a job of many copies of one trace described in notes that
// do not grow with the square of its ranks.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "analyzer/importers/trace_import.h"
#include "analyzer/pipeline/pipeline.h"
#include "analyzer/report/result_json.h"
#include "tests/sqlite_open_counter.h"
#include "tests/test_support.h"
#include "trace/trace_writer.h"

namespace damscope {
namespace {

using testing::TempDir;

// The options each front end gives (cli/*_command.cc, gui/app/run_loader.cc).
PipelineOptions analyzeOptions() {
  PipelineOptions o;
  o.stored_results = StoredResults::kReuseSameOptions;
  o.options_key = "damscope test; defaults";
  o.summaries_only = true;
  return o;
}
PipelineOptions showOptions() {
  return PipelineOptions{};  // report, export, diff
}
PipelineOptions guiOptions() {
  PipelineOptions o;
  o.store_imports = false;
  return o;
}

// A run.db holding a trace's events and no results, as `damscope import`
// leaves it.
std::string importedRunDb(TempDir& dir, const std::string& name, const std::string& json) {
  const std::string trace = dir.file(name + ".json");
  std::string db = dir.file(name + ".db");
  testing::writeFile(trace, json);
  auto tables = importTrace(trace);
  EXPECT_TRUE(tables.ok()) << tables.error().message();
  EXPECT_TRUE(saveTrace(tables.value(), db, false).ok());
  return db;
}

// How many times each input entered the "analysing" stage.
struct AnalysisCounter {
  std::map<std::string, int> analysed;
  std::string last_stage, last_detail;
  Progress progress() {
    return Progress(
        [this](const ProgressUpdate& u) {
          if (u.stage == "analysing" && (last_stage != "analysing" || last_detail != u.detail)) {
            ++analysed[std::string(u.detail)];
          }
          last_stage = std::string(u.stage);
          last_detail = std::string(u.detail);
        },
        nullptr);
  }
};

TEST(PipelineFrontEnds, EachOpensARunDbOnceForItsWork) {
  TempDir dir;
  const std::string a = importedRunDb(dir, "a", testing::dataBoundKinetoTrace(0, 0, 10));
  const std::string b = importedRunDb(dir, "b", testing::dataBoundKinetoTrace(0, 100, 10));
  testing::SqliteOpenCounter counter;

  // analyze: read the events, analyse, store the results, on one connection.
  auto first = openRun({a}, analyzeOptions(), EventsNeeded::kNone);
  ASSERT_TRUE(first.ok()) << first.error().message();
  EXPECT_EQ(first->origins.front(), RankOrigin::kAnalysed);
  EXPECT_EQ(counter.opens(a), 1);
  // analyze again: the stored results read back.
  counter.reset();
  auto again = openRun({a}, analyzeOptions(), EventsNeeded::kNone);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->origins.front(), RankOrigin::kReadBack);
  EXPECT_EQ(counter.opens(a), 1);
  // report (HTML: the first rank's events too), export, the Markdown report.
  for (EventsNeeded need : {EventsNeeded::kFirstRank, EventsNeeded::kNone}) {
    counter.reset();
    auto shown = openRun({a}, showOptions(), need);
    ASSERT_TRUE(shown.ok());
    EXPECT_EQ(counter.opens(a), 1);
    EXPECT_EQ(shown->tables.size(), need == EventsNeeded::kFirstRank ? 1u : 0u);
  }
  // export of a run.db not analysed yet: analysed and stored on one connection.
  counter.reset();
  auto exported = openRun({b}, showOptions(), EventsNeeded::kFirstRank);
  ASSERT_TRUE(exported.ok());
  EXPECT_EQ(exported->origins.front(), RankOrigin::kAnalysed);
  EXPECT_FALSE(exported->tables.front().kernels.empty());
  EXPECT_EQ(counter.opens(b), 1);
  // diff: each side once.
  counter.reset();
  ASSERT_TRUE(openRun({a}, showOptions(), EventsNeeded::kNone).ok());
  ASSERT_TRUE(openRun({b}, showOptions(), EventsNeeded::kNone).ok());
  EXPECT_EQ(counter.opens(a), 1);
  EXPECT_EQ(counter.opens(b), 1);
  // the GUI: both ranks with their events, each file once (their stored
  // results are each alone: the comparison is computed, and stored in each
  // file: once more).
  counter.reset();
  auto gui = openRun({a, b}, guiOptions(), EventsNeeded::kEveryRank);
  ASSERT_TRUE(gui.ok()) << gui.error().message();
  ASSERT_EQ(gui->tables.size(), 2u);
  EXPECT_EQ(counter.opens(a), 2);
  EXPECT_EQ(counter.opens(b), 2);
  // ... and shown again, stored with their comparison: once each.
  counter.reset();
  auto shown = openRun({a, b}, guiOptions(), EventsNeeded::kEveryRank);
  ASSERT_TRUE(shown.ok());
  EXPECT_EQ(counter.opens(a), 1);
  EXPECT_EQ(counter.opens(b), 1);
  EXPECT_TRUE(shown->run.cross_rank == gui->run.cross_rank);
}

TEST(PipelineFrontEnds, AnEarlierImportIsOpenedOnce) {
  TempDir dir;
  const std::string trace = dir.file("rank0.json");
  testing::writeFile(trace, testing::dataBoundKinetoTrace(0, 0, 10));
  PipelineOptions options = analyzeOptions();
  options.output = dir.file("rank0.db");
  ASSERT_TRUE(openRun({trace}, options, EventsNeeded::kNone).ok());
  testing::SqliteOpenCounter counter;
  auto again = openRun({trace}, options, EventsNeeded::kNone);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->origins.front(), RankOrigin::kReadBack);
  EXPECT_EQ(counter.opens(options.output), 1);
  counter.reset();
  PipelineOptions report = showOptions();
  report.output = options.output;
  auto shown = openRun({trace}, report, EventsNeeded::kFirstRank);
  ASSERT_TRUE(shown.ok());
  EXPECT_EQ(counter.opens(options.output), 1);
  EXPECT_EQ(shown->run.ranks.front().source, trace);
  EXPECT_EQ(shown->run.ranks.front().store, options.output);
}

// `damscope report rank0.json rank1.json` of a job nobody analysed: each
// rank imported and analysed once (it was twice for the first rank, when the
// report opened it for its events and again for the job's results).
TEST(PipelineFrontEnds, AReportOfAnUnanalysedJobAnalysesEachRankOnce) {
  TempDir dir;
  const std::vector<std::string> inputs{dir.file("rank0.json"), dir.file("rank1.json")};
  testing::writeFile(inputs[0], testing::dataBoundKinetoTrace(0, 0, 10));
  testing::writeFile(inputs[1], testing::dataBoundKinetoTrace(1, 200, 10));
  const auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir.path());
  AnalysisCounter counter;
  auto report = openRun(inputs, showOptions(), EventsNeeded::kFirstRank, counter.progress());
  std::filesystem::current_path(cwd);
  ASSERT_TRUE(report.ok()) << report.error().message();
  EXPECT_EQ(counter.analysed[inputs[0]], 1);
  EXPECT_EQ(counter.analysed[inputs[1]], 1);
  EXPECT_TRUE(report->run.ranks[1].comparison->straggler);
  EXPECT_EQ(report->tables.size(), 1u);

  // One rank analysed before, the other not: the first is read back, the
  // second analysed, and their comparison computed (not the one stored with
  // the first alone, which has none).
  TempDir other;
  const std::vector<std::string> job{other.file("rank0.json"), other.file("rank1.json")};
  testing::writeFile(job[0], testing::dataBoundKinetoTrace(0, 0, 10));
  testing::writeFile(job[1], testing::dataBoundKinetoTrace(1, 200, 10));
  std::filesystem::current_path(other.path());
  auto alone = openRun({job[0]}, showOptions(), EventsNeeded::kNone);
  AnalysisCounter second;
  auto mixed = openRun(job, showOptions(), EventsNeeded::kNone, second.progress());
  std::filesystem::current_path(cwd);
  ASSERT_TRUE(alone.ok() && mixed.ok()) << mixed.error().message();
  EXPECT_EQ(second.analysed[job[0]], 0);
  EXPECT_EQ(second.analysed[job[1]], 1);
  EXPECT_EQ(mixed->origins, (std::vector{RankOrigin::kReadBack, RankOrigin::kAnalysed}));
  ASSERT_EQ(mixed->run.cross_rank.size(), 2u);
  EXPECT_TRUE(mixed->run.ranks[1].comparison->straggler);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(mixed->run.cross_rank[i].median_step_ns, report->run.cross_rank[i].median_step_ns);
    EXPECT_EQ(mixed->run.cross_rank[i].straggler, report->run.cross_rank[i].straggler);
  }
}

// The JSON `damscope analyze --no-store` prints for `copies` copies of one
// trace (all claiming rank 0), in bytes per rank.
double jsonBytesPerRank(const std::string& trace, size_t copies) {
  PipelineOptions options = analyzeOptions();
  options.store = false;
  options.jobs = 2;
  auto run = openRun(std::vector<std::string>(copies, trace), options, EventsNeeded::kNone);
  EXPECT_TRUE(run.ok()) << run.error().message();
  if (!run.ok()) return 0;
  const auto& notes = run->run.cross_rank_notes;
  EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [&](const std::string& n) {
    return n.find("rank 0 is claimed by " + std::to_string(copies) + " files") != std::string::npos;
  }));
  return static_cast<double>(runJsonText(run->run).size()) / static_cast<double>(copies);
}

// Copies of one trace all claim rank 0: one note says so, naming a few of
// them, so the output grows with the ranks, not their square (500 copies
// once made a 66 MB JSON, a note per other claimant in every rank).
TEST(PipelineFrontEnds, ManyClaimsOfOneRankAreOneNoteOfBoundedSize) {
  TempDir dir;
  const std::string trace = dir.file("rank0.json");
  testing::writeFile(trace, testing::dataBoundKinetoTrace(0, 0, 4));
  const double at_100 = jsonBytesPerRank(trace, 100);
  const double at_400 = jsonBytesPerRank(trace, 400);
  ASSERT_GT(at_100, 0);
  EXPECT_LT(std::abs(at_400 / at_100 - 1.0), 0.10) << at_100 << " vs " << at_400 << " bytes/rank";
}

}  // namespace
}  // namespace damscope
