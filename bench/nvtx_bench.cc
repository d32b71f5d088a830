// NVTX cost on the calling thread, the issue-4 targets:
//   push + pop while recording: <= 150 ns per pair
//   push + pop while dormant (--on-demand, no window open): <= 10 ns per pair
//
// Each mode needs its own process (NVTX reads NVTX_INJECTION64_PATH once, at
// the first call), so this program runs itself once per mode with the
// environment `damscope record` would set:
//   off        no injection: NVTX's own no-op, the floor
//   dormant    libdamscope_inject.so loaded with DAMSCOPE_ON_DEMAND=1
//   recording  libdamscope_inject.so recording into a trace file
// While recording, pairs are timed in bursts of 1000 (which fit a thread's
// ring) with a pause between bursts for the writer to drain them, so the
// figure is the cost of recorded pairs, not of dropped ones; afterwards the
// trace is read back and the recorded and dropped pairs are printed.
//   BM_PushPop     nvtxRangePushA("op") + nvtxRangePop()
//   BM_PushPopEx   nvtxDomainRangePushEx with a message and a payload + pop,
//                  as a per-op annotation does
// Run: build/bench/nvtx_bench
#include <benchmark/benchmark.h>
#include <nvtx3/nvToolsExt.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "trace/trace_reader.h"

namespace {

constexpr int kBurst = 1000;

bool recording() {
  const char* mode = std::getenv("DAMSCOPE_BENCH_MODE");
  return mode && std::strcmp(mode, "recording") == 0;
}

nvtxDomainHandle_t benchDomain() {
  static nvtxDomainHandle_t domain = nvtxDomainCreateA("bench");
  return domain;
}

template <typename Pair>
void run(benchmark::State& state, Pair&& pair) {
  double seconds = 0;
  int64_t pairs = 0;
  if (!recording()) {
    const auto start = std::chrono::steady_clock::now();
    for (auto _ : state) pair();
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    pairs = state.iterations();
  } else {
    for (auto _ : state) {
      const auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < kBurst; ++i) pair();
      const double burst =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      state.SetIterationTime(burst);
      seconds += burst;
      std::this_thread::sleep_for(std::chrono::milliseconds(3));  // the writer drains
    }
    pairs = state.iterations() * kBurst;
  }
  state.counters["pairs"] = static_cast<double>(pairs);
  state.counters["ns_per_pair"] = seconds * 1e9 / static_cast<double>(pairs);
}

void BM_PushPop(benchmark::State& state) {
  run(state, [] {
    nvtxRangePushA("op");
    nvtxRangePop();
  });
}

void BM_PushPopEx(benchmark::State& state) {
  nvtxEventAttributes_t a{};
  a.version = NVTX_VERSION;
  a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  a.messageType = NVTX_MESSAGE_TYPE_ASCII;
  a.message.ascii = R"({"op":"attn_fwd","flops":1073741824,"bytes":8388608})";
  a.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT64;
  a.payload.ullValue = 7;
  const nvtxDomainHandle_t domain = benchDomain();
  run(state, [&] {
    nvtxDomainRangePushEx(domain, &a);
    nvtxDomainRangePop(domain);
  });
}

void registerBenchmarks() {
  for (auto* b : {benchmark::RegisterBenchmark("BM_PushPop", BM_PushPop),
                  benchmark::RegisterBenchmark("BM_PushPopEx", BM_PushPopEx)}) {
    b->Unit(benchmark::kNanosecond);
    if (recording()) b->UseManualTime()->Iterations(300);
  }
}

int runChild(int argc, char** argv) {
  nvtxRangePushA("warm-up");  // loads the injection, creates this thread's ring
  nvtxRangePop();
  benchDomain();
  registerBenchmarks();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (std::getenv("DAMSCOPE_BENCH_MODE")) return runChild(argc, argv);

  const std::string dir =
      (std::filesystem::temp_directory_path() / ("nvtx-bench-" + std::to_string(getpid())))
          .string();
  std::filesystem::create_directories(dir);
  const std::string trace = dir + "/nvtx_bench.db";
  for (const char* mode : {"off", "dormant", "recording"}) {
    std::printf("\n=== NVTX %s ===\n", mode);
    std::fflush(stdout);
    const pid_t child = fork();
    if (child == 0) {
      setenv("DAMSCOPE_BENCH_MODE", mode, 1);
      unsetenv("NVTX_INJECTION64_PATH");
      if (std::strcmp(mode, "off") != 0) {
        setenv("NVTX_INJECTION64_PATH", DAMSCOPE_INJECT_LIBRARY, 1);
        setenv("DAMSCOPE_CONTROL_DIR", (dir + "/ctl").c_str(), 1);
        setenv("DAMSCOPE_ON_DEMAND", std::strcmp(mode, "dormant") == 0 ? "1" : "0", 1);
        setenv("DAMSCOPE_OUTPUT", trace.c_str(), 1);
      }
      execv("/proc/self/exe", argv);
      _exit(127);
    }
    int status = 0;
    waitpid(child, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      std::fprintf(stderr, "nvtx_bench: %s run failed\n", mode);
      return 1;
    }
  }
  // What the recording run stored: every timed pair should be there.
  auto tables = damscope::readTrace(trace);
  if (!tables.ok()) {
    std::fprintf(stderr, "nvtx_bench: %s\n", tables.error().message().c_str());
    return 1;
  }
  int64_t recorded = 0;
  for (size_t i = 0; i < tables->ranges.size(); ++i) {
    const std::string_view name = tables->strings.get(tables->ranges.name[i]);
    recorded += name == "op" || name.rfind(R"({"op":"attn_fwd")", 0) == 0;
  }
  std::printf("\nrecording run: %lld pairs stored, %lld NVTX events dropped (ring overflow)\n",
              static_cast<long long>(recorded),
              static_cast<long long>(tables->getStat("collector.nvtx_ring_overflow")));
  std::filesystem::remove_all(dir);
  return 0;
}
