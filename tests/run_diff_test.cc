// The diff of two runs (analyzer/result/run_diff.h) and its serializers
// (report/diff_text.h, report/diff_json.h): a generated pair whose DataLoader
// fix turns a data-bound run compute-bound; figures per step when the runs
// analysed different numbers of steps; kernels outside a run's top list;
// findings that appear, disappear and remain; ranks paired in order; and the
// real ResNet-50 pair (DataLoader num_workers 0 -> 4).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "analyzer/importers/trace_import.h"
#include "analyzer/report/diff_json.h"
#include "analyzer/report/diff_text.h"
#include "analyzer/result/run_diff.h"
#include "tests/test_support.h"
#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::TraceBuilder;

// `steps` steps: the host loads a batch for `loader_us`, then launches a
// 300 µs GEMM and a 50 µs elementwise kernel.
RankResult loaderRun(double loader_us, int steps) {
  TraceBuilder b;
  b.device(0, 80);
  double t = 0;
  for (int s = 0; s < steps; ++s) {
    const double step = loader_us + 380;
    b.step(t, step, s + 1);
    b.range(t, loader_us, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
    b.kernel(t + loader_us + 10, 300, "volta_sgemm_128x64_nn", b.call(t + loader_us + 2, 5));
    b.kernel(t + loader_us + 315, 50,
             "void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>>()",
             b.call(t + loader_us + 8, 5));
    t += step;
  }
  const TraceTables tables = b.build();
  auto analysis = analyzeRank(tables, {});
  EXPECT_TRUE(analysis.ok());
  return buildRankResult(analysis.value(), "loader" + std::to_string(int(loader_us)) + ".json", {});
}

const AxisChange& axis(const RankDiff& d, Axis a) {
  for (const AxisChange& c : d.axes) {
    if (c.axis == a) return c;
  }
  static const AxisChange kNone;
  ADD_FAILURE() << "no axis " << toText(a);
  return kNone;
}

const FindingChange* finding(const RankDiff& d, const std::string& rule) {
  for (const FindingChange& f : d.findings) {
    if (f.rule == rule) return &f;
  }
  return nullptr;
}

TEST(RunDiff, ChangeArithmetic) {
  const Change c{179.9, 144.4};
  EXPECT_DOUBLE_EQ(*c.delta(), 144.4 - 179.9);
  EXPECT_NEAR(*c.relativePct(), -19.73, 0.01);
  EXPECT_FALSE((Change{std::nullopt, 1.0}).delta());
  EXPECT_FALSE((Change{0.0, 1.0}).relativePct()) << "no relative change from 0";
}

TEST(RunDiff, LoaderFixMovesTheVerdictOffDataBound) {
  // Before: 600 µs loading per 980 µs step, 4 steps (3 analysed: HTA leaves
  // out the last). After: 5 µs loading, 6 steps (5 analysed).
  const RankResult before = loaderRun(600, 4);
  const RankResult after = loaderRun(5, 6);
  ASSERT_EQ(before.verdict(), Verdict::kDataBound);
  const RankDiff d = diffRanks(before, after);

  EXPECT_TRUE(d.verdictChanged());
  EXPECT_EQ(d.before_verdict, Verdict::kDataBound);
  EXPECT_NE(d.after_verdict, Verdict::kDataBound);
  EXPECT_EQ(d.before_lead, Axis::kDataStall);
  EXPECT_EQ(d.before_steps, 3);
  EXPECT_EQ(d.after_steps, 5);
  EXPECT_TRUE(d.per_step);
  EXPECT_DOUBLE_EQ(*d.step_ns.before, 980'000);
  EXPECT_DOUBLE_EQ(*d.step_ns.after, 385'000);

  const AxisChange& data = axis(d, Axis::kDataStall);
  EXPECT_GT(*data.pct.before, 55);
  EXPECT_LT(*data.pct.after, 5);
  // Per step, although the runs analysed 3 and 5 steps.
  EXPECT_NEAR(*data.ns_per_step.before, *data.pct.before / 100 * 980'000, 1);
  EXPECT_NEAR(*axis(d, Axis::kComputeBound).ns_per_step.before,
              *axis(d, Axis::kComputeBound).ns_per_step.after, 1)
      << "the same GEMM each step";
  EXPECT_DOUBLE_EQ(*d.kernel_ns_per_step.before, 350'000);
  EXPECT_DOUBLE_EQ(*d.kernel_ns_per_step.after, 350'000);

  const FindingChange* loading = finding(d, "data_loading");
  ASSERT_NE(loading, nullptr);
  EXPECT_EQ(loading->state, FindingState::kDisappeared);
  EXPECT_EQ(loading->metric, Metric::kDataStallPct);
  EXPECT_GT(*loading->value.before, 55);
  EXPECT_LT(*loading->value.after, 5) << "the metric after, though the rule no longer fires";
  EXPECT_TRUE(loading->max_gain_pct.before);
  EXPECT_FALSE(loading->max_gain_pct.after);
  // The critical path: the loader's 600 µs, the GEMM, the 5 µs gap and the
  // add (the GEMM's 8 µs wait is no launch delay by HTA's rule: the add was
  // queued behind it by then); without the loader it predicted the fixed
  // run's step (980 - 600 = 380 µs against 385 µs measured).
  EXPECT_DOUBLE_EQ(*d.critical_path_ns.before, 955'000);
  EXPECT_DOUBLE_EQ(*d.critical_path_ns.after, 360'000);
  EXPECT_DOUBLE_EQ(*loading->projected_step_ns.before, 380'000);
  EXPECT_FALSE(loading->projected_step_ns.after);

  ASSERT_FALSE(d.categories.empty());
  EXPECT_EQ(d.categories.front().category, KernelCategory::kGemm);
  EXPECT_TRUE(d.notes.empty());

  const std::string text = formatRankDiff(d);
  const size_t verdict = text.find("VERDICT  DATA-BOUND -> ");
  ASSERT_NE(verdict, std::string::npos) << text;
  EXPECT_LT(verdict, text.find("step time 980.0 µs -> 385.0 µs (-60.7 %), 3 -> 5 steps analysed"))
      << text;
  EXPECT_NE(text.find("data stall was the lead"), std::string::npos) << text;
  EXPECT_NE(text.find("gone   data_loading [high]"), std::string::npos) << text;
  for (size_t start = 0, end; start < text.size(); start = end + 1) {
    end = text.find('\n', start);
    EXPECT_LE(end - start, 100u) << text.substr(start, end - start);
  }

  const nlohmann::json j = rankDiffJson(d);
  EXPECT_EQ(j["before"]["verdict"], "data-bound");
  EXPECT_EQ(j["before"]["lead"], "data_stall");
  EXPECT_TRUE(j["verdict_changed"].get<bool>());
  EXPECT_DOUBLE_EQ(j["step_time_us"]["before"].get<double>(), 980.0);
  EXPECT_DOUBLE_EQ(j["step_time_us"]["after"].get<double>(), 385.0);
  EXPECT_DOUBLE_EQ(j["step_time_us"]["delta"].get<double>(), -595.0);
  EXPECT_DOUBLE_EQ(j["step_time_us"]["change_pct"].get<double>(), -60.71);
  EXPECT_EQ(j["scorecard"].size(), kAxisCount);
  EXPECT_TRUE(j["scorecard"]["data_stall"]["pct"].contains("delta"));
  EXPECT_TRUE(j["breakdown"]["overlap_pct"]["before"].is_null()) << "no communication";
  bool gone = false;
  for (const auto& f : j["findings"])
    gone |= f["rule"] == "data_loading" && f["state"] == "disappeared";
  EXPECT_TRUE(gone);
}

TEST(RunDiff, FindingsThatAppearAndRemain) {
  const RankResult slow = loaderRun(600, 4);
  const RankDiff d = diffRanks(loaderRun(5, 4), slow);
  const FindingChange* loading = finding(d, "data_loading");
  ASSERT_NE(loading, nullptr);
  EXPECT_EQ(loading->state, FindingState::kAppeared);
  const RankDiff same = diffRanks(slow, slow);
  EXPECT_FALSE(same.verdictChanged());
  ASSERT_NE(finding(same, "data_loading"), nullptr);
  EXPECT_EQ(finding(same, "data_loading")->state, FindingState::kRemained);
  EXPECT_DOUBLE_EQ(*same.step_ns.delta(), 0);
  EXPECT_NE(formatRankDiff(same).find("VERDICT  still DATA-BOUND"), std::string::npos);
  EXPECT_NE(formatRankDiff(same).find("the lead is still data stall"), std::string::npos);
}

// Top-kernel lists are cut (KernelsResult::top): outside a run's list a
// kernel has a bound, not a figure; a complete list means 0.
TEST(RunDiff, KernelsOutsideATopListHaveABoundNotAFigure) {
  RankResult before, after;
  before.window.step_count = 2;
  after.window.step_count = 4;
  before.kernels.total_ns = 1000;  // listed: 900 of 1000, so the list is cut
  before.kernels.top = {{"a", KernelCategory::kGemm, 2, 600}, {"b", KernelCategory::kGemm, 2, 300}};
  after.kernels.total_ns = 1200;  // complete
  after.kernels.top = {{"a", KernelCategory::kGemm, 4, 400}, {"c", KernelCategory::kGemm, 4, 800}};
  const RankDiff d = diffRanks(before, after);
  ASSERT_EQ(d.kernels.size(), 3u);
  EXPECT_EQ(d.kernels[0].name, "a");  // 300 -> 100 per step: moved 200
  EXPECT_DOUBLE_EQ(*d.kernels[0].ns_per_step.before, 300);
  EXPECT_DOUBLE_EQ(*d.kernels[0].ns_per_step.after, 100);
  EXPECT_DOUBLE_EQ(d.kernels[0].moved_ns, 200);
  // c: not in before's cut list (less than b's 150 per step), 200 after.
  EXPECT_EQ(d.kernels[2].name, "c");
  EXPECT_FALSE(d.kernels[2].ns_per_step.before);
  EXPECT_DOUBLE_EQ(*d.kernels[2].before_below_ns, 150);
  EXPECT_DOUBLE_EQ(d.kernels[2].moved_ns, 50);
  // b: not in after's complete list: 0 there.
  EXPECT_EQ(d.kernels[1].name, "b");
  EXPECT_DOUBLE_EQ(*d.kernels[1].ns_per_step.after, 0);
  EXPECT_DOUBLE_EQ(d.kernels[1].moved_ns, 150);
  EXPECT_NE(formatRankDiff(d).find("<150 ns"), std::string::npos) << formatRankDiff(d);
}

// The ops that moved: per step, and outside a run's top ops a bound (less
// than its list's last op).
TEST(RunDiff, OpsThatMovedMostWithBoundsOutsideTheList) {
  RankResult before, after;
  before.window.step_count = 2;
  after.window.step_count = 2;
  auto op = [](const std::string& name, int64_t calls, int64_t ns) {
    OpRow o;
    o.name = name, o.calls = calls, o.gpu_total_ns = ns;
    return o;
  };
  before.top_ops = {op("aten::mm", 4, 800), op("aten::add", 4, 200)};
  after.top_ops = {op("aten::mm", 4, 300), op("CompiledFunction", 2, 250)};
  const RankDiff d = diffRanks(before, after);
  ASSERT_EQ(d.ops.size(), 3u);
  EXPECT_EQ(d.ops[0].name, "aten::mm");  // 400 -> 150 per step
  EXPECT_DOUBLE_EQ(*d.ops[0].ns_per_step.before, 400);
  EXPECT_DOUBLE_EQ(*d.ops[0].ns_per_step.after, 150);
  EXPECT_DOUBLE_EQ(d.ops[0].moved_ns, 250);
  EXPECT_DOUBLE_EQ(*d.ops[0].calls_per_step.after, 2);
  // CompiledFunction: 125 per step after, less than aten::add's 100 before.
  EXPECT_EQ(d.ops[1].name, "CompiledFunction");
  EXPECT_FALSE(d.ops[1].ns_per_step.before);
  EXPECT_DOUBLE_EQ(*d.ops[1].before_below_ns, 100);
  EXPECT_DOUBLE_EQ(d.ops[1].moved_ns, 25);
  // aten::add: 100 before, under CompiledFunction's 125 after: no least move.
  EXPECT_EQ(d.ops[2].name, "aten::add");
  EXPECT_DOUBLE_EQ(d.ops[2].moved_ns, 0);
}

TEST(RunDiff, RunsWithoutStepsCompareTotals) {
  RankResult before, after;
  before.kernels.total_ns = 1000;
  after.window.step_count = 3;
  after.kernels.total_ns = 900;
  const RankDiff d = diffRanks(before, after);
  EXPECT_FALSE(d.per_step);
  EXPECT_DOUBLE_EQ(*d.kernel_ns_per_step.after, 900) << "totals, not per step";
  ASSERT_FALSE(d.notes.empty());
  EXPECT_NE(d.notes.front().find("totals"), std::string::npos);
  EXPECT_TRUE(d.axes.empty()) << "neither run has a scorecard";
}

TEST(RunDiff, RanksArePairedInOrder) {
  RunResult before, after;
  before.ranks.resize(2);
  after.ranks.resize(1);
  before.ranks[0].rank = 0;
  after.ranks[0].rank = 1;
  const RunDiff d = diffRuns(before, after);
  ASSERT_EQ(d.ranks.size(), 1u);
  ASSERT_FALSE(d.ranks[0].notes.empty());
  EXPECT_NE(d.ranks[0].notes[0].find("rank 0 before with rank 1 after"), std::string::npos);
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_NE(d.notes[0].find("before has 2 rank(s), after 1"), std::string::npos);
  const nlohmann::json j = runDiffJson(d);
  EXPECT_EQ(j["format"], "damscope-diff");
  EXPECT_EQ(j["version"], kDiffJsonVersion);
  EXPECT_EQ(j["ranks"].size(), 1u);
}

// The TensorBoard plugin's ResNet-50 samples: four DataLoader workers take
// the data stall from about 35 % of the step to about 3 %.
TEST(RunDiff, SharedResnetPair) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  auto result = [](const std::string& name) {
    auto tables = importTrace(testing::sharedTrace("kineto/" + name));
    EXPECT_TRUE(tables.ok());
    auto analysis = analyzeRank(tables.value(), {});
    EXPECT_TRUE(analysis.ok());
    return buildRankResult(analysis.value(), name, {});
  };
  const RankDiff d = diffRanks(result("resnet50_workers0.pt.trace.json.gz"),
                               result("resnet50_workers4.pt.trace.json.gz"));
  EXPECT_EQ(d.before_verdict, Verdict::kDataBound);
  EXPECT_NE(d.after_verdict, Verdict::kDataBound);
  const AxisChange& data = axis(d, Axis::kDataStall);
  EXPECT_NEAR(*data.pct.before, 35, 2);
  EXPECT_NEAR(*data.pct.after, 3, 1);
  EXPECT_NEAR(*d.step_ns.relativePct(), -19.7, 0.1);
  ASSERT_NE(finding(d, "data_loading"), nullptr);
  EXPECT_EQ(finding(d, "data_loading")->state, FindingState::kDisappeared);
  const std::string text = formatRankDiff(d);
  EXPECT_NE(text.find("step time 179.9 ms -> 144.4 ms (-19.7 %)"), std::string::npos) << text;
}

}  // namespace
}  // namespace damscope
