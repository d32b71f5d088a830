// The analyzer's cost: the issue-3 target is a full analysis (every analysis
// `damscope analyze` runs, findings included) of a synthetic trace with 1 M
// kernels, 1 M runtime calls and 100 k ranges in under 2 s, in under 1 GB,
// growing linearly (n log n at worst) from 100 k to 4 M kernels.
//
//   BM_AnalyzeRank/N      full analysis of a synthetic trace of N kernels
//                         (bench/synthetic_trace.h); counters: ns per kernel,
//                         instructions per kernel (hardware counter, where the
//                         kernel allows perf_event_open), peak RSS of the
//                         process (trace + analysis), and the analysis' own
//                         growth of RSS
//   BM_AnalysisStages/N   the same, stage by stage, in ms (where time goes)
//
// Sizes run in ascending order, so each peak RSS is that size's own.
// After the runs a scaling table prints time and ns/kernel per size.
// Run: build/bench/analysis_bench [--benchmark_filter=...]
#include <benchmark/benchmark.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>

#include "analyzer/analyses/rank_analysis.h"
#include "analyzer/result/analysis_result.h"
#include "analyzer/result/result_rows.h"
#include "bench/synthetic_trace.h"

namespace damscope {
namespace {

double peakRssMb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

double currentRssMb() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0, resident = 0;
  statm >> pages >> resident;
  return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) /
         (1024.0 * 1024.0);
}

// Instructions retired by this thread while `run` runs (hardware counter via
// perf_event_open), or -1 where the kernel does not allow it. Unlike time,
// the count does not depend on caches, page faults or other load on the
// machine: it shows the algorithms' growth on its own.
template <typename Run>
double countInstructions(Run&& run) {
  perf_event_attr attr{};
  attr.type = PERF_TYPE_HARDWARE;
  attr.size = sizeof(attr);
  attr.config = PERF_COUNT_HW_INSTRUCTIONS;
  attr.disabled = 1;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  const int fd = static_cast<int>(syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0));
  if (fd < 0) {
    run();
    return -1;
  }
  ioctl(fd, PERF_EVENT_IOC_RESET, 0);
  ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
  run();
  ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
  long long count = -1;
  if (read(fd, &count, sizeof(count)) != sizeof(count)) count = -1;
  close(fd);
  return static_cast<double>(count);
}

// CPU time of this thread split into user and system time, and its minor page
// faults: on a VM where first-touch page faults are expensive (this project's
// Firecracker machines: about 7 us each), system time grows with the memory
// touched while user time shows the algorithms' own growth.
struct ThreadCpu {
  double user_s = 0, system_s = 0;
  double minor_faults = 0;
};
ThreadCpu threadCpu() {
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  return {usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6,
          usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6,
          static_cast<double>(usage.ru_minflt)};
}

struct Row {
  double instructions = -1;
  double seconds = 0;
  ThreadCpu cpu;
  double peak_rss_mb = 0;
  double ranges = 0, calls = 0;
};
std::map<int64_t, Row>& scaling() {
  static std::map<int64_t, Row> rows;
  return rows;
}

