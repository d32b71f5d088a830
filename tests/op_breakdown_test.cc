// The op table's attribution (analyzer/analyses/op_breakdown.h) on small
// traces whose figures are worked out by hand in each test: nested ops
// (total and self, on the GPU and the host), an op nested in its own name,
// backward work charged to its forward op's module through the sequence
// number, the "Module Hierarchy" argument, GPU annotations and their nesting
// on one stream, kernels with no launch call, the window's cut, shapes, and
// the FLOP/s and roofline place of a row.
#include "analyzer/analyses/op_breakdown.h"

#include <gtest/gtest.h>

#include <memory>

#include "analyzer/analyses/steps.h"
#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::TraceBuilder;
using testing::us;

// The input refers to the tables: both live in one heap object.
struct Fixture {
  explicit Fixture(TraceTables t, WindowMode mode)
      : tables(std::move(t)),
        input(AnalysisInput::build(tables)),
        window(computeWindow(input, computeSteps(input, {}), {mode})) {}
  TraceTables tables;
  AnalysisInput input;
  WindowReport window;
};

std::unique_ptr<Fixture> prepare(TraceBuilder& b, WindowMode mode = WindowMode::kAll) {
  return std::make_unique<Fixture>(b.build(), mode);
}

OpBreakdownReport breakdown(const Fixture& f, OpGrouping grouping,
                            const KernelWorkReport& work = {}, const OpRoofs& roofs = {},
                            bool by_shape = false) {
  OpBreakdownOptions options;
  options.grouping = grouping;
  options.by_shape = by_shape;
  return computeOpBreakdown(f.input, f.window, work, roofs, options);
}

const OpRow& row(const OpBreakdownReport& r, const std::string& name) {
  for (const OpRow& x : r.rows) {
    if (x.name == name) return x;
  }
  static const OpRow kMissing{"<missing>"};
  ADD_FAILURE() << "no row " << name;
  return kMissing;
}

// A [0,100) holds B [10,50); A launches at 5 (a 20 µs kernel), B at 20 (a
// 30 µs kernel).
TraceBuilder nestedOps() {
  TraceBuilder b;
  b.device(0, 80);
  b.range(0, 100, "A");
  b.range(10, 40, "B");
  b.kernel(200, 20, "k_a", b.call(5, 2));
  b.kernel(230, 30, "k_b", b.call(20, 2));
  return b;
}

TEST(OpBreakdown, NestedOpsCountInTheirParentsTotalAndTheirOwnSelf) {
  TraceBuilder b = nestedOps();
  auto f = prepare(b);
  const OpBreakdownReport r = breakdown(*f, OpGrouping::kOp);
  ASSERT_EQ(r.rows.size(), 2u);
  EXPECT_EQ(r.rows[0].name, "A");  // largest GPU total first
  const OpRow& a = row(r, "A");
  const OpRow& bb = row(r, "B");
  EXPECT_EQ(a.calls, 1);
  EXPECT_EQ(a.gpu_total_ns, us(50));
  EXPECT_EQ(a.gpu_self_ns, us(20));
  EXPECT_EQ(a.gpu_ops, 2);
  EXPECT_EQ(bb.gpu_total_ns, us(30));
  EXPECT_EQ(bb.gpu_self_ns, us(30));
  EXPECT_EQ(a.cpu_total_ns, us(100));
  EXPECT_EQ(a.cpu_self_ns, us(60));
  EXPECT_EQ(bb.cpu_total_ns, us(40));
  EXPECT_EQ(bb.cpu_self_ns, us(40));
  EXPECT_EQ(r.gpu_ops, 2);
  EXPECT_EQ(r.gpu_ns, us(50));
  EXPECT_EQ(r.outside_ops, 0);
  // The window is the GPU span [200, 260): shares are of it.
  EXPECT_EQ(r.window_ns, us(60));
  EXPECT_NEAR(a.gpu_total_pct, 100.0 * 50 / 60, 1e-9);
}

TEST(OpBreakdown, LeafOpsAreTheFlatProfile) {
  TraceBuilder b = nestedOps();
  auto f = prepare(b);
  const OpBreakdownReport r = breakdown(*f, OpGrouping::kLeafOp);
  const OpRow& a = row(r, "A");
  const OpRow& bb = row(r, "B");
  EXPECT_EQ(a.gpu_total_ns, us(20));  // only what A launched itself
  EXPECT_EQ(a.gpu_self_ns, us(20));
  EXPECT_EQ(bb.gpu_total_ns, us(30));
  EXPECT_EQ(a.cpu_total_ns, us(60));  // host time outside B
  EXPECT_EQ(bb.cpu_total_ns, us(40));
}

