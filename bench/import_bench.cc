// Import throughput: the issue-2 target is ../shared/traces/kineto/v100_rank1.json.gz
// (19,370 kernels, 42,373 runtime calls) end to end in under 1 s on one core,
// with events/s and MB/s of uncompressed JSON, and the parse not the
// bottleneck (>= 1 M events/s into SQLite).
//
// Stages, each its own benchmark so a regression points at its cause:
//   BM_Decompress       gzip -> JSON text
//   BM_ParseKineto      JSON text -> TraceTables
//   BM_WriteStore       TraceTables -> SQLite file (bulk mode, indexes)
//   BM_ImportToTables   file on disk -> TraceTables in memory, as `analyze
//                       --no-store` imports: the end-to-end import rate
//   BM_ImportEndToEnd   file -> run.db, as `damscope import` does it
//   BM_WriteSynthetic   store insert rate on a synthetic 1 M-row trace
// Run: build/bench/import_bench [--benchmark_filter=...]
// With DAMSCOPE_BENCH_TRACE=path another trace can be measured.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "analyzer/importers/io/input_file.h"
#include "analyzer/importers/kineto/kineto_importer.h"
#include "analyzer/importers/trace_import.h"
#include "trace/trace_writer.h"

namespace damscope {
namespace {

std::string benchTrace() {
  if (const char* env = std::getenv("DAMSCOPE_BENCH_TRACE")) return env;
  return std::string(DAMSCOPE_SOURCE_DIR) + "/../shared/traces/kineto/v100_rank1.json.gz";
}

std::string tempPath(const char* name) {
  return (std::filesystem::temp_directory_path() /
          (std::string(name) + "-" + std::to_string(getpid()) + ".db"))
      .string();
}

bool haveTrace(benchmark::State& state) {
  if (std::filesystem::exists(benchTrace())) return true;
  state.SkipWithError(("trace not found: " + benchTrace()).c_str());
  return false;
}

// events_per_s counts stored rows (kernels, copies, calls, ranges, counters).
void setRates(benchmark::State& state, double events, double json_bytes) {
  state.counters["events_per_s"] =
      benchmark::Counter(events, benchmark::Counter::kIsIterationInvariantRate);
  if (json_bytes > 0) {
    state.counters["json_MB_per_s"] =
        benchmark::Counter(json_bytes / 1e6, benchmark::Counter::kIsIterationInvariantRate);
  }
}

void BM_Decompress(benchmark::State& state) {
  if (!haveTrace(state)) return;
  auto file = readWholeFile(benchTrace(), kJsonPadding);
  size_t out = 0;
  for (auto _ : state) {
    auto json = gunzip(file.value(), benchTrace(), kJsonPadding);
    out = json->size();
    benchmark::DoNotOptimize(json->data());
  }
  state.counters["json_MB_per_s"] =
      benchmark::Counter(out / 1e6, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Decompress)->Unit(benchmark::kMillisecond);

void BM_ParseKineto(benchmark::State& state) {
  if (!haveTrace(state)) return;
  auto file = readWholeFile(benchTrace(), kJsonPadding);
  std::string json = isGzip(file.value()) ? gunzip(file.value(), benchTrace(), kJsonPadding).value()
                                          : file.value();
  int64_t events = 0, source_events = 0;
  for (auto _ : state) {
    auto tables = importKinetoJson(json, benchTrace());
    events = tables.value().eventCount();
    source_events = tables->getStat("kineto.events");
    benchmark::DoNotOptimize(events);
  }
  setRates(state, static_cast<double>(events), static_cast<double>(json.size()));
  state.counters["events"] = static_cast<double>(events);
  // Everything in traceEvents, flows and metadata included: what the parser reads.
  state.counters["json_events_per_s"] = benchmark::Counter(
      static_cast<double>(source_events), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_ParseKineto)->Unit(benchmark::kMillisecond);

void BM_WriteStore(benchmark::State& state) {
  if (!haveTrace(state)) return;
  auto tables = importTrace(benchTrace());
  const std::string out = tempPath("bench-write");
  const double events = static_cast<double>(tables.value().eventCount());
  for (auto _ : state) {
    if (Status s = saveTrace(tables.value(), out, true); !s.ok())
      state.SkipWithError(s.error().message().c_str());
  }
  std::filesystem::remove(out);
  setRates(state, events, 0);
}
BENCHMARK(BM_WriteStore)->Unit(benchmark::kMillisecond);

// Imports the trace file, and saves it as a run.db at `out` unless that is empty.
void importFile(benchmark::State& state, const std::string& out) {
  if (!haveTrace(state)) return;
  double events = 0, source_events = 0, json_bytes = 0;
  for (auto _ : state) {
    ImportTimings timings;
    auto tables = importTrace(benchTrace(), &timings);
    if (!tables.ok()) {
      state.SkipWithError(tables.error().message().c_str());
      return;
    }
    if (!out.empty()) {
      if (Status s = saveTrace(tables.value(), out, true); !s.ok())
        state.SkipWithError(s.error().message().c_str());
    }
    events = static_cast<double>(tables->eventCount());
    source_events = static_cast<double>(tables->getStat("kineto.events"));
    json_bytes = static_cast<double>(timings.json_bytes);
  }
  if (!out.empty()) std::filesystem::remove(out);
  setRates(state, events, json_bytes);
  state.counters["events"] = events;
  state.counters["json_events_per_s"] =
      benchmark::Counter(source_events, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_ImportToTables(benchmark::State& state) {
  importFile(state, "");
}
// Real time: a .gz is decompressed on a second thread while it is parsed.
BENCHMARK(BM_ImportToTables)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ImportEndToEnd(benchmark::State& state) {
  importFile(state, tempPath("bench-import"));
}
BENCHMARK(BM_ImportEndToEnd)->Unit(benchmark::kMillisecond)->UseRealTime();

// A synthetic trace shaped like a training step: per kernel one launch call
// and one framework op; half a million kernels is 1.5 M rows.
TraceTables syntheticTrace(int64_t kernels) {
  TraceTables t;
  t.threads.append({0, 1, t.strings.intern("main")});
  t.processes.append({});
  std::vector<StringId> names;
  names.reserve(64);
  for (int i = 0; i < 64; ++i) names.push_back(t.strings.intern("kernel_" + std::to_string(i)));
  const StringId launch = t.strings.intern("cudaLaunchKernel");
  const StringId cpu_op = t.strings.intern("cpu_op");
  t.kernels.reserve(kernels), t.api_calls.reserve(kernels), t.ranges.reserve(kernels);
  for (int64_t i = 0; i < kernels; ++i) {
    const int64_t ts = 1'700'000'000'000'000'000 + i * 2000;
    KernelTable::Row k;
    k.ts = ts + 500, k.dur = 1200, k.device = 0, k.stream = 7, k.correlation_id = i,
    k.external_id = i;
    k.name = names[i % 64], k.grid_x = 80, k.grid_y = 1, k.grid_z = 1, k.block_x = 256,
    k.block_y = 1, k.block_z = 1, k.registers_per_thread = 32, k.shared_memory_bytes = 0;
    t.kernels.append(k);
    ApiCallTable::Row a;
    a.ts = ts + 100, a.dur = 300, a.thread_id = 0, a.name = launch, a.correlation_id = i,
    a.external_id = i;
    a.cbid = 211;
    t.api_calls.append(a);
    RangeTable::Row r;
    r.ts = ts, r.dur = 600, r.thread_id = 0, r.category = cpu_op, r.name = names[(i * 7) % 64];
    r.depth = 0, r.external_id = i;
    t.ranges.append(r);
  }
  return t;
}

void BM_WriteSynthetic(benchmark::State& state) {
  const TraceTables tables = syntheticTrace(state.range(0));
  const std::string out = tempPath("bench-synthetic");
  for (auto _ : state) {
    if (Status s = saveTrace(tables, out, true); !s.ok())
      state.SkipWithError(s.error().message().c_str());
  }
  std::filesystem::remove(out);
  setRates(state, static_cast<double>(tables.eventCount()), 0);
}
BENCHMARK(BM_WriteSynthetic)->Arg(333'333)->Unit(benchmark::kMillisecond)->Iterations(2);

}  // namespace
}  // namespace damscope

BENCHMARK_MAIN();
