// The Chrome trace export's speed: the issue-9 target is 1 M events exported
// at >= 1 M events/s. A synthetic training trace (bench/synthetic_trace.h:
// per kernel one launch call, a range per ten kernels, a copy per step) is
// analysed once, untimed; then the export of the trace and its analysis is
// timed, building its own AnalysisInput as `damscope export` does:
//
//   BM_ExportChrome/N/sink  N kernels (about 2.1 N event rows), to
//     sink 0: a sink that only counts bytes (the writer alone)
//     sink 1: a file (the writer and the kernel's write path)
//     sink 2: a gzip file at level 1, the level `damscope export` uses
//     sink 3: a gzip file at zlib's default level 6 (for comparison)
//   counters: events_per_s (trace rows: events, counters, steps and gaps,
//   per second), MB_per_s of JSON, bytes_per_event, and the output's size.
//
// Run: build/bench/export_bench [--benchmark_filter=...]
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>

#include "analyzer/analyses/rank_analysis.h"
#include "analyzer/report/chrome_trace.h"
#include "analyzer/result/analysis_result.h"
#include "bench/synthetic_trace.h"

namespace damscope {
namespace {

class CountingSink : public OutputSink {
 public:
  Status write(std::string_view bytes) override {
    bytes_ += static_cast<int64_t>(bytes.size());
    return okStatus();
  }
  Status close() override { return okStatus(); }
  int64_t bytes() const { return bytes_; }

 private:
  int64_t bytes_ = 0;
};

struct Prepared {
  TraceTables tables;
  RankResult result;
};

const Prepared& prepared(int64_t kernels) {
  static std::unique_ptr<Prepared> cached;
  static int64_t cached_kernels = -1;
  if (cached_kernels != kernels) {
    cached.reset();  // one trace in memory at a time
    cached = std::make_unique<Prepared>();
    cached->tables = syntheticTrainingTrace(kernels);
    cached->result = buildRankResult(analyzeRank(cached->tables, {}).value(), "synthetic", {});
    cached_kernels = kernels;
  }
  return *cached;
}

void BM_ExportChrome(benchmark::State& state) {
  const Prepared& p = prepared(state.range(0));
  const int sink_kind = static_cast<int>(state.range(1));
  const std::string path = "/tmp/damscope_export_bench_" + std::to_string(::getpid()) +
                           (sink_kind >= 2 ? ".json.gz" : ".json");
  ChromeTraceStats stats;
  int64_t json_bytes = 0, output_bytes = 0;
  for (auto _ : state) {
    CountingSink counter;
    std::unique_ptr<OutputSink> file;
    if (sink_kind > 0) {
      file = openFileSink(path, sink_kind >= 2, sink_kind == 3 ? 6 : 1).value();
    }
    auto written = writeChromeTrace(p.tables, p.result, sink_kind > 0 ? *file : counter);
    if (!written.ok() || (file && !file->close().ok())) {
      state.SkipWithError("export failed");
      return;
    }
    stats = written.value();
    json_bytes = counter.bytes();
    if (file) {
      FILE* f = std::fopen(path.c_str(), "rb");
      std::fseek(f, 0, SEEK_END);
      output_bytes = std::ftell(f);
      std::fclose(f);
    }
  }
  std::remove(path.c_str());
  const auto rows = static_cast<double>(stats.rows);
  state.counters["events"] = rows;
  state.counters["events_per_s"] =
      benchmark::Counter(rows, benchmark::Counter::kIsIterationInvariantRate);
  if (sink_kind == 0) {
    state.counters["MB_per_s"] = benchmark::Counter(static_cast<double>(json_bytes) / 1e6,
                                                    benchmark::Counter::kIsIterationInvariantRate);
    state.counters["bytes_per_event"] = static_cast<double>(json_bytes) / rows;
  } else {
    state.counters["output_MB"] = static_cast<double>(output_bytes) / 1e6;
  }
}
BENCHMARK(BM_ExportChrome)
    ->ArgNames({"kernels", "sink"})
    ->Args({500'000, 0})
    ->Args({500'000, 1})
    ->Args({500'000, 2})
    ->Args({500'000, 3})
    ->Args({2'000'000, 0})
    ->Args({2'000'000, 1})
    ->Unit(benchmark::kMillisecond)
    ->MinTime(2.0);

}  // namespace
}  // namespace damscope

BENCHMARK_MAIN();