TEST(OpBreakdown, AnOpInsideItsOwnNameCountsOnceInTheTotal) {
  TraceBuilder b;
  b.device(0, 80);
  b.range(0, 100, "aten::to");
  b.range(10, 40, "aten::to");
  b.kernel(200, 30, "k", b.call(20, 2));
  auto f = prepare(b);
  const OpRow& to = row(breakdown(*f, OpGrouping::kOp), "aten::to");
  EXPECT_EQ(to.calls, 2);
  EXPECT_EQ(to.gpu_total_ns, us(30));
  EXPECT_EQ(to.gpu_self_ns, us(30));
  EXPECT_EQ(to.cpu_total_ns, us(100));  // the outer one's time, not 140
  EXPECT_EQ(to.cpu_self_ns, us(100));   // 60 of the outer's own and 40 of the inner
}

TEST(OpBreakdown, KernelsWithoutALaunchCallAreCountedApart) {
  TraceBuilder b = nestedOps();
  b.kernel(300, 10, "orphan", kNullInt);
  b.kernel(320, 5, "launched_outside_ops", b.call(150, 2));
  auto f = prepare(b);
  const OpBreakdownReport r = breakdown(*f, OpGrouping::kOp);
  EXPECT_EQ(r.unattributed_ops, 1);
  EXPECT_EQ(r.unattributed_ns, us(10));
  EXPECT_EQ(r.outside_ops, 1);
  EXPECT_EQ(r.outside_ns, us(5));
  EXPECT_EQ(r.gpu_ns, us(65));
  EXPECT_EQ(row(r, "A").gpu_total_ns, us(50));
}

// Forward on thread 0 inside module Linear_0; its backward node on the
// autograd thread (1) carries the same sequence number and launches a 40 µs
// kernel. An earlier forward op with the same number (one that saw the
// number before the node was made) must not be the one linked.
TEST(OpBreakdown, BackwardWorkGoesToTheForwardOpsModule) {
  TraceBuilder b;
  b.device(0, 80);
  const int64_t early = b.range(0, 5, "aten::view");
  b.tables().ranges.args[static_cast<size_t>(early)] =
      R"({"Sequence number": 7, "Fwd thread id": 0})";
  b.range(10, 100, "nn.Module: Linear_0", "python_function");
  const int64_t fwd = b.range(20, 30, "aten::addmm");
  b.tables().ranges.args[static_cast<size_t>(fwd)] =
      R"({"External id": 3, "Sequence number": 7, "Fwd thread id": 0})";
  b.kernel(60, 10, "k_fwd", b.call(25, 2));
  const int64_t bwd = b.range(200, 50, "AddmmBackward0", "cpu_op", 1);
  b.tables().ranges.args[static_cast<size_t>(bwd)] =
      R"({"Sequence number": 7, "Fwd thread id": 1})";
  b.kernel(260, 40, "k_bwd", b.call(210, 2, "cudaLaunchKernel", 1));
  auto f = prepare(b);

  const OpBreakdownReport r = breakdown(*f, OpGrouping::kModule);
  ASSERT_EQ(r.rows.size(), 1u);
  const OpRow& linear = r.rows[0];
  EXPECT_EQ(linear.name, "Linear_0");
  EXPECT_EQ(linear.calls, 1);
  EXPECT_EQ(linear.gpu_total_ns, us(50));
  EXPECT_EQ(linear.gpu_self_ns, us(50));
  EXPECT_EQ(linear.cpu_total_ns, us(100));
  EXPECT_EQ(r.backward_ops, 1);
  EXPECT_EQ(r.outside_ops, 0);

  // By op the backward kernel stays with its backward node.
  EXPECT_EQ(row(breakdown(*f, OpGrouping::kOp), "AddmmBackward0").gpu_total_ns, us(40));
}

