// libFuzzer target: reading a damscope run.db (trace/trace_reader.cc,
// analyzer/result/analysis_store.cc and result_rows.cc, trace/trace_summary.cc)
// as `analyze`, `info`, `diff` and `export` do. The input is written to a
// file, as SQLite reads one. Whatever the reader accepts must keep the store's time contract and
// analyse without a crash. Stored results the reader accepts (every figure in
// its declared range, analysis_tables.h) must stay accepted when stored again:
// a figure derived from accepted ones (a share of a span) is in its range too.
// The seeds hold stored results of the current layout (kAnalysisSchemaVersion),
// so mutations reach the figures' checks rather than the version's.
#include <chrono>
#include <cstddef>
#include <cstdint>

#include "analyzer/analyses/cpu_device_work.h"
#include "analyzer/analyses/rank_analysis.h"
#include "analyzer/result/analysis_store.h"
#include "analyzer/result/result_rows.h"
#include "fuzz/fuzz_checks.h"
#include "trace/sqlite_db.h"
#include "trace/trace_reader.h"
#include "trace/trace_summary.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace damscope;
  const std::string path = fuzz::writeInputFile("run.db", data, size);
  auto db = Database::open(path, Database::Mode::kReadOnly);
  if (!db.ok()) return 0;
  (void)summarizeTrace(db.value());
  (void)checkPages(db.value(), std::chrono::seconds(1));
  if (auto stored = readAnalysis(db.value()); stored.ok()) {
    if (auto result = toRankResult(*stored, path); result.ok()) {
      const AnalysisTables again = toAnalysisTables(result->rank, result->job);
      if (auto back = toRankResult(again, path); !back.ok()) {
        fuzz::fail("accepted results stored again are refused: " + back.error().message());
      }
    }
  }
  auto tables = readTrace(db.value());
  if (!tables.ok()) return 0;
  fuzz::checkEventTimesHold(tables.value());
  deriveCpuDeviceWork(tables.value());  // as the pipeline does after every read
  auto analysis = analyzeRank(tables.value(), AnalysisOptions{});
  if (!analysis.ok()) fuzz::fail("analysis fails: " + analysis.error().message());
  return 0;
}
