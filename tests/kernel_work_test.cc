// Kernel work (FLOPs and bytes per kernel) from each source: shapes of ATen
// ops, the workload's NVTX op annotations, measured counters; the most
// trusted source wins, the innermost range wins, kernels of one range share
// it by duration; and the shape counts of matrix ops and attention.
#include "analyzer/analyses/kernel_work.h"

#include <gtest/gtest.h>

#include "analyzer/analyses/op_shapes.h"
#include "analyzer/importers/trace_import.h"
#include "tests/test_support.h"
#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::TraceBuilder;

int64_t rangeNamed(const TraceTables& t, const std::string& name) {
  for (size_t i = 0; i < t.ranges.size(); ++i) {
    if (t.strings.get(t.ranges.name[i]) == name) return static_cast<int64_t>(i);
  }
  return -1;
}

const KernelWork* workOf(const KernelWorkReport& r, const TraceTables& t, const std::string& name) {
  for (const KernelWork& w : r.kernels) {
    if (t.strings.get(t.kernels.name[static_cast<size_t>(w.kernel)]) == name) return &w;
  }
  return nullptr;
}

TEST(OpShapes, MatrixOpsAndAttentionAreCountedFromTheirShapes) {
  const auto mm = estimateOpWork({"aten::mm", R"({"Input Dims":[[64,128],[128,32]],"Input type":["float","float"]})"});
  ASSERT_TRUE(mm);
  EXPECT_DOUBLE_EQ(mm->flops, 2.0 * 64 * 128 * 32);
  EXPECT_DOUBLE_EQ(mm->bytes, (64 * 128 + 128 * 32 + 64 * 32) * 4.0);
  // A real aten::linear of diff_control_a100: input [1024,1705], weight [512,1705], bias.
  const auto linear = estimateOpWork({"aten::linear", R"({"Input Dims":[[1024,1705],[512,1705],[512]],"Input type":["float","float","float"]})"});
  ASSERT_TRUE(linear);
  EXPECT_DOUBLE_EQ(linear->flops, 2.0 * 1024 * 1705 * 512 + 1024 * 512);
  const auto bmm = estimateOpWork({"aten::bmm", R"({"Input Dims":[[8,16,32],[8,32,4]],"Input type":["c10::BFloat16","c10::BFloat16"]})"});
  ASSERT_TRUE(bmm);
  EXPECT_DOUBLE_EQ(bmm->flops, 2.0 * 8 * 16 * 32 * 4);
  EXPECT_DOUBLE_EQ(bmm->bytes, 8.0 * (16 * 32 + 32 * 4 + 16 * 4) * 2);
  const auto sdpa = estimateOpWork({"aten::scaled_dot_product_attention", R"({"Input Dims":[[2,12,1024,64],[2,12,1024,64],[2,12,1024,64]],"Input type":["c10::Half","c10::Half","c10::Half"]})"});
  ASSERT_TRUE(sdpa);
  EXPECT_DOUBLE_EQ(sdpa->flops, 4.0 * 2 * 12 * 1024 * 1024 * 64);
  // Shapes that do not fit, or nothing to count: no estimate, never a guess.
  EXPECT_FALSE(estimateOpWork({"aten::mm", R"({"Input Dims":[[64,128],[127,32]],"Input type":["float","float"]})"}));
  EXPECT_FALSE(estimateOpWork({"aten::mm", R"({"Input Dims":[[64,128],[128,32]]})"}));
  EXPECT_FALSE(estimateOpWork({"fbgemm::jagged_to_padded_dense",
                               R"({"Input Dims":[[64],[64]],"Input type":["float","float"]})"}));
  EXPECT_FALSE(estimateOpWork({"aten::mm", "not json"}));
  EXPECT_FALSE(estimateOpWork({"aten::mm", R"({"Input Dims":[[-1,2],[2,3]],"Input type":["float","float"]})"}));
}

