// Collector throughput, the issue-4 targets, on one core:
//   CUPTI buffer -> rows (decode + row building)      >= 5 M records/s
//   CUPTI buffer -> rows -> SQLite (streaming commits) >= 1 M records/s
//
// The buffer is what a training step looks like to CUPTI: per launch a
// runtime API record (cudaLaunchKernel), the driver record under it
// (cuLaunchKernel) and the kernel; every 10th launch also a copy with its API
// record, every 20th a memset, every 50th a stream synchronization. Records
// are real CUPTI 13 structs packed as CUPTI packs them (tests/fabricated_cupti.h).
//
//   BM_ConvertPackedWalker  decode with the collector's own walker
//   BM_ConvertCuptiWalker   decode with cuptiActivityGetNextRecord, as the
//                           injected library does (needs libcupti; no GPU)
//   BM_ConvertAndStore      decode + commit to a streaming trace file, one
//                           commit per 8 MiB buffer (the collector commits
//                           about once a second, i.e. less often); wall-clock
//                           rate and rate per CPU-second of all threads
//   BM_FinalizeFile         sorting and indexing a finished file, as `damscope
//                           record` does after the program exits
// Each prints records_per_s (wall clock). Run: build/bench/collector_bench
#include <benchmark/benchmark.h>
#include <time.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "collector/capture_writer.h"
#include "collector/cupti_activity_decoder.h"
#include "collector/cupti_session.h"
#include "collector/gpu_activity_rows.h"
#include "collector/trace_finalizer.h"
#include "tests/fabricated_cupti.h"

