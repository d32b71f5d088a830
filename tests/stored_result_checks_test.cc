// Stored results are believed only after they are checked (issue 32, §1):
// a run.db edited to hold a figure outside its declared range, with a
// damaged page, or with an analysis table dropped, is never shown as it is;
// its results are analysed again from its events, or the command exits 2
// with one line. The cross-rank store writes only into the results it was
// computed on. Each case edits a real stored run.db the damscope command made.
#include <gtest/gtest.h>

#include <sqlite3.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "analyzer/analyses/scorecard.h"
#include "analyzer/result/analysis_store.h"
#include "analyzer/result/result_rows.h"
#include "tests/test_support.h"
#include "trace/sqlite_db.h"

namespace damscope {
namespace {

using testing::CommandResult;
using testing::TempDir;

CommandResult damscope(const std::string& args) {
  return testing::runCommand(testing::damscopeBinary() + " " + args);
}

bool oneLine(const std::string& text) {
  return std::count(text.begin(), text.end(), '\n') == 1;
}

// A data-bound rank analysed and its results stored: `name`.db in `dir`.
std::string storedRun(const TempDir& dir, const std::string& name, int rank = 0) {
  const std::string trace = dir.file(name + ".json");
  testing::writeFile(trace, testing::dataBoundKinetoTrace(rank, 3000, 4));
  std::string store = dir.file(name + ".db");
  const CommandResult r = damscope("analyze -o " + store + " " + trace);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return store;
}

// A copy of `store` with `sql` run on it; every statement must change a row.
std::string damagedCopy(const TempDir& dir, const std::string& store, const std::string& sql) {
  std::string copy = dir.file("damaged.db");
  std::filesystem::copy_file(store, copy, std::filesystem::copy_options::overwrite_existing);
  auto db = Database::open(copy, Database::Mode::kReadWriteCreate);
  EXPECT_TRUE(db.ok());
  const Status done = db->exec(sql);
  EXPECT_TRUE(done.ok()) << sql << ": " << (done.ok() ? "" : done.error().message());
  EXPECT_GT(sqlite3_changes(db->handle()), 0) << sql << ": changed nothing";
  EXPECT_TRUE(db->close().ok());
  return copy;
}

// The stored results of `path`, read back and checked as every reader does.
Result<StoredRank> readBack(const std::string& path) {
  DAMSCOPE_ASSIGN_OR_RETURN(AnalysisTables rows, readAnalysis(path));
  return toRankResult(rows, path);
}

struct Tampering {
  const char* sql;
  const char* refusal;  // what the reader's error says: table, row and column
};

// The outside campaign's cases, and one of each cross-figure check.
const std::vector<Tampering>& tamperings() {
  static const std::vector<Tampering> kCases = {
      {"UPDATE breakdown SET idle_ns = 5 * dur WHERE step_id IS NULL",
       "breakdown row 0: idle_ns exceeds dur"},
      {"UPDATE findings SET max_gain_pct = 500 WHERE id = 0",
       "findings row 0: max_gain_pct 500 is outside its range (0..100)"},
      {"UPDATE findings SET max_gain_pct = 1e308 WHERE id = 0",
       "findings row 0: max_gain_pct 1e+308 is outside its range (0..100)"},
      {"UPDATE kernel_categories SET pct = 300 WHERE id = 0",
       "kernel_categories row 0: pct 300 is outside its range (0..100)"},
      {"UPDATE device_utilization SET gpu_util_pct = 250 WHERE id = 0",
       "device_utilization row 0: gpu_util_pct 250 is outside its range (0..100)"},
      {"UPDATE summary SET mfu_pct = 500", "summary row 0: mfu_pct 500 is outside its range"},
      {"UPDATE summary SET hfu_pct = -20", "summary row 0: hfu_pct -20 is outside its range"},
      {"UPDATE steps SET dur = -1000 WHERE id = 1",
       "steps row 1: dur -1000 is outside its range (>= 0)"},
      {"UPDATE mfu_steps SET mfu_pct = 1e9 WHERE id = 0",
       "mfu_steps row 0: mfu_pct 1e+09 is outside its range"},
      {"UPDATE summary SET starved_threshold_pct = -1e308",
       "summary row 0: starved_threshold_pct -1e+308 is outside its range"},
      {"UPDATE scorecard SET data_stall_ns = 9223372036854775807 WHERE step_id IS NULL",
       "the axes sum past dur"},
      {"UPDATE steps SET ts = 9223372036854775000 WHERE id = 0",
       "steps row 0: ts + dur is not a time"},
      {"UPDATE metrics SET value = 9e999 WHERE id = 0",
       "metrics row 0: value inf is outside its range (a finite value)"},
  };
  return kCases;
}

TEST(StoredResultChecks, TheReaderRefusesEachFigureOutsideItsRange) {
  TempDir dir;
  const std::string store = storedRun(dir, "rank");
  ASSERT_TRUE(readBack(store).ok());
  for (const Tampering& t : tamperings()) {
    const std::string copy = damagedCopy(dir, store, t.sql);
    const Result<StoredRank> back = readBack(copy);
    ASSERT_FALSE(back.ok()) << t.sql << ": accepted";
    EXPECT_EQ(back.error().message().rfind(copy + ": stored analysis is corrupt: ", 0), 0u)
        << back.error().message();
    EXPECT_NE(back.error().message().find(t.refusal), std::string::npos)
        << t.sql << ": " << back.error().message();
  }
}

// The events are in the same file: the refused results are analysed again,
// stored again, and the note says why; the tampered figure is not shown.
TEST(StoredResultChecks, RefusedResultsAreAnalysedAgainFromTheEvents) {
  TempDir dir;
  const std::string store = storedRun(dir, "rank");
  const CommandResult clean = damscope("analyze --format json " + store);
  ASSERT_EQ(clean.exit_code, 0) << clean.err;
  for (const Tampering& t : tamperings()) {
    const std::string copy = damagedCopy(dir, store, t.sql);
    for (const char* command : {"report --format md --no-store -o - ", "analyze --format json "}) {
      const CommandResult r = damscope(command + copy);
      EXPECT_EQ(r.exit_code, 0) << t.sql << ": " << r.err;
      EXPECT_NE(r.out.find("analysed again from the events"), std::string::npos)
          << t.sql << ": " << r.out;
      std::string shown = r.out;  // Markdown escapes the underscores
      std::erase(shown, '\\');
      EXPECT_NE(shown.find(t.refusal), std::string::npos) << t.sql << ": " << shown;
    }
    const CommandResult diff = damscope("diff --no-store " + store + " " + copy);
    EXPECT_EQ(diff.exit_code, 0) << t.sql << ": " << diff.err;
    EXPECT_TRUE(readBack(copy).ok()) << t.sql << ": not stored again";
  }
}

// Beyond the saturating sum the reader compares: Scorecard::total cannot wrap
// on the figures a damaged file holds (a UBSan report before).
TEST(StoredResultChecks, ScorecardTotalSaturatesInsteadOfWrapping) {
  Scorecard card;
  card.ns[0] = std::numeric_limits<int64_t>::max();
  card.ns[1] = 1000;
  EXPECT_EQ(card.total(), std::numeric_limits<int64_t>::max());
  card.ns[0] = std::numeric_limits<int64_t>::min() + 1;
  card.ns[1] = -1000;
  EXPECT_EQ(card.total(), std::numeric_limits<int64_t>::min());
  card.ns[0] = std::numeric_limits<int64_t>::max();
  card.ns[1] = std::numeric_limits<int64_t>::min() + 1;
  EXPECT_EQ(card.total(), 0);
}

// A dropped analysis table: the results are incomplete, so they are
// analysed again (and the table stored again), never "no such table".
TEST(StoredResultChecks, ADroppedAnalysisTableIsAnalysedAgain) {
  TempDir dir;
  const std::string store = storedRun(dir, "rank");
  for (const char* table : {"rank_comparison", "gaps", "scorecard"}) {
    const std::string copy = dir.file("dropped.db");
    std::filesystem::copy_file(store, copy, std::filesystem::copy_options::overwrite_existing);
    {
      auto db = Database::open(copy, Database::Mode::kReadWriteCreate);
      ASSERT_TRUE(db.ok());
      ASSERT_TRUE(db->exec(std::string("DROP TABLE ") + table).ok());
    }
    const Result<AnalysisTables> rows = readAnalysis(copy);
    ASSERT_FALSE(rows.ok());
    EXPECT_NE(rows.error().message().find(std::string("table ") + table + " is missing"),
              std::string::npos)
        << rows.error().message();
    const CommandResult r = damscope("analyze --format json " + copy);
    EXPECT_EQ(r.exit_code, 0) << table << ": " << r.err;
    EXPECT_NE(r.out.find("analysed again from the events"), std::string::npos) << r.out;
    EXPECT_TRUE(readBack(copy).ok()) << table << ": not stored again";
  }
}

// Refused results and no events to analyse instead: exit 2, one line that
// names what was wrong with the results.
TEST(StoredResultChecks, RefusedResultsWithoutReadableEventsExitTwo) {
  TempDir dir;
  const std::string store = storedRun(dir, "rank");
  const std::string copy = damagedCopy(
      dir, store, "UPDATE kernel_categories SET pct = 300 WHERE id = 0; DROP TABLE kernels");
  const CommandResult r = damscope("analyze " + copy);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(oneLine(r.err)) << r.err;
  EXPECT_NE(r.err.find("kernel_categories row 0: pct 300 is outside its range"), std::string::npos)
      << r.err;
}

// A page of the strings table overwritten: reuse reads no events, so only
// the page check on reuse (checkPages) sees it. Exit 2, one line.
TEST(StoredResultChecks, ADamagedPageIsFoundBeforeResultsAreReused) {
  TempDir dir;
  const std::string store = storedRun(dir, "rank");
  int64_t root = 0;
  int64_t page_size = 0;
  {
    auto db = Database::open(store, Database::Mode::kReadWriteCreate);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(db->exec("PRAGMA wal_checkpoint(TRUNCATE)").ok());
    auto q = db->prepare(
        "SELECT rootpage, (SELECT page_size FROM pragma_page_size) FROM sqlite_master "
        "WHERE name = 'strings'");
    ASSERT_TRUE(q.ok());
    ASSERT_TRUE(q->step().value());
    root = q->columnInt(0);
    page_size = q->columnInt(1);
  }
  ASSERT_GT(root, 1);
  {
    std::fstream file(store, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp((root - 1) * page_size);
    const std::string garbage(static_cast<size_t>(page_size), '\xa5');
    file.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
  }
  for (const char* command : {"analyze ", "report --format md --no-store -o - "}) {
    const CommandResult r = damscope(command + store);
    EXPECT_EQ(r.exit_code, 2) << command << r.err;
    EXPECT_TRUE(oneLine(r.err)) << r.err;
    EXPECT_NE(r.err.find(store + ": the file is damaged (SQLite's quick_check: "),
              std::string::npos)
        << r.err;
  }
}

// The cross-rank store compares and sets: results another analysis stored
// meanwhile (with other options) are kept, not overwritten with findings of
// the comparison made on the older ones.
TEST(StoredResultChecks, CrossRankStoreKeepsNewerResultsStoredMeanwhile) {
  TempDir dir;
  const std::string store = storedRun(dir, "rank");
  std::string key;
  {
    auto db = Database::open(store, Database::Mode::kReadOnly);
    ASSERT_TRUE(db.ok());
    key = storedAnalysisOptions(*db);
  }
  auto stored = readBack(store);
  ASSERT_TRUE(stored.ok());
  AnalysisTables comparison = toAnalysisTables(stored->rank);
  comparison.notes.analysis.push_back("cross_rank");
  comparison.notes.message.push_back("from the older results");
  comparison.notes.remedy.push_back("");
  const std::vector<std::string_view> tables = {NoteTable::kSqlName};

  // What `analyze r1.db --window all` left while this run compared ranks.
  const Result<bool> stale = storeAnalysisTables(store, comparison, tables, key + ";stale options");
  ASSERT_TRUE(stale.ok()) << stale.error().message();
  EXPECT_FALSE(*stale);
  auto kept = readBack(store);
  ASSERT_TRUE(kept.ok());
  EXPECT_EQ(kept->rank.notes, stored->rank.notes);

  const Result<bool> current = storeAnalysisTables(store, comparison, tables, key);
  ASSERT_TRUE(current.ok()) << current.error().message();
  EXPECT_TRUE(*current);
  auto replaced = readBack(store);
  ASSERT_TRUE(replaced.ok());
  EXPECT_EQ(replaced->rank.notes.back().message, "from the older results");
}

}  // namespace
}  // namespace damscope