void BM_AnalyzeRank(benchmark::State& state) {
  const int64_t kernels = state.range(0);
  const TraceTables tables = syntheticTrainingTrace(kernels);
  const double before_mb = currentRssMb();
  double seconds = 0;
  double instructions = -1;
  for (auto _ : state) {
    bool ok = true;
    instructions = countInstructions([&] {
      const ThreadCpu cpu_before = threadCpu();
      const auto start = std::chrono::steady_clock::now();
      auto analysis = analyzeRank(tables, {});
      seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const ThreadCpu cpu_after = threadCpu();
      scaling()[kernels].cpu = {cpu_after.user_s - cpu_before.user_s,
                                cpu_after.system_s - cpu_before.system_s,
                                cpu_after.minor_faults - cpu_before.minor_faults};
      ok = analysis.ok();
      if (ok) benchmark::DoNotOptimize(analysis->findings.findings.size());
    });
    if (!ok) {
      state.SkipWithError("analysis failed");
      return;
    }
  }
  Row& row = scaling()[kernels];
  row.instructions = instructions;
  if (instructions > 0) {
    state.counters["instructions_per_kernel"] = instructions / static_cast<double>(kernels);
  }
  row.seconds = seconds;
  row.peak_rss_mb = peakRssMb();
  row.ranges = static_cast<double>(tables.ranges.size());
  row.calls = static_cast<double>(tables.api_calls.size());
  state.counters["kernels"] = static_cast<double>(tables.kernels.size());
  state.counters["api_calls"] = row.calls;
  state.counters["ranges"] = row.ranges;
  state.counters["ns_per_kernel"] = seconds * 1e9 / static_cast<double>(kernels);
  state.counters["peak_rss_MB"] = row.peak_rss_mb;
  state.counters["analysis_MB"] = row.peak_rss_mb - before_mb;
}
BENCHMARK(BM_AnalyzeRank)
    ->Arg(100'000)
    ->Arg(1'000'000)
    ->Arg(4'000'000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->Repetitions(1);

void BM_AnalysisStages(benchmark::State& state) {
  const TraceTables tables = syntheticTrainingTrace(state.range(0));
  std::map<std::string, double> ms;
  for (auto _ : state) {
    auto time = [&](const char* stage, auto&& run) {
      const auto start = std::chrono::steady_clock::now();
      auto result = run();
      ms[stage] =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count();
      return result;
    };
    const AnalysisInput in = time("input", [&] { return AnalysisInput::build(tables); });
    const StepReport steps = time("steps", [&] { return computeSteps(in, {}); });
    const WindowReport window = time("window", [&] { return computeWindow(in, steps, {}); });
    time("breakdown", [&] { return computeTemporalBreakdown(in, steps, window, {}); });
    const GapReport gaps = time("gaps", [&] { return computeGaps(in, steps, window, {}); });
    const KernelBreakdownReport kernels =
        time("kernels", [&] { return computeKernelBreakdown(in, window, {}); });
    const LaunchStatisticsReport launches =
        time("launches", [&] { return computeLaunchStatistics(in, window, {}); });
    const GpuUtilizationReport utilization =
        time("utilization", [&] { return computeGpuUtilization(in, steps, {}); });
    time("overview", [&] { return computeProfilerOverview(in, steps, {}); });
    const ScorecardReport scorecard =
        time("scorecard", [&] { return computeScorecard(in, steps, window, gaps, {}); });
    const DataLossReport loss = time("data_loss", [&] { return computeDataLoss(tables); });
    const KernelWorkReport work = time("kernel_work", [&] { return computeKernelWork(in); });
    const RunPrecision precision = runPrecision(in, window, std::nullopt);
    const DevicePeaks peaks = resolveDevicePeaks(in, 0, {});
    const RooflineReport roofline = time("roofline", [&] {
      return computeRoofline(in, window, work, peaks, precision.precision, {}).report;
    });
    const MfuReport mfu = time(
        "mfu", [&] { return computeMfu(in, steps, window, work, peaks, precision, {}).report; });
    const std::optional<MemoryEstimate> memory;
    const KernelLintReport lints = time(
        "kernel_lints", [&] { return computeKernelLints(in, window, work, scorecard.device, {}); });
    const SlowStepReport slow_steps =
        time("slow_steps", [&] { return computeSlowSteps(in, steps, window, scorecard); });
    const std::vector<StepCriticalPath> critical_paths = time(
        "critical_path", [&] { return computeStepCriticalPaths(in, steps, window); });
    time("findings", [&] {
      const FindingInputs inputs{in,        detectFramework(in).framework,
                                 steps,     window,
                                 gaps,      kernels,
                                 launches,  utilization,
                                 scorecard, loss,
                                 mfu,       memory,
                                 roofline,  lints,
                                 slow_steps, critical_paths};
      return computeFindings(inputs, {});
    });
    // What the pipeline does with the reports: the result model, its rows.
    const RankAnalysis analysis = analyzeRank(tables, {}).value();
    const RankResult result =
        time("result", [&] { return buildRankResult(analysis, "synthetic", {}); });
    time("rows", [&] { return toAnalysisTables(result); });
  }
  for (const auto& [stage, v] : ms) state.counters[stage + "_ms"] = v;
}
BENCHMARK(BM_AnalysisStages)
    ->Arg(1'000'000)
    ->Arg(4'000'000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

void printScalingTable() {
  const auto& rows = scaling();
  if (rows.empty()) return;
  std::printf(
      "\nScaling of a full analysis (synthetic trace; calls = kernels, ranges = kernels / 10)\n");
  std::printf("%10s %10s %9s %9s %14s %10s %10s %12s %14s %14s\n", "kernels", "api calls", "ranges",
              "time (s)", "ns per kernel", "user (s)", "sys (s)", "page faults", "instr./kernel",
              "peak RSS (MB)");
  for (const auto& [kernels, row] : rows) {
    const std::string per_kernel =
        row.instructions > 0
            ? std::to_string(std::llround(row.instructions / static_cast<double>(kernels)))
            : std::string("n/a");
    std::printf("%10lld %10.0f %9.0f %9.3f %14.0f %10.3f %10.3f %12.0f %14s %14.0f\n",
                static_cast<long long>(kernels), row.calls, row.ranges, row.seconds,
                row.seconds * 1e9 / static_cast<double>(kernels), row.cpu.user_s, row.cpu.system_s,
                row.cpu.minor_faults, per_kernel.c_str(), row.peak_rss_mb);
  }
  const auto& first = *rows.begin();
  const auto& last = *rows.rbegin();
  if (last.first > first.first && first.second.seconds > 0) {
    const double size_ratio = static_cast<double>(last.first) / static_cast<double>(first.first);
    std::printf("%.0fx the kernels: time %.1fx, user time %.1fx", size_ratio,
                last.second.seconds / first.second.seconds,
                last.second.cpu.user_s / std::max(first.second.cpu.user_s, 1e-9));
    if (first.second.instructions > 0 && last.second.instructions > 0) {
      std::printf(", instructions %.1fx", last.second.instructions / first.second.instructions);
    }
    std::printf(" (linear: %.0fx)\n", size_ratio);
  }
}

}  // namespace
}  // namespace damscope

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  damscope::printScalingTable();
  return 0;
}
