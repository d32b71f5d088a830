// Progress and cancellation of importTrace (base/progress.h): fractions never
// decrease and end at 1 through every stage of a Kineto .json, a .json.gz and
// an nsys export; a cancel seen at the first report stops each kind at once
// with ErrorCode::kCancelled; and a cancel from another thread stops a large
// import part-way through its parse.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "analyzer/importers/kineto/kineto_importer.h"
#include "analyzer/importers/trace_import.h"
#include "tests/test_support.h"
#include "trace/sqlite_db.h"

namespace damscope {
namespace {

using testing::TempDir;

struct Report {
  std::string stage;
  double fraction;
};

// A Progress that records every report, cancelling `token` at the first one
// when `cancel_at_first` is set.
class Recorder {
 public:
  explicit Recorder(bool cancel_at_first = false) : cancel_at_first_(cancel_at_first) {}

  Progress progress() {
    return Progress(
        [this](const ProgressUpdate& u) {
          reports.push_back({std::string(u.stage), u.fraction});
          if (cancel_at_first_) token.cancel();
        },
        &token);
  }

  CancelToken token;
  std::vector<Report> reports;

 private:
  bool cancel_at_first_;
};

// A current-format Kineto trace of `launches` kernel launches (an op, its
// launch call and the kernel): about 450 bytes of JSON per launch.
std::string generatedKinetoTrace(int launches) {
  std::string json = R"({"schemaVersion": 1, "traceEvents": [)";
  for (int i = 0; i < launches; ++i) {
    const std::string ts = std::to_string(1000 + i * 10), id = std::to_string(i);
    if (i > 0) json += ",\n";
    json += R"({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": )" + ts +
            R"(, "dur": 5, "args": {"External id": )" + id + "}},\n";
    json += R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, )"
            R"("ts": )" +
            ts + R"(, "dur": 2, "args": {"External id": )" + id + R"(, "correlation": )" + id +
            "}},\n";
    json += R"({"ph": "X", "cat": "kernel", "name": "ampere_sgemm_64x32_nn", "pid": 0, "tid": 7, )"
            R"("ts": )" +
            ts + R"(, "dur": 8, "args": {"device": 0, "stream": 7, "correlation": )" + id + "}}";
  }
  json += "]}";
  return json;
}

void createDb(const std::string& path, const std::string& sql) {
  auto db = Database::open(path, Database::Mode::kReadWriteCreate);
  ASSERT_TRUE(db.ok());
  Status status = db->exec(sql);
  ASSERT_TRUE(status.ok()) << status.error().message();
}

// An nsys export with `calls` runtime calls of one thread.
std::string generatedNsysExport(int calls) {
  return R"sql(
    CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
    INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel_v7000');
    CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, globalTid INTEGER,
      correlationId INTEGER, nameId INTEGER);
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < )sql" +
         std::to_string(calls) + R"sql()
    INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME SELECT i * 10, i * 10 + 5, 16777217, i, 1 FROM n;
  )sql";
}

constexpr const char* kTinyKineto = R"json({"traceEvents": [
  {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1, "dur": 2,
   "args": {"device": 0, "stream": 7, "correlation": 1}}]})json";

void expectNonDecreasingToOne(const std::vector<Report>& reports) {
  ASSERT_FALSE(reports.empty());
  for (size_t i = 1; i < reports.size(); ++i) {
    EXPECT_GE(reports[i].fraction, reports[i - 1].fraction)
        << "report " << i << " (" << reports[i].stage << ") goes back from "
        << reports[i - 1].stage;
  }
  EXPECT_DOUBLE_EQ(reports.back().fraction, 1.0);
}

// The stages in the order they first report.
std::vector<std::string> stages(const std::vector<Report>& reports) {
  std::vector<std::string> seen;
  for (const Report& r : reports) {
    if (seen.empty() || seen.back() != r.stage) seen.push_back(r.stage);
  }
  return seen;
}

// 30,000 launches make about 13 MB of JSON: a dozen reports, one per MiB. A
// JSON file, plain or .gz, is parsed while a second thread reads or inflates
// it: one stage each, reported as the parse goes, then the import's finishing
// as a stage of its own (the bar must not sit at the read's end meanwhile).
TEST(ImportProgress, KinetoFractionsNeverDecreaseAndEndAtOne) {
  TempDir dir;
  const std::string json = generatedKinetoTrace(30000);
  ASSERT_GT(json.size(), 12u << 20);
  testing::writeFile(dir.file("trace.json"), json);
  testing::writeGzip(dir.file("trace.json.gz"), json);

  Recorder plain;
  auto tables = importTrace(dir.file("trace.json"), nullptr, plain.progress());
  ASSERT_TRUE(tables.ok()) << tables.error().message();
  EXPECT_EQ(tables->kernels.size(), 30000u);
  expectNonDecreasingToOne(plain.reports);
  EXPECT_EQ(stages(plain.reports),
            (std::vector<std::string>{"reading and parsing", "finishing the import"}));
  EXPECT_GE(plain.reports.size(), 12u);

  Recorder gzip;
  tables = importTrace(dir.file("trace.json.gz"), nullptr, gzip.progress());
  ASSERT_TRUE(tables.ok()) << tables.error().message();
  expectNonDecreasingToOne(gzip.reports);
  EXPECT_EQ(stages(gzip.reports),
            (std::vector<std::string>{"decompressing and parsing", "finishing the import"}));
  EXPECT_GE(gzip.reports.size(), 12u);
}

