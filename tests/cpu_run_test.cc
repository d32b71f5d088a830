// A run without a GPU: the workload's ops become the work of a cpu device
// (cpu_device_work.h), and steps, gaps with their causes, the scorecard, MFU
// and the verdict follow as they do on a GPU; what only GPUs have is not
// applicable.
#include "analyzer/analyses/cpu_device_work.h"

#include <gtest/gtest.h>

#include "analyzer/analyses/rank_analysis.h"
#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::TraceBuilder;
using testing::us;

constexpr const char* kModel =
    R"({"model":"gpt2","params":10000,"layers":2,"d_model":128,"heads":4,"seq_len":64,)"
    R"("vocab":256,"tokens_per_step":512,"batch":8,"precision":"fp32",)"
    R"("device":{"kind":"cpu","name":"Test CPU","peak_tflops":0.1,"bandwidth_gbs":10}})";

std::string op(const std::string& name, const std::string& what, double flops, double bytes) {
  return R"({"op":")" + name + R"(","name":")" + what + R"(","flops":)" +
         std::to_string(static_cast<int64_t>(flops)) + R"(,"bytes":)" +
         std::to_string(static_cast<int64_t>(bytes)) + "}";
}

// The trainer's annotations over `steps` steps of 1000 µs: a data range of
// `data_us`, then a GEMM (the rest), an attention op (80 µs) and AdamW
// (100 µs), with 10 µs of loop overhead after each.
TraceTables trainerRun(int steps, double data_us) {
  TraceBuilder b;
  b.range(0, 0, kModel, "nvtx_mark", 0, "damscope");
  for (int s = 0; s < steps; ++s) {
    const double t0 = 10 + 1000.0 * s;
    b.range(t0, 1000, "step", "nvtx", 0, "damscope");
    b.range(t0, data_us, "data", "nvtx", 0, "damscope");
    double t = t0 + data_us;
    const double gemm_us = 1000 - data_us - 3 * 10 - 80 - 100;
    b.range(t, gemm_us + 100, "forward", "nvtx", 0, "damscope");
    b.range(t, gemm_us, op("matmul_fwd", "qkv", 4e7, 1e5), "nvtx", 0, "damscope");
    t += gemm_us + 10;
    b.range(t, 80, op("attention_fwd", "", 2e5, 4e5), "nvtx", 0, "damscope");
    t += 90;
    b.range(t, 100, op("adamw", "", 1e5, 1e6), "nvtx", 0, "damscope");
  }
  return b.build();
}

TEST(CpuDeviceWork, TrainerOpsBecomeKernelsOfACpuDevice) {
  TraceTables t = trainerRun(2, 100);
  const CpuDeviceWork work = deriveCpuDeviceWork(t);
  EXPECT_EQ(work.source, CpuWorkSource::kTrainerOps);
  EXPECT_EQ(work.ops, 6);
  ASSERT_EQ(t.devices.size(), 1u);
  EXPECT_EQ(t.devices.kind[0], DeviceKind::kCpu);
  EXPECT_EQ(t.strings.get(t.devices.name[0]), "Test CPU");
  EXPECT_DOUBLE_EQ(t.devices.memory_bandwidth_bytes_per_s[0], 10e9);
  ASSERT_EQ(t.kernels.size(), 6u);
  EXPECT_EQ(t.strings.get(t.kernels.name[0]), "matmul_fwd(qkv)");
  EXPECT_EQ(t.strings.get(t.kernels.name[1]), "attention_fwd");
  EXPECT_EQ(t.kernels.ts[0], us(110));
  EXPECT_EQ(t.kernels.dur[0], us(690));
  EXPECT_TRUE(isNull(t.kernels.correlation_id[0]));
  const int64_t range = cpuOpRange(t.kernels.args[0]);
  ASSERT_FALSE(isNull(range));
  EXPECT_EQ(t.ranges.ts[static_cast<size_t>(range)], t.kernels.ts[0]);

  // Derived again (a stored trace read back): nothing changes.
  const size_t strings = t.strings.size();
  EXPECT_EQ(deriveCpuDeviceWork(t).source, CpuWorkSource::kNone);
  EXPECT_EQ(t.kernels.size(), 6u);
  EXPECT_EQ(t.strings.size(), strings);
}

TEST(CpuDeviceWork, AGpuRunIsLeftAlone) {
  TraceTables t = testing::goldenStepTrace();
  const size_t kernels = t.kernels.size(), devices = t.devices.size();
  EXPECT_EQ(deriveCpuDeviceWork(t).source, CpuWorkSource::kNone);
  EXPECT_EQ(t.kernels.size(), kernels);
  EXPECT_EQ(t.devices.size(), devices);
}

