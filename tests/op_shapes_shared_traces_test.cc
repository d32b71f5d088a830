// Kernel work from op shapes and counters on the real traces in
// ../shared/traces: the share of computation kernel time placed on the
// roofline, ResNet-50's model FLOPs per step against the textbook count,
// and every CUPTI counter range of cupti_flop_counters_a100 matched to its
// kernel. Skips when the folder is absent.
#include <gtest/gtest.h>

#include <cmath>

#include "analyzer/analyses/rank_analysis.h"
#include "analyzer/importers/trace_import.h"
#include "tests/test_support.h"

namespace damscope {
namespace {

using testing::sharedTrace;

struct Analysed {
  TraceTables tables;
  RankAnalysis rank;
};

std::unique_ptr<Analysed> analyse(const std::string& relative) {
  auto a = std::make_unique<Analysed>();
  auto tables = importTrace(sharedTrace(relative));
  EXPECT_TRUE(tables.ok()) << relative;
  if (!tables.ok()) return nullptr;
  a->tables = std::move(tables.value());
  auto rank = analyzeRank(a->tables, {});
  EXPECT_TRUE(rank.ok()) << relative;
  if (!rank.ok()) return nullptr;
  a->rank = std::move(rank.value());
  return a;
}

// The share of computation kernel time placed, per trace: at least the
// issue's 90 % where every op that ran kernels has a formula (the ResNets);
// the DLRM pair spends the rest in fbgemm's embedding ops, aten::cat with
// unrecorded lists and torch.compile graphs (CompiledFunction), which the
// roofline note names.
struct Coverage {
  const char* file;
  double at_least_pct;
};
constexpr Coverage kCoverage[] = {
    {"kineto/resnet50_workers0.pt.trace.json.gz", 99.0},
    {"kineto/resnet50_workers4.pt.trace.json.gz", 99.0},
    {"kineto/diff_control_a100.json.gz", 55.0},
    {"kineto/diff_test_v100.json.gz", 14.0},
};

TEST(OpShapesSharedTraces, ShapesPlaceTheKernelsOfTheOpsWithFormulas) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  for (const Coverage& c : kCoverage) {
    const auto a = analyse(c.file);
    ASSERT_TRUE(a) << c.file;
    const RooflineReport& r = a->rank.roofline;
    EXPECT_GE(r.time_with_work_pct, c.at_least_pct) << c.file;
    // Shapes are the only source these traces have: the kernels they place
    // are on their side of the ridge by them.
    EXPECT_EQ(r.time_by_source_pct[0] + r.time_by_source_pct[1], 0) << c.file;
    EXPECT_GE(r.time_by_source_pct[2], c.at_least_pct) << c.file;
    EXPECT_LE(r.time_by_source_pct[2], r.time_with_work_pct + 1e-9) << c.file;
    if (r.time_with_work_pct < 99) {
      bool named = false;
      for (const AnalysisNote& n : a->rank.notes) named = named || n.analysis == "roofline";
      EXPECT_TRUE(named) << c.file << ": the unplaced ops are named";
    }
  }
}

// ResNet-50 at 224 x 224 is about 4.1 GMAC forward per image; a training
// step (forward, and backward at twice the forward) of batch 32 is about
// 3 x 2 x 4.1e9 x 32 = 0.787 TFLOP. The recorded shapes must land within
// 15 % of it, and MFU follow from the step time and the V100's FP32 peak.
TEST(OpShapesSharedTraces, ResNet50ModelFlopsPerStepFromItsShapes) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  const auto a = analyse("kineto/resnet50_workers0.pt.trace.json.gz");
  ASSERT_TRUE(a);
  const MfuReport& m = a->rank.mfu;
  EXPECT_EQ(m.flops_source, FlopsSource::kOpShapes);
  ASSERT_TRUE(m.model_flops_per_step && m.mfu_pct && m.peak_flops_per_s && m.op_shapes_coverage_pct);
  const double expected = 3 * 2 * 4.1e9 * 32;
  EXPECT_NEAR(*m.model_flops_per_step / expected, 1.0, 0.15) << *m.model_flops_per_step;
  EXPECT_GE(*m.op_shapes_coverage_pct, kOpShapesMinCoveragePct);
  EXPECT_DOUBLE_EQ(*m.peak_flops_per_s, 15.7e12);
  double seconds = 0, flops = 0;
  for (size_t s = 0; s < a->rank.steps.steps.size(); ++s) {
    if (!a->rank.window.stepInWindow(s)) continue;
    seconds += static_cast<double>(a->rank.steps.steps[s].duration()) * 1e-9;
    flops += m.steps[s].model_flops.value_or(0);
  }
  EXPECT_NEAR(*m.mfu_pct, 100 * flops / seconds / 15.7e12, 1e-6);
}

// HTA's get_cupti_counter_data_with_operators: the i-th counter range is the
// kernel of the i-th kernel launch; all 77 are matched, their FLOPs
// (2 FMA + ADD + MUL) kept per kernel.
TEST(OpShapesSharedTraces, EveryCounterRangeIsMatchedToItsKernel) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  const auto a = analyse("kineto/cupti_flop_counters_a100.json.gz");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->tables.getStat("kineto.counter_ranges_matched"), 77);
  EXPECT_EQ(a->tables.kernels.size(), 77u);
  int64_t matched = 0, with_flops = 0;
  double flops = 0;
  const KernelMetricTable& km = a->tables.kernel_metrics;
  for (size_t i = 0; i < km.size(); ++i) {
    if (isNull(km.kernel_id[i])) continue;
    ++matched;
    flops += km.flops[i];
    if (km.flops[i] > 0) ++with_flops;
  }
  EXPECT_EQ(matched, 77);
  EXPECT_DOUBLE_EQ(flops, 80231038456.0);  // summed from the trace's SASS counters
  // Transposes and copies measured no floating-point instruction: no work to place.
  EXPECT_EQ(with_flops, 63);
  EXPECT_EQ(a->rank.work.kernels_by_source[0], with_flops);
  const MfuReport& m = a->rank.mfu;
  ASSERT_TRUE(m.hardware_flops_window);
  // The kernels' times are the profiler's placeholders: no HFU from them.
  EXPECT_FALSE(m.hfu_pct);
  EXPECT_EQ(a->tables.getMeta("kernel_times"), "placeholders");
}

}  // namespace
}  // namespace damscope
