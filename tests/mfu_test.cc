// MFU, HFU, roofline and the memory estimate through the rank analysis: the
// issue's worked examples, MFU from each source of model FLOPs, an impossible
// MFU never shown as a figure, roofline points from each source of kernel
// work and the scorecard following them, and the device peaks' origins.
#include <gtest/gtest.h>

#include "analyzer/analyses/rank_analysis.h"
#include "analyzer/report/result_text.h"
#include "analyzer/result/analysis_result.h"
#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::TraceBuilder;
using testing::us;

// One step of `step_us` with one bf16 GEMM, on a device named `gpu`.
TraceBuilder oneStep(double step_us, const std::string& gpu) {
  TraceBuilder b;
  b.device(0, 108, int64_t{80} << 30);
  b.tables().devices.name[0] = b.tables().strings.intern(gpu);
  b.step(0, step_us, 1);
  b.kernel(10, step_us / 2, "ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_nn", b.call(1, 2));
  return b;
}

AnalysisOptions withModel(double params, double tokens_per_step) {
  AnalysisOptions o;
  ModelShape m;
  m.name = "test";
  m.params = params;
  o.mfu.model = m;
  o.steps.tokens_per_step = tokens_per_step;
  return o;
}

RankResult analyse(const TraceTables& t, const AnalysisOptions& o) {
  return buildRankResult(analyzeRank(t, o).value(), "test", o);
}

// DESIGN's worked example: 7e9 parameters, 1,024 tokens per 1.2 s step on an
// A100 (312 TFLOP/s bf16): 6 x 7e9 x 1024 / 1.2 / 312e12 = 11.5 %.
TEST(Mfu, SevenBillionParametersOnAnA100) {
  const TraceTables t = oneStep(1.2e6, "NVIDIA A100-SXM4-80GB").build();
  const RankResult r = analyse(t, withModel(7e9, 1024));
  const MfuReport& m = r.mfu;
  EXPECT_EQ(m.flops_source, FlopsSource::kUserModel);
  EXPECT_EQ(m.precision.precision, Precision::kBf16);
  EXPECT_EQ(m.precision.source, PrecisionSource::kKernelNames);
  EXPECT_EQ(m.peak_source, PeakSource::kTraceDevice);
  EXPECT_DOUBLE_EQ(*m.peak_flops_per_s, 312e12);
  ASSERT_TRUE(m.mfu_pct.has_value());
  EXPECT_NEAR(*m.mfu_pct, 11.49, 0.01);
  EXPECT_NEAR(*r.mfu.steps[0].mfu_pct, 11.49, 0.01);
  EXPECT_NE(formatRankSummary(r).find("MFU      11.5 % of the bf16 peak of A100 SXM4 80GB"),
            std::string::npos)
      << formatRankSummary(r);
}

// 13e9 parameters at 25,000 tokens/s on one H100 SXM (989.5 TFLOP/s bf16):
// 197 % of the peak. Impossible: never a figure, and the report says why.
TEST(Mfu, AboveThePeakIsImpossibleNotAFigure) {
  TraceBuilder b = oneStep(1e6, "NVIDIA H100 80GB HBM3");
  const TraceTables t = b.build();
  const RankResult r = analyse(t, withModel(13e9, 25000));
  EXPECT_FALSE(r.mfu.mfu_pct.has_value());
  EXPECT_FALSE(r.mfu.steps[0].mfu_pct.has_value());
  ASSERT_TRUE(r.mfu.impossible_pct.has_value());
  EXPECT_NEAR(*r.mfu.impossible_pct, 197.1, 0.1);
  EXPECT_FALSE(r.mfu.likely_wrong.empty());
  const std::string text = formatRankSummary(r);
  EXPECT_NE(text.find("MFU      impossible: the inputs imply 197 %"), std::string::npos) << text;
  bool warned = false;
  for (const Finding& f : r.findings.findings) warned |= f.rule == "impossible_mfu";
  EXPECT_TRUE(warned);
}

TEST(Mfu, TokensOfTheWholeJobAreTheLikelyCulprit) {
  TraceBuilder b = oneStep(1e6, "NVIDIA H100 80GB HBM3");
  b.tables().processes.world_size[0] = 8;
  const RankResult r = analyse(b.build(), withModel(13e9, 25000));
  EXPECT_NE(r.mfu.likely_wrong.find("all 8 ranks"), std::string::npos) << r.mfu.likely_wrong;
}