TEST(CpuDeviceWork, FrameworkOpsCountOnceAndNotInsideDataLoading) {
  TraceBuilder b;
  b.step(0, 1000, 3);
  b.range(0, 300, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
          "user_annotation");
  b.range(100, 150, "aten::stack");  // collation: the input pipeline's
  b.range(320, 400, "aten::linear");
  b.range(330, 380, "aten::addmm");  // inside linear: one piece of work
  b.range(750, 200, "autograd::engine::evaluate_function: AddmmBackward0");
  TraceTables t = b.build();
  const CpuDeviceWork work = deriveCpuDeviceWork(t);
  EXPECT_EQ(work.source, CpuWorkSource::kFrameworkOps);
  ASSERT_EQ(t.kernels.size(), 2u);
  EXPECT_EQ(t.strings.get(t.kernels.name[0]), "aten::linear");
  EXPECT_EQ(t.strings.get(t.kernels.name[1]),
            "autograd::engine::evaluate_function: AddmmBackward0");
  EXPECT_EQ(t.strings.get(t.devices.name[0]), "CPU");
}

TEST(CpuDeviceWork, ParentsStoredAfterTheirChildrenStillNest) {
  // The collector stores a range when it closes: the op's parent op (here a
  // nested op annotation) has a larger id than the op inside it.
  TraceBuilder b;
  b.range(0, 100, "step", "nvtx", 0, "damscope");
  b.range(10, 50, op("matmul_fwd", "fc", 1e6, 1e4), "nvtx", 0, "damscope");
  TraceTables t = b.build();
  // Child first, parent second, as a closing-order writer leaves them.
  RangeTable::Row inner = t.ranges.row(1), outer = t.ranges.row(0);
  RangeTable ranges;
  ranges.append(inner), ranges.append(outer);
  ranges.parent_id[0] = 1, ranges.parent_id[1] = kNullInt;
  // An op nested in another op, stored before it.
  RangeTable::Row nested = inner;
  nested.ts += us(5), nested.dur = us(10), nested.parent_id = 0;
  ranges.append(nested);
  t.ranges = std::move(ranges);
  deriveCpuDeviceWork(t);
  ASSERT_EQ(t.kernels.size(), 1u);
  EXPECT_EQ(t.kernels.ts[0], us(10));
}

RankAnalysis analysed(TraceTables& t) {
  deriveCpuDeviceWork(t);
  auto a = analyzeRank(t, {}, Progress());
  EXPECT_TRUE(a.ok());
  return std::move(a.value());
}

TEST(CpuRun, WaitingForDataIsADataStallOfTheCpuDevice) {
  TraceTables t = trainerRun(4, 500);
  const RankAnalysis a = analysed(t);
  EXPECT_TRUE(a.input->cpuRun());
  EXPECT_EQ(a.steps.source, StepSource::kTrainer);
  EXPECT_EQ(a.steps.steps.size(), 4u);
  ASSERT_TRUE(a.scorecard.valid);
  EXPECT_NEAR(a.scorecard.run.pct(Axis::kDataStall), 50.0, 1.0);
  // The loop's own time between ops is host overhead, not unexplained.
  EXPECT_NEAR(a.scorecard.run.pct(Axis::kHostStall), 3.0, 0.5);
  EXPECT_EQ(a.scorecard.run.ns[size_t(Axis::kOtherIdle)], 0);
  EXPECT_EQ(a.scorecard.run.verdict, Verdict::kDataBound);
  for (const AnalysisNote& n : a.notes) {
    EXPECT_EQ(n.message.find("correlation"), std::string::npos) << n.message;
  }
}

TEST(CpuRun, AFedCpuIsJudgedByItsOpsAndTheAnnotatedPeak) {
  TraceTables t = trainerRun(4, 20);
  const RankAnalysis a = analysed(t);
  ASSERT_TRUE(a.scorecard.valid);
  EXPECT_LT(a.scorecard.run.stallPct(), 20.0);
  // The GEMM (4e7 FLOP / 1e5 B) is far above the ridge (0.1 TFLOP/s over
  // 10 GB/s = 10 FLOP/B): compute-bound; AdamW (0.1 FLOP/B) memory-bound.
  EXPECT_EQ(a.scorecard.run.verdict, Verdict::kComputeBound);
  EXPECT_EQ(a.peaks.source, PeakSource::kAnnotation);
  ASSERT_EQ(a.work.kernels.size(), 12u);
  EXPECT_EQ(a.work.kernels[0].source, MetricSource::kAnnotated);
  EXPECT_DOUBLE_EQ(a.work.kernels[0].flops, 4e7);
  EXPECT_EQ(a.work.ranges_without_kernels, 0);
  // MFU from the annotation: 512 tokens x (6 x 1e4 + 6 x 2 x 128 x 64) FLOPs
  // per 1 ms step at 0.1 TFLOP/s: 81 %.
  // Nothing that only a GPU has is missing.
  for (const AnalysisNote& n : a.notes) ADD_FAILURE() << n.message;
  ASSERT_TRUE(a.mfu.mfu_pct.has_value());
  const double flops = 512.0 * (6e4 + 6.0 * 2 * 128 * 64);
  EXPECT_NEAR(*a.mfu.mfu_pct, 100.0 * flops / (0.1e12 * 1e-3), 0.5);
}

}  // namespace
}  // namespace damscope
