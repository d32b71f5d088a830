// The cost of the op table (analyzer/analyses/op_breakdown.h, `damscope
// ops`) next to the full analysis it needs, measured in the same run: the
// issue-27 bar is that the attribution adds at most 15 % to the analysis of
// ../shared/traces/kineto/v100_rank1.json.gz and of the synthetic trace of
// 1 M kernels (bench/synthetic_trace.h) that bench/analysis_bench.cc times.
//
// For each trace: the full per-rank analysis (analyzeRank), then the op
// table of each grouping from that analysis (opBreakdownOf), each the median
// of kRuns runs, printed in ms and as a share of the analysis. The v100 row
// is skipped when ../shared/traces is absent.
// Run: build/bench/op_attribution_bench
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "analyzer/importers/trace_import.h"
#include "analyzer/pipeline/op_analysis.h"
#include "bench/synthetic_trace.h"

namespace damscope {
namespace {

constexpr int kRuns = 5;

template <typename Run>
double medianMs(Run&& run) {
  std::vector<double> ms;
  for (int i = 0; i < kRuns; ++i) {
    const auto start = std::chrono::steady_clock::now();
    run();
    ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

void measure(const char* name, const TraceTables& tables) {
  const double analysis_ms = medianMs([&] { (void)analyzeRank(tables, {}).value(); });
  const RankAnalysis analysis = analyzeRank(tables, {}).value();
  std::printf("%s: %zu kernels, %zu ranges; full analysis %.1f ms\n", name,
              tables.kernels.size(), tables.ranges.size(), analysis_ms);
  for (OpGrouping grouping : {OpGrouping::kOp, OpGrouping::kLeafOp, OpGrouping::kModule,
                              OpGrouping::kRange, OpGrouping::kAnnotation}) {
    OpBreakdownOptions options;
    options.grouping = grouping;
    size_t rows = 0;
    const double ms = medianMs([&] { rows = opBreakdownOf(analysis, options).row_count; });
    std::printf("  --by %-10s %8.1f ms  %5.1f %% of the analysis  (%zu rows)\n",
                std::string(toText(grouping)).c_str(), ms, 100.0 * ms / analysis_ms, rows);
  }
}

}  // namespace
}  // namespace damscope

int main() {
  using namespace damscope;
  std::printf("Op attribution cost (median of %d runs each, one thread)\n", kRuns);
  const std::string v100 = DAMSCOPE_SOURCE_DIR "/../shared/traces/kineto/v100_rank1.json.gz";
  if (std::filesystem::exists(v100)) {
    Result<TraceTables> tables = importTrace(v100);
    if (!tables.ok()) {
      std::fprintf(stderr, "%s\n", tables.error().message().c_str());
      return 1;
    }
    measure("v100_rank1", tables.value());
  } else {
    std::printf("v100_rank1: skipped (../shared/traces is absent)\n");
  }
  measure("synthetic 1M kernels", syntheticTrainingTrace(1'000'000));
  return 0;
}
