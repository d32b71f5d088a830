// The analysis store: its tables do not collide with the event tables, results
// survive a write/read round trip, storing again replaces earlier results, and
// a failed store leaves the earlier results and the events untouched, and
// results written into a fresh file (no journal, no fsync) equal stored ones, and
// the layout SQLite reports for a stored file is the declared one
// (analysis_tables.h).
#include <gtest/gtest.h>

#include "analyzer/result/analysis_store.h"
#include "tests/test_support.h"
#include "trace/table_schema.h"
#include "trace/trace_reader.h"
#include "trace/trace_writer.h"

namespace damscope {
namespace {

using testing::TempDir;

TraceTables oneKernelTrace() {
  TraceTables t;
  KernelTable::Row k;
  k.ts = 1000;
  k.dur = 500;
  k.device = 0;
  k.stream = 7;
  k.name = t.strings.intern("volta_sgemm_128x64_nn");
  t.kernels.append(k);
  return t;
}

AnalysisTables someResults(const std::string& verdict) {
  AnalysisTables a;
  SummaryTable::Row summary;
  summary.verdict = verdict;
  summary.verdict_may_be_off = 0;
  summary.window_mode = "hta";
  summary.window_cut = 0;
  summary.window_gpu_ops = 1;
  summary.first_step = 0;
  summary.steps_analysed = 1;
  summary.step_source = "profiler_step";
  summary.kernels = summary.kernel_ns = summary.fp32_matrix_ns = summary.tensor_core_ns = 0;
  summary.matrix_ns = summary.launched_kernels = summary.kernels_with_launch = 0;
  summary.shorter_than_launch = summary.shorter_than_threshold = summary.runtime_outliers = 0;
  summary.launch_delay_outliers = summary.utilization_steps = summary.overview_steps = 0;
  summary.overview_whole_span = 0;
  summary.events = summary.lost_events = summary.repaired_events = summary.clipped_events = 0;
  summary.mfu_flops_source = "none", summary.precision = "fp32";
  summary.precision_source = "default", summary.peak_source = "none";
  summary.roofline_kernels = summary.measured_kernels = summary.annotated_kernels = 0;
  summary.estimated_kernels = 0, summary.memory_estimated = 0;
  a.summary.append(summary);
  StepResultTable::Row s;
  s.number = 5;
  s.name = "ProfilerStep#5";
  s.host_ts = 0, s.host_dur = 100, s.ts = 0, s.dur = 120, s.in_window = 1, s.complete = 1;
  s.gpu_launches = 1;
  a.steps.append(s);
  DeviceUtilizationTable::Row u;
  u.device = 0, u.ts = 0, u.dur = 120, u.kernel_ns = 60, u.gpu_util_pct = 55.5;
  u.kernels_without_grid = 0, u.kernels_with_occupancy = 0, u.primary_device = 1;
  a.device_utilization.append(u);  // occupancy_pct unknown: stored as NULL
  return a;
}

TEST(AnalysisStore, AnalysisTablesDoNotCollideWithEventTables) {
  auto db = Database::open(":memory:", Database::Mode::kReadWriteCreate);
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE(db->exec(schemaTablesSql()).ok());
  EXPECT_TRUE(db->exec(analysisSchemaSql()).ok()) << "an analysis table reuses an event table name";
}

TEST(AnalysisStore, RoundTripKeepsRowsAndNulls) {
  TempDir dir;
  const std::string path = dir.file("run.db");
  ASSERT_TRUE(saveTrace(oneKernelTrace(), path, false).ok());
  ASSERT_TRUE(storeAnalysis(path, someResults("data-bound")).ok());

  auto read = readAnalysis(path);
  ASSERT_TRUE(read.ok()) << read.error().message();
  ASSERT_EQ(read->steps.size(), 1u);
  EXPECT_EQ(read->steps.name[0], "ProfilerStep#5");
  EXPECT_EQ(read->steps.dur[0], 120);
  EXPECT_TRUE(isNull(read->steps.range_id[0]));
  EXPECT_TRUE(std::isnan(read->steps.tokens_per_s[0]));
  ASSERT_EQ(read->summary.size(), 1u);
  EXPECT_EQ(read->summary.verdict[0], "data-bound");
  ASSERT_EQ(read->device_utilization.size(), 1u);
  EXPECT_DOUBLE_EQ(read->device_utilization.gpu_util_pct[0], 55.5);
  EXPECT_TRUE(std::isnan(read->device_utilization.occupancy_pct[0]));
}

// The rows `sql` returns, as text with NULLs marked: what a reader of the file sees.
std::string rows(Database& db, const std::string& sql) {
  auto stmt = db.prepare(sql);
  if (!stmt.ok()) return "cannot run " + sql;
  std::string out;
  while (true) {
    auto row = stmt->step();
    if (!row.ok() || !row.value()) break;
    for (int c = 0; c < stmt->columnCount(); ++c) {
      out += stmt->isNull(c) ? std::string("NULL") : std::string(stmt->columnText(c));
      out += c + 1 < stmt->columnCount() ? "|" : "\n";
    }
  }
  return out;
}

TEST(AnalysisStore, ResultsWrittenIntoANewFileEqualStoredOnes) {
  AnalysisTables results = someResults("data-bound");
  for (int64_t i = 0; i < 3; ++i) {  // out of time order: stored as they come
    GapTable::Row g;
    g.ts = 300 - 100 * i, g.dur = 50, g.device = 0, g.stream = 7, g.in_window = 1;
    g.cause = "host_launch";
    g.data_loading_ns = g.synchronization_ns = g.communication_wait_ns = g.other_ns = 0;
    g.host_launch_ns = 50;
    results.gaps.append(g);
  }
  TempDir dir;
  const std::string stored = dir.file("stored.db"), fresh = dir.file("fresh.db");
  ASSERT_TRUE(saveTrace(oneKernelTrace(), stored, false).ok());
  ASSERT_TRUE(saveTrace(oneKernelTrace(), fresh, false).ok());
  ASSERT_TRUE(storeAnalysis(stored, results, "options").ok());
  Status written = storeAnalysisInNewFile(fresh, results, "options");
  ASSERT_TRUE(written.ok()) << written.error().message();

  auto a = Database::open(stored, Database::Mode::kReadOnly);
  auto b = Database::open(fresh, Database::Mode::kReadOnly);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_TRUE(hasAnalysis(*b));
  EXPECT_EQ(storedAnalysisOptions(*b), "options");
  AnalysisTables names;
  names.forEachTable([&](const auto& table) {
    const std::string all =
        std::string("SELECT * FROM ") + std::decay_t<decltype(table)>::kSqlName + " ORDER BY id";
    EXPECT_EQ(rows(*b, all), rows(*a, all)) << all;
  });
  const std::string schema = "SELECT type, name, sql FROM sqlite_master ORDER BY name";
  EXPECT_EQ(rows(*b, schema), rows(*a, schema));
  EXPECT_EQ(rows(*b, "PRAGMA integrity_check"), "ok\n");
  EXPECT_EQ(rows(*b, "PRAGMA journal_mode"), "wal\n");
}

// The declared layout of one table, written as SQLite's pragmas report it:
// each column (name, type, NOT NULL, primary key) and each index (name,
// unique, partial, its column).
template <typename Table>
std::string declaredLayout() {
  std::string out = "id|INTEGER|0|1\n";
  for (const ColumnDeclaration& c : Table::kColumns) {
    out += std::string(c.name) + "|" + c.sql_type + "|" + (c.null == kNotNull ? "1" : "0") + "|0\n";
  }
  for (const IndexDeclaration& i : Table::indexes()) {
    out += std::string("index ") + i.name + "|0|0|" + i.column + "\n";
  }
  return out;
}

std::string storedLayout(Database& db, const std::string& table) {
  std::string out = rows(db, "SELECT name, type, \"notnull\", pk FROM pragma_table_info('" + table +
                                 "') ORDER BY cid");
  auto indexes = db.prepare("SELECT name, \"unique\", partial FROM pragma_index_list('" + table +
                            "') ORDER BY name");
  while (indexes.ok()) {
    auto row = indexes->step();
    if (!row.ok() || !row.value()) break;
    const std::string name(indexes->columnText(0));
    out += "index " + name + "|" + std::string(indexes->columnText(1)) + "|" +
           std::string(indexes->columnText(2)) + "|" +
           rows(db, "SELECT name FROM pragma_index_info('" + name + "')");
  }
  return out;
}

TEST(AnalysisStore, SqliteReportsTheDeclaredLayoutForStoredFiles) {
  TempDir dir;
  const std::string stored = dir.file("stored.db"), fresh = dir.file("fresh.db");
  ASSERT_TRUE(saveTrace(oneKernelTrace(), stored, false).ok());
  ASSERT_TRUE(saveTrace(oneKernelTrace(), fresh, false).ok());
  ASSERT_TRUE(storeAnalysis(stored, someResults("data-bound")).ok());
  ASSERT_TRUE(storeAnalysisInNewFile(fresh, someResults("data-bound")).ok());
  for (const std::string& path : {stored, fresh}) {
    auto db = Database::open(path, Database::Mode::kReadOnly);
    ASSERT_TRUE(db.ok());
    AnalysisTables{}.forEachTable([&](const auto& table) {
      using Table = std::decay_t<decltype(table)>;
      EXPECT_EQ(storedLayout(*db, Table::kSqlName), declaredLayout<Table>())
          << path << ": " << Table::kSqlName;
    });
  }
}

TEST(AnalysisStore, StoringAgainReplacesEarlierResults) {
  TempDir dir;
  const std::string path = dir.file("run.db");
  ASSERT_TRUE(saveTrace(oneKernelTrace(), path, false).ok());
  ASSERT_TRUE(storeAnalysis(path, someResults("data-bound")).ok());
  AnalysisTables second = someResults("compute-bound");
  second.device_utilization.clear();
  ASSERT_TRUE(storeAnalysis(path, second).ok());

  auto read = readAnalysis(path);
  ASSERT_TRUE(read.ok()) << read.error().message();
  EXPECT_EQ(read->device_utilization.size(), 0u);
  EXPECT_EQ(read->summary.verdict[0], "compute-bound");
  EXPECT_EQ(read->summary.size(), 1u);  // not 2: the first results are gone
}

TEST(AnalysisStore, FailedStoreKeepsEarlierResultsAndEvents) {
  TempDir dir;
  const std::string path = dir.file("run.db");
  ASSERT_TRUE(saveTrace(oneKernelTrace(), path, false).ok());
  ASSERT_TRUE(storeAnalysis(path, someResults("data-bound")).ok());

  AnalysisTables broken = someResults("memory-bound");
  StepResultTable::Row bad;  // number is NOT NULL in the schema: the insert fails
  bad.host_ts = 0, bad.host_dur = 1, bad.ts = 0, bad.dur = 1, bad.in_window = 0, bad.complete = 0;
  bad.gpu_launches = 0;
  broken.steps.append(bad);
  Status status = storeAnalysis(path, broken);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message().find("steps"), std::string::npos) << status.error().message();

  auto read = readAnalysis(path);
  ASSERT_TRUE(read.ok()) << read.error().message();
  EXPECT_EQ(read->summary.verdict[0], "data-bound");
  EXPECT_EQ(read->steps.size(), 1u);
  auto events = readTrace(path);
  ASSERT_TRUE(events.ok()) << events.error().message();
  EXPECT_EQ(events->kernels.size(), 1u);
}

TEST(AnalysisStore, RefusesFilesThatAreNotTraceStoresAndReportsMissingResults) {
  TempDir dir;
  const std::string path = dir.file("other.db");
  {
    auto db = Database::open(path, Database::Mode::kReadWriteCreate);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(db->exec("CREATE TABLE t(x)").ok());
  }
  EXPECT_FALSE(storeAnalysis(path, someResults("data-bound")).ok());

  const std::string run = dir.file("run.db");
  ASSERT_TRUE(saveTrace(oneKernelTrace(), run, false).ok());
  auto read = readAnalysis(run);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().message().find("holds no analysis results"), std::string::npos)
      << read.error().message();
}

}  // namespace
}  // namespace damscope