TEST(Mfu, FromTheModelAnnotation) {
  TraceBuilder b = oneStep(1.2e6, "NVIDIA A100-SXM4-80GB");
  b.range(0, 0,
          R"({"model":"gpt2","params":7e9,"layers":4,"d_model":256,"seq_len":128,)"
          R"("tokens_per_step":1024,"precision":"bf16"})",
          "nvtx_mark", 0, "damscope");
  const RankResult r = analyse(b.build(), {});
  EXPECT_EQ(r.mfu.flops_source, FlopsSource::kAnnotation);
  EXPECT_EQ(r.mfu.precision.source, PrecisionSource::kAnnotation);
  // 6N + 6 L d T per token.
  EXPECT_DOUBLE_EQ(*r.mfu.flops_per_token, 6 * 7e9 + 6.0 * 4 * 256 * 128);
  EXPECT_NEAR(*r.mfu.mfu_pct, 100 * (6 * 7e9 + 6.0 * 4 * 256 * 128) * 1024 / 1.2 / 312e12, 1e-9);
}

TEST(Mfu, FromTheProfilersPerOpFlops) {
  TraceBuilder b = oneStep(1e6, "NVIDIA A100-SXM4-80GB");
  b.range(5, 100, "aten::mm");
  b.range(6, 50, "aten::mm_inner");  // nested: its FLOPs are in the outer op's
  TraceTables t = b.build();
  for (const char* name : {"aten::mm", "aten::mm_inner"}) {
    KernelMetricTable::Row m;
    for (size_t i = 0; i < t.ranges.size(); ++i) {
      if (t.strings.get(t.ranges.name[i]) == name) m.range_id = static_cast<int64_t>(i);
    }
    m.flops = 3.12e13;
    m.source = MetricSource::kEstimated;
    t.kernel_metrics.append(m);
  }
  const RankResult r = analyse(t, {});
  EXPECT_EQ(r.mfu.flops_source, FlopsSource::kProfilerOps);
  EXPECT_DOUBLE_EQ(*r.mfu.model_flops_per_step, 3.12e13);
  EXPECT_NEAR(*r.mfu.mfu_pct, 10.0, 1e-9);  // 31.2 TFLOP in 1 s of 312 TFLOP/s
}

TEST(Mfu, HfuFromMeasuredCounters) {
  TraceTables t = oneStep(1e6, "NVIDIA A100-SXM4-80GB").build();
  KernelMetricTable::Row m;
  m.kernel_id = 0, m.flops = 6.24e13, m.dram_bytes = 1e12, m.source = MetricSource::kMeasured;
  t.kernel_metrics.append(m);
  const RankResult r = analyse(t, withModel(7e9, 1024));
  EXPECT_NEAR(*r.mfu.hfu_pct, 20.0, 1e-9);
  EXPECT_EQ(r.roofline.kernels_by_source[static_cast<size_t>(MetricSource::kMeasured)], 1);
}

TEST(Mfu, WithoutModelOrDeviceTheNotesSayWhatToGive) {
  const TraceTables t = oneStep(1e6, "Some Future GPU").build();
  const RankResult r = analyse(t, {});
  EXPECT_FALSE(r.mfu.mfu_pct.has_value());
  bool device = false, model = false;
  for (const AnalysisNote& n : r.notes) {
    device |= n.remedy == Remedy::kDevice;
    model |= n.remedy == Remedy::kModel;
  }
  EXPECT_TRUE(device && model);
  SummaryTextOptions text;
  text.remedies[static_cast<size_t>(Remedy::kDevice)] = "the device setting";
  EXPECT_NE(formatRankSummary(r, text).find("(give it with the device setting)"),
            std::string::npos);
  // The user's peak fills the gap.
  AnalysisOptions o = withModel(7e9, 1024);
  o.device.peak_flops_per_s = 100e12;
  const RankResult given = analyse(t, o);
  EXPECT_EQ(given.mfu.peak_source, PeakSource::kUser);
  EXPECT_NEAR(*given.mfu.mfu_pct, 100 * 6 * 7e9 * 1024 / 100e12, 1e-9);  // one 1 s step
}

