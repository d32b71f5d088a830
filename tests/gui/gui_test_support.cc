// GUI test support: see gui_test_support.h.
#include "tests/gui/gui_test_support.h"

#include <gtest/gtest.h>

#include "analyzer/analyses/rank_analysis.h"
#include "tests/trace_builder.h"

namespace damscope::testing {

AnalysedRun analysedRunOf(std::vector<TraceTables> ranks) {
  AnalysedRun out;
  for (size_t i = 0; i < ranks.size(); ++i) {
    auto analysis = analyzeRank(ranks[i], {});
    EXPECT_TRUE(analysis.ok()) << analysis.error().message();
    if (!analysis.ok()) return out;
    out.run.ranks.push_back(
        buildRankResult(analysis.value(), "rank" + std::to_string(i) + ".json", {}));
  }
  out.tables = std::move(ranks);
  return out;
}

AnalysedRun analysedRunOf(TraceTables rank) {
  std::vector<TraceTables> ranks;
  ranks.push_back(std::move(rank));
  return analysedRunOf(std::move(ranks));
}

TraceTables smallTrainingTrace(int32_t rank) {
  TraceBuilder b;
  b.device(0, 80, int64_t{32} << 30);
  for (int step = 0; step < 3; ++step) {
    const double t0 = step * 2000.0;
    b.step(t0, 2000, step + 1);
    // The loader holds the main thread for 800 µs: the GPU waits on data.
    b.range(t0, 800, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
            "user_annotation");
    b.range(t0 + 810, 1000, "aten::linear");
    const int64_t copy = b.call(t0 + 812, 8, "cudaMemcpyAsync");
    b.memcpy(t0 + 830, 40, copy);
    for (int k = 0; k < 6; ++k) {
      const double launch = t0 + 830 + k * 20;
      b.launchKernel(launch, t0 + 880 + k * 150, 140,
                     k % 2 ? "volta_sgemm_128x64_nn" : "vectorized_elementwise_kernel");
    }
  }
  TraceTables t = b.build();
  if (!t.processes.empty()) t.processes.rank[0] = rank;
  return t;
}

}  // namespace damscope::testing