namespace damscope::collector {
namespace {

using damscope::testing::PackedBuffer;

constexpr size_t kBufferBytes = 8 << 20;  // the collector's default CUPTI buffer
constexpr uint64_t kT0 = 1'700'000'000'000'000'000ull;

struct TrainingBuffer {
  PackedBuffer buffer{kBufferBytes};
  size_t records = 0;
  std::vector<std::string> names;
};

TrainingBuffer& trainingBuffer() {
  static TrainingBuffer* built = [] {
    auto* t = new TrainingBuffer();
    for (int i = 0; i < 64; ++i) {
      t->names.push_back(
          "_ZN2at6native18elementwise_kernelILi128ELi" + std::to_string(i) +
          "EZNS0_22gpu_kernel_impl_nocastEEvRNS_18TensorIteratorBaseERKT_EUliE_EEviT1_");
    }
    PackedBuffer& b = t->buffer;
    constexpr size_t kLargest = sizeof(CUpti_ActivityKernel10) + 2 * sizeof(CUpti_ActivityAPI) +
                                2 * sizeof(CUpti_ActivityMemcpy6) + sizeof(CUpti_ActivityMemset4) +
                                sizeof(CUpti_ActivitySynchronization2);
    uint32_t correlation = 1;
    for (uint64_t launch = 0; b.size() + kLargest <= b.capacity(); ++launch) {
      const uint64_t at = kT0 + launch * 5000;
      damscope::testing::addApi(b, CUPTI_ACTIVITY_KIND_RUNTIME,
                                CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, correlation, at,
                                at + 1500, 1234);
      damscope::testing::addApi(b, CUPTI_ACTIVITY_KIND_DRIVER,
                                CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, correlation, at + 200,
                                at + 1300, 1234);
      damscope::testing::addKernel(b, t->names[launch % 64].c_str(), correlation, at + 2000,
                                   at + 4500);
      t->records += 3;
      ++correlation;
      if (launch % 10 == 0) {
        damscope::testing::addApi(b, CUPTI_ACTIVITY_KIND_RUNTIME,
                                  CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020, correlation, at,
                                  at + 800, 1234);
        auto& m = b.add<CUpti_ActivityMemcpy6>(CUPTI_ACTIVITY_KIND_MEMCPY);
        m.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
        m.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_PINNED;
        m.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
        m.bytes = 1 << 20;
        m.start = at + 900, m.end = at + 1900;
        m.contextId = 1, m.streamId = 8, m.correlationId = correlation++;
        t->records += 2;
      }
      if (launch % 20 == 0) {
        auto& s = b.add<CUpti_ActivityMemset4>(CUPTI_ACTIVITY_KIND_MEMSET);
        s.bytes = 4096;
        s.start = at + 4600, s.end = at + 4700;
        s.contextId = 1, s.streamId = 7, s.correlationId = correlation++;
        s.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
        t->records += 1;
      }
      if (launch % 50 == 0) {
        damscope::testing::addApi(b, CUPTI_ACTIVITY_KIND_RUNTIME,
                                  CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020, correlation,
                                  at + 4700, at + 4990, 1234);
        auto& s = b.add<CUpti_ActivitySynchronization2>(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
        s.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE;
        s.start = at + 4710, s.end = at + 4980;
        s.correlationId = correlation++, s.contextId = 1, s.streamId = 7;
        s.cudaEventId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
        t->records += 2;
      }
    }
    return t;
  }();
  return *built;
}

std::string tempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() / (name + "-" + std::to_string(getpid()) + ".db"))
      .string();
}

struct Capture {
  std::string path;
  std::unique_ptr<CaptureWriter> writer;
  std::unique_ptr<GpuActivityRows> rows;
  explicit Capture(const std::string& name) : path(tempPath(name)) {
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
    CaptureFileOptions options;
    options.path = path;
    writer = std::move(CaptureWriter::create(options)).value();
    rows = std::make_unique<GpuActivityRows>(*writer, 0);
  }
  ~Capture() {
    rows.reset();
    writer.reset();
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
  }
};

void setRate(benchmark::State& state, size_t records) {
  state.counters["records_per_s"] = benchmark::Counter(
      static_cast<double>(records), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["records_per_buffer"] = static_cast<double>(records);
}

// Decode + rows. A fresh capture per iteration (outside the timing) keeps the
// batch from growing across iterations.
void BM_ConvertPackedWalker(benchmark::State& state) {
  TrainingBuffer& t = trainingBuffer();
  for (auto _ : state) {
    state.PauseTiming();
    auto capture = std::make_unique<Capture>("bench-convert");
    state.ResumeTiming();
    decodePackedBuffer(t.buffer.data(), t.buffer.size(), *capture->rows);
    benchmark::DoNotOptimize(capture->writer->batch().kernels.size());
    state.PauseTiming();
    capture.reset();
    state.ResumeTiming();
  }
  setRate(state, t.records);
}
BENCHMARK(BM_ConvertPackedWalker)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ConvertCuptiWalker(benchmark::State& state) {
  auto session = CuptiSession::load("");
  if (!session.ok()) {
    state.SkipWithError(session.error().message().c_str());
    return;
  }
  TrainingBuffer& t = trainingBuffer();
  for (auto _ : state) {
    state.PauseTiming();
    auto capture = std::make_unique<Capture>("bench-convert-cupti");
    state.ResumeTiming();
    int64_t unreadable = 0;
    (*session)->decodeBuffer(t.buffer.data(), t.buffer.size(), *capture->rows, &unreadable);
    benchmark::DoNotOptimize(capture->writer->batch().kernels.size());
    state.PauseTiming();
    capture.reset();
    state.ResumeTiming();
  }
  setRate(state, t.records);
}
BENCHMARK(BM_ConvertCuptiWalker)->Unit(benchmark::kMillisecond)->UseRealTime();

// Decode + rows + commits into one growing streaming file (WAL,
// synchronous=NORMAL), as the collector does: its writer thread decodes and
// fills batches while the store thread (batch_store.h) writes the previous
// one. 16 buffers (1.4 M records), one commit per buffer, then finish(), all
// timed. records_per_s is wall-clock throughput of that pipeline;
// records_per_cpu_s divides by the CPU time of all threads together, i.e.
// what one core would sustain.
double processCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

void BM_ConvertAndStore(benchmark::State& state) {
  TrainingBuffer& t = trainingBuffer();
  constexpr int kBuffers = 16;
  double cpu = 0;
  double file_mb = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto capture = std::make_unique<Capture>("bench-store");
    const double cpu_start = processCpuSeconds();
    state.ResumeTiming();
    for (int i = 0; i < kBuffers; ++i) {
      decodePackedBuffer(t.buffer.data(), t.buffer.size(), *capture->rows);
      capture->rows->resolvePending();
      if (Status s = capture->writer->commit(); !s.ok()) {
        state.SkipWithError(s.error().message().c_str());
        return;
      }
    }
    if (Status s = capture->writer->finish(); !s.ok()) {
      state.SkipWithError(s.error().message().c_str());
      return;
    }
    state.PauseTiming();
    cpu += processCpuSeconds() - cpu_start;
    file_mb = static_cast<double>(std::filesystem::file_size(capture->path)) / 1e6;
    capture.reset();
    state.ResumeTiming();
  }
  const double records = static_cast<double>(kBuffers * t.records);
  state.counters["records_per_s"] =
      benchmark::Counter(records, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["records_per_cpu_s"] = records * static_cast<double>(state.iterations()) / cpu;
  state.counters["file_MB"] = file_mb;
}
BENCHMARK(BM_ConvertAndStore)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

// What `damscope record` does to each file after the program exits: sort the
// event tables (here 8 buffers whose times repeat, so every table is out of
// order) and build the indexes. Not on the recorded process's time.
void BM_FinalizeFile(benchmark::State& state) {
  TrainingBuffer& t = trainingBuffer();
  size_t rows = 0;
  for (auto _ : state) {
    state.PauseTiming();
    {
      Capture capture("bench-finalize");
      for (int i = 0; i < 8; ++i) {
        decodePackedBuffer(t.buffer.data(), t.buffer.size(), *capture.rows);
        capture.rows->resolvePending();
        (void)capture.writer->commit();
      }
      capture.writer->setMeta("collector.finalized", "0");
      (void)capture.writer->finish();
      std::filesystem::copy_file(capture.path, capture.path + ".copy");
      rows = 8 * t.records;
    }
    state.ResumeTiming();
    if (auto s = finalizeTraceFile(tempPath("bench-finalize") + ".copy"); !s.ok()) {
      state.SkipWithError(s.error().message().c_str());
    }
    state.PauseTiming();
    std::filesystem::remove(tempPath("bench-finalize") + ".copy");
    state.ResumeTiming();
  }
  state.counters["rows_per_s"] =
      benchmark::Counter(static_cast<double>(rows), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_FinalizeFile)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2);

}  // namespace
}  // namespace damscope::collector

BENCHMARK_MAIN();