// Roofline points from each source, and the scorecard following them: a
// GEMM of low arithmetic intensity is memory-bound whatever its name says.
TEST(Roofline, PointsFromEachSourceAndTheScorecardFollowsThem) {
  TraceBuilder b;
  b.device(0, 108, int64_t{40} << 30);
  b.tables().devices.name[0] = b.tables().strings.intern("NVIDIA A100-SXM4-40GB");
  b.step(0, 1000, 1);
  // A skinny fp32 matrix-vector-like mm: AI = 2*4096*4096*1 / ((4096*4096+4096+4096)*4) ~ 0.5.
  const int64_t mm = b.range(0, 200, "aten::mm");
  b.tables().ranges.args[static_cast<size_t>(mm)] =
      R"({"Input Dims":[[4096,4096],[4096,1]],"Input type":["float","float"]})";
  b.kernel(10, 100, "volta_sgemm_128x64_nn", b.call(5, 2));
  // The workload's own count around an attention kernel: high intensity.
  b.range(300, 200, R"({"op":"attn","flops":1e12,"bytes":1e8})", "nvtx", 0, "damscope");
  b.kernel(320, 100, "fmha_cutlassF_bf16_aligned_64x64", b.call(310, 2));
  TraceTables t = b.build();

  const RankAnalysis a = analyzeRank(t, {}).value();
  const RankResult r = buildRankResult(a, "test", {});
  ASSERT_EQ(r.roofline.kernels.size(), 2u);
  for (const RooflinePoint& p : r.roofline.kernels) {
    ASSERT_TRUE(p.intensity.has_value()) << p.name;
    ASSERT_TRUE(p.memory_bound.has_value()) << p.name;
    if (p.name == "volta_sgemm_128x64_nn") {
      EXPECT_EQ(p.source, MetricSource::kEstimated);
      EXPECT_NEAR(*p.intensity, 2.0 * 4096 * 4096 / ((4096.0 * 4096 + 2 * 4096) * 4), 1e-9);
      EXPECT_TRUE(*p.memory_bound);
      EXPECT_EQ(p.precision, Precision::kFp32);
    } else {
      EXPECT_EQ(p.source, MetricSource::kAnnotated);
      EXPECT_DOUBLE_EQ(*p.intensity, 1e4);
      EXPECT_FALSE(*p.memory_bound);
      EXPECT_EQ(p.precision, Precision::kBf16);
    }
  }
  ASSERT_FALSE(r.roofline.ceilings.empty());
  // The GEMM's 100 µs count as memory-bound: the name alone says compute-bound.
  EXPECT_EQ(a.scorecard.run.ns[static_cast<size_t>(Axis::kMemoryBound)], us(100));
  EXPECT_EQ(a.scorecard.run.ns[static_cast<size_t>(Axis::kComputeBound)], us(100));
}

TEST(MemoryEstimate, StateActivationsAndZeroFromTheModel) {
  TraceBuilder b = oneStep(1e6, "NVIDIA A100-SXM4-40GB");
  b.tables().processes.world_size[0] = 8;
  b.range(0, 0,
          R"({"model":"llama2-7b","params":6738415616,"layers":32,"d_model":4096,"heads":32,)"
          R"("seq_len":4096,"tokens_per_step":4096,"batch":1,"precision":"bf16"})",
          "nvtx_mark", 0, "damscope");
  const RankResult r = analyse(b.build(), {});
  ASSERT_TRUE(r.memory.has_value());
  const MemoryEstimate& m = *r.memory;
  EXPECT_DOUBLE_EQ(m.state_bytes, 16 * 6738415616.0);
  // s b h (34 + 5 a s / h) per layer, 16-bit (Korthikanti et al., eq. 1).
  EXPECT_DOUBLE_EQ(*m.activation_bytes, 32 * 4096.0 * 1 * 4096 * (34 + 5.0 * 32 * 4096 / 4096));
  EXPECT_EQ(m.ranks, 8);
  EXPECT_DOUBLE_EQ(m.zero_state_bytes[2], 2 * 6738415616.0);  // 16 / 8 bytes per parameter
  EXPECT_GT(*m.pct_of_device, 100);
  bool finding = false;
  for (const Finding& f : r.findings.findings) finding |= f.rule == "memory_estimate";
  EXPECT_TRUE(finding);
}

}  // namespace
}  // namespace damscope