// What a finding's evidence is named by: the innermost op and module a
// launch is charged to, backward work with its forward op's module.
TEST(OpBreakdown, InnermostRowNamesAreWhereALaunchIsCharged) {
  TraceBuilder b;
  b.device(0, 80);
  b.range(10, 100, "nn.Module: Linear_0", "python_function");
  const int64_t fwd = b.range(20, 30, "aten::addmm");
  b.tables().ranges.args[static_cast<size_t>(fwd)] =
      R"({"Sequence number": 7, "Fwd thread id": 0})";
  b.range(22, 10, "aten::copy_");
  const int64_t bwd = b.range(200, 50, "AddmmBackward0", "cpu_op", 1);
  b.tables().ranges.args[static_cast<size_t>(bwd)] =
      R"({"Sequence number": 7, "Fwd thread id": 1})";
  b.range(205, 20, "aten::mm", "cpu_op", 1);
  auto f = prepare(b);
  const std::vector<HostMoment> moments = {
      {0, us(25)},   // in aten::copy_ inside aten::addmm
      {0, us(40)},   // in aten::addmm, after the copy
      {0, us(90)},   // in the module, in no op
      {1, us(210)},  // in aten::mm inside the backward node
      {0, us(500)},  // in nothing
      {7, us(25)},   // a thread without ranges
  };
  EXPECT_EQ(innermostRowNames(f->input, OpGrouping::kLeafOp, moments),
            (std::vector<std::string>{"aten::copy_", "aten::addmm", "", "aten::mm", "", ""}));
  EXPECT_EQ(innermostRowNames(f->input, OpGrouping::kModule, moments),
            (std::vector<std::string>{"Linear_0", "Linear_0", "Linear_0", "Linear_0", "", ""}));
}

TEST(OpBreakdown, BackwardNodeWithoutItsForwardOpStaysOutside) {
  TraceBuilder b;
  b.device(0, 80);
  b.range(10, 100, "nn.Module: Linear_0", "python_function");
  const int64_t bwd = b.range(200, 50, "AddmmBackward0", "cpu_op", 1);
  b.tables().ranges.args[static_cast<size_t>(bwd)] =
      R"({"Sequence number": 8, "Fwd thread id": 1})";
  b.kernel(260, 40, "k_bwd", b.call(210, 2, "cudaLaunchKernel", 1));
  auto f = prepare(b);
  const OpBreakdownReport r = breakdown(*f, OpGrouping::kModule);
  EXPECT_EQ(r.backward_ops, 0);
  EXPECT_EQ(r.outside_ops, 1);
  EXPECT_EQ(row(r, "Linear_0").gpu_total_ns, 0);
}

TEST(OpBreakdown, RecordFunctionModulesAndModuleHierarchy) {
  TraceBuilder b;
  b.device(0, 80);
  b.range(0, 100, "## encoder ##", "user_annotation");
  b.kernel(200, 10, "k_enc", b.call(5, 2));
  const int64_t op = b.range(150, 20, "aten::mm");
  b.tables().ranges.args[static_cast<size_t>(op)] =
      R"({"Module Hierarchy": "model.layers.0", "Input Dims": [[2, 3], [3, 4]]})";
  b.kernel(220, 30, "k_mm", b.call(155, 2));
  auto f = prepare(b);
  const OpBreakdownReport r = breakdown(*f, OpGrouping::kModule);
  EXPECT_EQ(row(r, "encoder").gpu_total_ns, us(10));
  EXPECT_EQ(row(r, "encoder").cpu_total_ns, us(100));
  const OpRow& layer = row(r, "model.layers.0");
  EXPECT_EQ(layer.gpu_total_ns, us(30));
  EXPECT_EQ(layer.gpu_self_ns, us(30));
  EXPECT_FALSE(layer.cpu_total_ns.has_value());  // no range to time
  EXPECT_EQ(row(r, "model.layers").gpu_total_ns, us(30));
  EXPECT_EQ(row(r, "model.layers").gpu_self_ns, 0);
  EXPECT_EQ(row(r, "model").gpu_total_ns, us(30));
  EXPECT_EQ(r.rows.size(), 4u);

  // By shape, the op's row carries its "Input Dims".
  const OpBreakdownReport shapes = breakdown(*f, OpGrouping::kOp, {}, {}, true);
  ASSERT_EQ(shapes.rows.size(), 1u);
  EXPECT_EQ(shapes.rows[0].shapes, "[[2, 3], [3, 4]]");
}

TEST(OpBreakdown, RangesAreEveryHostRangeButOpsAndMarks) {
  TraceBuilder b = nestedOps();
  b.range(0, 300, "train", "nvtx");
  b.range(0, 0, "mark", "nvtx_mark");
  auto f = prepare(b);
  const OpBreakdownReport r = breakdown(*f, OpGrouping::kRange);
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0].name, "train");
  EXPECT_EQ(r.rows[0].gpu_total_ns, us(50));
  EXPECT_EQ(r.rows[0].cpu_self_ns, us(300));  // ops are not ranges: nothing to subtract
}