TEST(KernelWork, EachSourceReachesTheKernelsLaunchedInside) {
  TraceBuilder b;
  // An ATen mm launching two kernels (30 and 10 µs): they share its count 3:1.
  const int64_t mm = b.range(0, 100, "aten::mm");
  b.tables().ranges.args[static_cast<size_t>(mm)] =
      R"({"Input Dims":[[64,128],[128,32]],"Input type":["float","float"]})";
  b.kernel(20, 30, "gemm_a", b.call(10, 2));
  b.kernel(60, 10, "gemm_b", b.call(12, 2));
  // The workload's annotation around an ATen op: the annotation wins.
  b.range(200, 100, R"({"op":"attn_fwd","flops":1e9,"bytes":2e6})", "nvtx", 0, "damscope");
  const int64_t inner = b.range(210, 50, "aten::mm");
  b.tables().ranges.args[static_cast<size_t>(inner)] =
      R"({"Input Dims":[[8,8],[8,8]],"Input type":["float","float"]})";
  b.kernel(230, 20, "attn", b.call(220, 2));
  // A kernel outside every counted range gets nothing.
  b.kernel(420, 20, "elementwise", b.call(410, 2));
  TraceTables t = b.build();

  const KernelWorkReport r = computeKernelWork(AnalysisInput::build(t));
  const KernelWork* a = workOf(r, t, "gemm_a");
  const KernelWork* c = workOf(r, t, "gemm_b");
  ASSERT_TRUE(a && c);
  EXPECT_EQ(a->source, MetricSource::kEstimated);
  EXPECT_DOUBLE_EQ(a->flops, 0.75 * 2 * 64 * 128 * 32);
  EXPECT_DOUBLE_EQ(c->flops, 0.25 * 2 * 64 * 128 * 32);
  EXPECT_DOUBLE_EQ(*a->bytes + *c->bytes, (64 * 128 + 128 * 32 + 64 * 32) * 4.0);
  EXPECT_EQ(a->range, rangeNamed(t, "aten::mm"));
  const KernelWork* attn = workOf(r, t, "attn");
  ASSERT_TRUE(attn);
  EXPECT_EQ(attn->source, MetricSource::kAnnotated);
  EXPECT_DOUBLE_EQ(attn->flops, 1e9);
  EXPECT_DOUBLE_EQ(*attn->bytes, 2e6);
  EXPECT_EQ(workOf(r, t, "elementwise"), nullptr);
  EXPECT_EQ(r.kernels_by_source[static_cast<size_t>(MetricSource::kEstimated)], 2);
  EXPECT_EQ(r.kernels_by_source[static_cast<size_t>(MetricSource::kAnnotated)], 1);

  // Measured counters on the kernel itself beat everything.
  KernelMetricTable::Row m;
  for (size_t k = 0; k < t.kernels.size(); ++k) {
    if (t.strings.get(t.kernels.name[k]) == "attn") m.kernel_id = static_cast<int64_t>(k);
  }
  m.flops = 5e8, m.dram_bytes = 1e6, m.source = MetricSource::kMeasured;
  t.kernel_metrics.append(m);
  const KernelWorkReport measured = computeKernelWork(AnalysisInput::build(t));
  EXPECT_EQ(workOf(measured, t, "attn")->source, MetricSource::kMeasured);
  EXPECT_DOUBLE_EQ(workOf(measured, t, "attn")->flops, 5e8);
}

TEST(KernelWork, InnermostCountedRangeWins) {
  TraceBuilder b;
  const int64_t outer = b.range(0, 100, "aten::linear");
  b.tables().ranges.args[static_cast<size_t>(outer)] =
      R"({"Input Dims":[[4,8],[16,8]],"Input type":["float","float"]})";
  const int64_t inner = b.range(10, 50, "aten::mm");
  b.tables().ranges.args[static_cast<size_t>(inner)] =
      R"({"Input Dims":[[4,8],[8,16]],"Input type":["float","float"]})";
  b.kernel(30, 10, "gemm", b.call(20, 2));
  TraceTables t = b.build();
  const KernelWorkReport r = computeKernelWork(AnalysisInput::build(t));
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].range, rangeNamed(t, "aten::mm"));
  EXPECT_EQ(r.ranges_without_kernels, 1) << "the linear launched nothing itself";
}

TEST(KernelWork, RealTracesWithShapesGiveEstimates) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  auto t = importTrace(testing::sharedTrace("kineto/diff_control_a100.json.gz"));
  ASSERT_TRUE(t.ok());
  const KernelWorkReport r = computeKernelWork(AnalysisInput::build(t.value()));
  EXPECT_GT(r.kernels_by_source[static_cast<size_t>(MetricSource::kEstimated)], 100);
  // Every kernel with work has its bytes; copies and gathers have no FLOPs.
  for (const KernelWork& w : r.kernels) {
    ASSERT_TRUE(w.bytes.has_value());
    ASSERT_GE(w.flops, 0);
  }
}

}  // namespace
}  // namespace damscope