// 300,000 rows: a report every 65,536.
TEST(ImportProgress, NsysFractionsNeverDecreaseAndEndAtOne) {
  TempDir dir;
  const std::string path = dir.file("report.sqlite");
  createDb(path, generatedNsysExport(300000));
  Recorder recorder;
  auto tables = importTrace(path, nullptr, recorder.progress());
  ASSERT_TRUE(tables.ok()) << tables.error().message();
  EXPECT_EQ(tables->api_calls.size(), 300000u);
  expectNonDecreasingToOne(recorder.reports);
  EXPECT_EQ(stages(recorder.reports),
            (std::vector<std::string>{"reading", "finishing the import"}));
  EXPECT_GE(recorder.reports.size(), 6u);  // start, four in between, end
  EXPECT_GT(recorder.reports[1].fraction, 0.0);
  EXPECT_LT(recorder.reports[1].fraction, 0.5);
}

// Cancelled at the first report, each kind of input stops there: no report
// follows, and the error is the cancellation, not a complaint about the input.
TEST(ImportProgress, CancelAtTheFirstReportStopsEveryFormat) {
  TempDir dir;
  testing::writeFile(dir.file("tiny.json"), kTinyKineto);
  testing::writeGzip(dir.file("tiny.json.gz"), kTinyKineto);
  createDb(dir.file("tiny.sqlite"), generatedNsysExport(10));
  for (const char* name : {"tiny.json", "tiny.json.gz", "tiny.sqlite"}) {
    SCOPED_TRACE(name);
    Recorder recorder(/*cancel_at_first=*/true);
    auto tables = importTrace(dir.file(name), nullptr, recorder.progress());
    ASSERT_FALSE(tables.ok());
    EXPECT_EQ(tables.error().code(), ErrorCode::kCancelled) << tables.error().message();
    EXPECT_EQ(recorder.reports.size(), 1u);
  }
}

// The parse stops at its own checks, not only between stages: cancelled at
// its first report, importKinetoJson reports nothing more.
TEST(ImportProgress, CancelInsideTheKinetoParseStopsIt) {
  std::string json = generatedKinetoTrace(30000);
  Recorder recorder(/*cancel_at_first=*/true);
  auto tables = importKinetoJson(json, "generated.json", recorder.progress());
  ASSERT_FALSE(tables.ok());
  EXPECT_EQ(tables.error().code(), ErrorCode::kCancelled) << tables.error().message();
  ASSERT_EQ(recorder.reports.size(), 1u);
  EXPECT_LT(recorder.reports[0].fraction, 0.2);
}

// A cancel from another thread (the GUI's Cancel button) stops a 30 MB import
// part-way through its parse. So that the cancel lands mid-parse on a loaded
// machine too, the first report of the parse waits until the other thread has
// cancelled; the import must then stop at its next check.
TEST(ImportProgress, CancelFromAnotherThreadStopsALargeImportEarly) {
  TempDir dir;
  testing::writeFile(dir.file("large.json"), generatedKinetoTrace(70000));
  CancelToken token;
  std::promise<void> parsing_started;
  bool signalled = false;
  std::vector<Report> reports;
  const Progress progress(
      [&](const ProgressUpdate& u) {
        reports.push_back({std::string(u.stage), u.fraction});
        if (u.stage != "reading and parsing" || signalled) return;
        signalled = true;
        parsing_started.set_value();
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (!token.cancelled() && std::chrono::steady_clock::now() < deadline) {
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
      },
      &token);
  std::thread canceller([&] {
    parsing_started.get_future().wait();
    token.cancel();
  });
  auto tables = importTrace(dir.file("large.json"), nullptr, progress);
  if (!signalled) parsing_started.set_value();  // never reached parsing: release the thread
  canceller.join();

  ASSERT_FALSE(tables.ok());
  EXPECT_EQ(tables.error().code(), ErrorCode::kCancelled) << tables.error().message();
  ASSERT_FALSE(reports.empty());
  EXPECT_EQ(reports.back().stage, "reading and parsing");
  EXPECT_LT(reports.back().fraction, 0.5);
}

}  // namespace
}  // namespace damscope
