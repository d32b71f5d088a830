// Bad input: a trace without GPU work, one step, no correlation ids,
// overlapping steps, zero-length and negative-length events, events out of
// order. Each gets a correct answer or a note saying what cannot be computed,
// never a crash or a NaN in the output.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "analyzer/analyses/rank_analysis.h"
#include "analyzer/report/result_json.h"
#include "analyzer/result/result_rows.h"
#include "analyzer/report/result_text.h"
#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::TraceBuilder;
using testing::us;

bool allFinite(const nlohmann::json& j) {
  if (j.is_number_float()) return std::isfinite(j.get<double>());
  if (j.is_object() || j.is_array()) {
    for (const auto& item : j) {
      if (!allFinite(item)) return false;
    }
  }
  return true;
}

bool hasNote(const RankAnalysis& a, const std::string& text) {
  for (const AnalysisNote& n : a.notes) {
    if (n.message.find(text) != std::string::npos) return true;
  }
  return false;
}

// Analyses, renders every output, checks none holds a NaN and that the
// stored rows read back as the same result.
RankAnalysis analyseCleanly(const TraceTables& t) {
  auto a = analyzeRank(t, {});
  EXPECT_TRUE(a.ok());
  const RankResult result = buildRankResult(a.value(), "test", {});
  const nlohmann::json json = rankJson(result);
  EXPECT_TRUE(allFinite(json)) << json.dump();
  const std::string text = formatRankSummary(result);
  EXPECT_EQ(text.find("nan"), std::string::npos) << text;
  const AnalysisTables rows = toAnalysisTables(result);
  rows.forEachTable([&](const auto& table) {
    table.forEachColumn([&](const char* name, const auto& column) {
      using T = typename std::decay_t<decltype(column)>::value_type;
      if constexpr (std::is_same_v<T, double>) {
        for (double v : column) EXPECT_FALSE(std::isinf(v)) << name;
      }
    });
  });
  auto back = toRankResult(rows, "");
  EXPECT_TRUE(back.ok()) << back.error().message();
  if (back.ok()) {
    EXPECT_TRUE(back->rank == result) << "stored rows read back differently";
  }
  return std::move(a.value());
}

nlohmann::json jsonOf(const RankAnalysis& a) {
  return rankJson(buildRankResult(a, "test", {}));
}

TEST(AnalysisBadInput, NoGpuEventsSaysWhatCannotBeComputed) {
  TraceBuilder b;
  b.step(0, 100, 1), b.step(100, 100, 2);
  b.range(10, 20, "aten::add");
  const TraceTables t = b.build();
  const RankAnalysis a = analyseCleanly(t);
  EXPECT_FALSE(a.scorecard.valid);
  EXPECT_FALSE(a.breakdown.valid);
  EXPECT_TRUE(hasNote(a, "no GPU operations"));
  EXPECT_TRUE(hasNote(a, "no kernels"));
  EXPECT_EQ(jsonOf(a)["verdict"], "none");
  EXPECT_TRUE(jsonOf(a)["idle_pct"].is_null());
}

TEST(AnalysisBadInput, OneStepIsAnalysedWhole) {
  TraceBuilder b;
  b.step(0, 100, 1);
  b.launchKernel(1, 10, 50, "volta_sgemm_128x64_nn");
  const TraceTables t = b.build();
  const RankAnalysis a = analyseCleanly(t);
  EXPECT_TRUE(hasNote(a, "only one step"));
  EXPECT_EQ(a.window.step_count, 1u);
  EXPECT_EQ(a.scorecard.run.total(), us(100));
}

TEST(AnalysisBadInput, NoCorrelationIdsStillGiveTheBreakdown) {
  TraceBuilder b;
  b.step(0, 100, 1), b.step(100, 100, 2);
  b.kernel(10, 50, "volta_sgemm_128x64_nn", kNullInt);
  b.kernel(110, 50, "volta_sgemm_128x64_nn", kNullInt);
  const TraceTables t = b.build();
  const RankAnalysis a = analyseCleanly(t);
  EXPECT_TRUE(hasNote(a, "correlation id"));
  ASSERT_TRUE(a.breakdown.valid);
  EXPECT_EQ(a.breakdown.window.compute_ns, us(50));  // the window keeps the first step's kernel
  EXPECT_EQ(a.launches.kernels_with_launch, 0);
}

TEST(AnalysisBadInput, OverlappingStepsAreCutAndSaid) {
  TraceBuilder b;
  b.step(0, 150, 1), b.step(100, 100, 2), b.step(200, 100, 3);
  b.launchKernel(1, 10, 50, "k");
  b.launchKernel(101, 110, 50, "k");
  const RankAnalysis a = analyseCleanly(b.build());
  EXPECT_TRUE(hasNote(a, "overlapping step"));
  ASSERT_EQ(a.steps.steps.size(), 3u);
  EXPECT_LE(a.steps.steps[0].end, a.steps.steps[1].start);
}

TEST(AnalysisBadInput, ZeroAndNegativeLengthEventsAreHarmless) {
  TraceBuilder b;
  b.step(0, 100, 1);
  b.launchKernel(1, 10, 0, "k");  // zero-length kernel
  b.launchKernel(2, 20, 10, "k");
  b.tables().kernels.dur.back() = -5'000;  // a negative duration
  b.range(30, 0, "aten::zero_length");
  const TraceTables t = b.build();
  const RankAnalysis a = analyseCleanly(t);
  EXPECT_TRUE(hasNote(a, "negative duration"));
  EXPECT_EQ(a.scorecard.run.total(), us(100));
}

TEST(AnalysisBadInput, EventsOutOfOrderGiveTheSameAnswer) {
  const TraceTables sorted = testing::goldenStepTrace();
  TraceBuilder b;
  TraceTables shuffled = testing::goldenStepTrace();
  // Reverse every event table (ids change; the figures must not).
  auto reverse = [](auto& table) {
    table.forEachColumn(
        [](const char*, auto& column) { std::reverse(column.begin(), column.end()); });
  };
  reverse(shuffled.kernels), reverse(shuffled.api_calls), reverse(shuffled.ranges);
  for (auto& p : shuffled.ranges.parent_id) p = kNullInt;
  const RankAnalysis a = analyseCleanly(sorted);
  const RankAnalysis z = analyseCleanly(shuffled);
  EXPECT_EQ(a.scorecard.run.ns, z.scorecard.run.ns);
  EXPECT_EQ(a.breakdown.window.idle_ns, z.breakdown.window.idle_ns);
  EXPECT_EQ(a.steps.steps.size(), z.steps.steps.size());
  EXPECT_EQ(a.gaps.gaps.size(), z.gaps.gaps.size());
}

}  // namespace
}  // namespace damscope