int64_t gpuAnnotation(TraceBuilder& b, double start_us, double dur_us, const std::string& name,
                      int64_t stream) {
  RangeTable::Row a;
  a.ts = us(start_us);
  a.dur = us(dur_us);
  a.device = 0;
  a.stream = stream;
  a.category = b.tables().strings.intern("gpu_user_annotation");
  a.name = b.tables().strings.intern(name);
  return b.tables().ranges.append(a);
}

TEST(OpBreakdown, GpuAnnotationsSumTheirOwnDurationsAndNestPerStream) {
  TraceBuilder b;
  b.device(0, 80);
  gpuAnnotation(b, 100, 100, "outer", 7);
  gpuAnnotation(b, 120, 30, "inner", 7);
  gpuAnnotation(b, 130, 50, "inner", 8);  // another stream: not inside "outer"
  b.kernel(125, 10, "k7", b.call(1, 2));
  b.kernel(135, 10, "k8", b.call(3, 2), 8);
  b.kernel(190, 5, "k7_late", b.call(5, 2));
  auto f = prepare(b);
  const OpBreakdownReport r = breakdown(*f, OpGrouping::kAnnotation);
  const OpRow& outer = row(r, "outer");
  const OpRow& inner = row(r, "inner");
  EXPECT_EQ(outer.calls, 1);
  EXPECT_EQ(outer.gpu_total_ns, us(100));
  EXPECT_EQ(outer.gpu_self_ns, us(70));
  EXPECT_EQ(outer.gpu_ops, 2);  // k7 and k7_late
  EXPECT_EQ(inner.calls, 2);
  EXPECT_EQ(inner.gpu_total_ns, us(80));  // every instance, as HTA sums them
  EXPECT_EQ(inner.gpu_self_ns, us(80));
  EXPECT_EQ(inner.gpu_ops, 2);  // k7 on stream 7, k8 on stream 8
  EXPECT_FALSE(outer.cpu_total_ns.has_value());
  EXPECT_EQ(r.outside_ops, 0);
}

TEST(OpBreakdown, HtaWindowLeavesOutTheLastStepsRanges) {
  TraceBuilder b;
  b.device(0, 80);
  b.step(0, 100, 1);
  b.step(100, 100, 2);
  b.range(10, 20, "aten::mm");
  b.kernel(40, 10, "k1", b.call(15, 2));
  b.range(110, 20, "aten::mm");
  b.kernel(140, 10, "k2", b.call(115, 2));
  auto f = prepare(b, WindowMode::kHta);
  ASSERT_TRUE(f->window.cut);
  const OpRow& mm = row(breakdown(*f, OpGrouping::kOp), "aten::mm");
  EXPECT_EQ(mm.calls, 1);
  EXPECT_EQ(mm.gpu_total_ns, us(10));
  EXPECT_EQ(mm.cpu_total_ns, us(20));
}

TEST(OpBreakdown, FlopsAndRooflinePlaceOfARow) {
  TraceBuilder b;
  b.device(0, 80);
  b.range(0, 100, "aten::mm");
  b.kernel(200, 10, "gemm", b.call(5, 2));
  b.kernel(220, 30, "bias_add", b.call(6, 2));
  auto f = prepare(b);
  KernelWorkReport work;
  // 1e9 FLOPs and 1e8 bytes in 10 µs: 1e14 FLOP/s at intensity 10.
  work.kernels.push_back({0, 1e9, 1e8, MetricSource::kEstimated, kNullInt});
  const OpRoofs roofs{400e12, 20e12};  // ridge at 20 FLOP/byte
  const OpRow& mm = row(breakdown(*f, OpGrouping::kOp, work, roofs), "aten::mm");
  EXPECT_EQ(mm.flop_time_ns, us(10));
  ASSERT_TRUE(mm.achieved_flops_per_s.has_value());
  EXPECT_DOUBLE_EQ(*mm.achieved_flops_per_s, 1e14);
  EXPECT_DOUBLE_EQ(*mm.intensity, 10.0);
  EXPECT_DOUBLE_EQ(*mm.ceiling_flops_per_s, 200e12);  // bandwidth x intensity
  EXPECT_TRUE(*mm.memory_bound);
  EXPECT_DOUBLE_EQ(*mm.pct_of_ceiling, 50.0);
  EXPECT_EQ(mm.gpu_total_ns, us(40));  // the bias kernel's time counts, not in FLOP/s
}

}  // namespace
}  // namespace damscope
