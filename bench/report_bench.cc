// `damscope report`'s speed on an analysed run.db: the issue-9 target is the
// report of ../shared/traces/kineto/v100_rank1.json.gz, already analysed, in
// under 0.5 s. The trace is imported and analysed into a temporary run.db
// once, untimed; then
//
//   BM_ReportHtml    what `damscope report RUN.db -o r.html` does: read the
//                    stored results and the events, build the step strip,
//                    render the HTML
//   BM_RenderHtml    the rendering alone (results and events in memory)
//   BM_ReportMarkdown  the Markdown report from run.db (results only)
//
// Counters: the document's size. Skips when ../shared/traces is absent.
//
// Run: build/bench/report_bench [--benchmark_filter=...]
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "analyzer/pipeline/pipeline.h"
#include "analyzer/report/report_html.h"
#include "analyzer/report/step_strip.h"

namespace damscope {
namespace {

const std::string kTrace = DAMSCOPE_SOURCE_DIR "/../shared/traces/kineto/v100_rank1.json.gz";

// Removes the temporary directory when the process ends.
struct TempDirectory {
  std::string path;
  ~TempDirectory() {
    std::error_code ec;
    if (!path.empty()) std::filesystem::remove_all(path, ec);
  }
};

// The analysed run.db, made once per process; empty when the trace is absent
// or fails to analyse (the message says why).
const std::string& analysedRunDb(std::string& why) {
  static std::string path, error;
  static TempDirectory temp;
  static bool made = false;
  if (!made) {
    made = true;
    if (!std::filesystem::exists(kTrace)) {
      error = kTrace + " is absent";
    } else {
      char dir[] = "/tmp/damscope_report_bench_XXXXXX";
      if (mkdtemp(dir) == nullptr) {
        error = "cannot make a temporary directory";
      } else {
        temp.path = dir;
        PipelineOptions options;
        options.output = temp.path + "/v100_rank1.db";
        auto run = openRun({kTrace}, options, EventsNeeded::kNone);
        if (run.ok()) {
          path = options.output;
        } else {
          error = run.error().message();
        }
      }
    }
  }
  why = error;
  return path;
}

void BM_ReportHtml(benchmark::State& state) {
  std::string why;
  const std::string& db = analysedRunDb(why);
  if (db.empty()) return state.SkipWithError(why.c_str());
  size_t bytes = 0;
  for (auto _ : state) {
    auto opened = openRun({db}, PipelineOptions{}, EventsNeeded::kFirstRank);
    if (!opened.ok() || opened->origins.front() != RankOrigin::kReadBack) {
      return state.SkipWithError("run.db not read back");
    }
    const RunResult& run = opened->run;
    const std::string html =
        renderHtmlReport(run, buildStepStrip(opened->tables.front(), run.ranks.front()));
    bytes = html.size();
    benchmark::DoNotOptimize(html.data());
  }
  state.counters["html_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_ReportHtml)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_RenderHtml(benchmark::State& state) {
  std::string why;
  const std::string& db = analysedRunDb(why);
  if (db.empty()) return state.SkipWithError(why.c_str());
  auto opened = openRun({db}, PipelineOptions{}, EventsNeeded::kFirstRank);
  if (!opened.ok()) return state.SkipWithError(opened.error().message().c_str());
  const RunResult& run = opened->run;
  for (auto _ : state) {
    const std::string html =
        renderHtmlReport(run, buildStepStrip(opened->tables.front(), run.ranks.front()));
    benchmark::DoNotOptimize(html.data());
  }
}
BENCHMARK(BM_RenderHtml)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ReportMarkdown(benchmark::State& state) {
  std::string why;
  const std::string& db = analysedRunDb(why);
  if (db.empty()) return state.SkipWithError(why.c_str());
  for (auto _ : state) {
    auto opened = openRun({db}, PipelineOptions{}, EventsNeeded::kNone);
    if (!opened.ok()) return state.SkipWithError(opened.error().message().c_str());
    const std::string md = renderMarkdownReport(opened->run);
    benchmark::DoNotOptimize(md.data());
  }
}
BENCHMARK(BM_ReportMarkdown)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace damscope

BENCHMARK_MAIN();
