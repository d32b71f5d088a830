// The kernel lints (kernel_lints.h) and their findings: each lint fires on a
// hand-built trace that has its pattern and stays silent on one just past
// its edge; hostile figures (no SMs, absurd occupancy, empty grids) neither
// fire nor crash; on the shared real traces the lints say what those traces
// are known to hold.
#include "analyzer/analyses/kernel_lints.h"

#include <gtest/gtest.h>

#include <limits>
#include <map>
#include <memory>

#include "analyzer/analyses/rank_analysis.h"
#include "analyzer/importers/trace_import.h"
#include "analyzer/report/result_text.h"
#include "analyzer/result/analysis_result.h"
#include "tests/test_support.h"
#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::TraceBuilder;
using testing::us;

constexpr const char* kGemm = "ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nn";
constexpr const char* kSimtGemm = "volta_sgemm_128x64_nn";
constexpr const char* kAdd =
    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>()";
constexpr const char* kMul =
    "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float, "
    "float, float, at::native::MulFunctor<float>>>()";
constexpr const char* kSoftmax =
    "void (anonymous namespace)::softmax_warp_forward<c10::Half, c10::Half, float, 10>()";

RankAnalysis analyze(const TraceTables& tables) {
  return analyzeRank(tables, {}).value();
}

const Finding* byRule(const FindingsReport& r, const std::string& rule) {
  for (const Finding& f : r.findings) {
    if (f.rule == rule) return &f;
  }
  return nullptr;
}

// One step of 1 ms on a device of `sms` SMs, with kernels the test adds.
TraceBuilder oneStep(int32_t sms) {
  TraceBuilder b;
  b.device(0, sms);
  b.step(0, 1000, 1);
  return b;
}

// --- wave quantization -------------------------------------------------------

TEST(KernelLints, WaveTailFiresOn33BlocksOn32SmsAndSaysItAssumedOneBlockPerSm) {
  TraceBuilder b = oneStep(32);
  b.kernel(100, 400, kGemm, b.call(10, 5), 7, 0, /*grid=*/33);
  const TraceTables t = b.build();
  const RankAnalysis a = analyze(t);
  const KernelLint& w = a.lints.wave_tail;
  ASSERT_TRUE(w.known);
  EXPECT_EQ(w.time_ns, us(400));
  // 33 blocks on 32 slots: 2 waves at 33/64 = 51.6 % utilization.
  EXPECT_NEAR(w.gain_ns, static_cast<double>(us(400)) * (1 - 33.0 / 64), 1);
  ASSERT_EQ(w.evidence.size(), 1u);
  EXPECT_EQ(w.evidence[0].detail, "1.03 waves: 33 blocks on 32 SMs x 1 block per SM (assumed)");
  bool noted = false;
  for (const AnalysisNote& n : a.notes) noted = noted || n.analysis == "lints";
  EXPECT_TRUE(noted) << "the assumption of one block per SM is said";

  const Finding* f = byRule(a.findings, "wave_quantization");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kHigh);  // 40 % of the step >= 15 %
  EXPECT_NEAR(f->max_gain_pct.value(), 40 * (1 - 33.0 / 64), 1e-6);
  ASSERT_EQ(f->evidence.size(), 1u);
  EXPECT_EQ(f->evidence[0].label, kGemm);
  EXPECT_EQ(f->evidence[0].detail, w.evidence[0].detail);
}

TEST(KernelLints, WaveTailReadsResidentBlocksFromOccupancy) {
  // 2048 threads per SM, 256 per block: 50 % occupancy is 4 resident blocks.
  TraceBuilder b = oneStep(32);
  b.kernel(100, 100, kGemm, b.call(10, 5), 7, 0, /*grid=*/132, /*occupancy_pct=*/50);
  // 100 blocks on 32 SMs: Kineto's occupancy is the grid's 3.125 blocks per SM
  // (39 %): the grid fits in one wave, though 100 > 32.
  b.kernel(300, 100, kGemm, b.call(20, 5), 7, 0, /*grid=*/100, /*occupancy_pct=*/39);
  TraceTables t = b.build();
  t.devices.max_threads_per_sm[0] = 2048;
  const RankAnalysis a = analyze(t);
  const KernelLint& w = a.lints.wave_tail;
  EXPECT_EQ(w.time_ns, us(100));
  ASSERT_EQ(w.evidence.size(), 1u);
  EXPECT_EQ(w.evidence[0].detail, "1.03 waves: 132 blocks on 32 SMs x 4 blocks per SM");
  for (const AnalysisNote& n : a.notes) EXPECT_NE(n.analysis, "lints") << n.message;
}

TEST(KernelLints, WaveTailIsSilentOnWholeHalfFullAndManyWaves) {
  TraceBuilder b = oneStep(32);
  b.kernel(100, 100, kGemm, b.call(10, 5), 7, 0, /*grid=*/64);   // 2 whole waves
  b.kernel(300, 100, kGemm, b.call(20, 5), 7, 0, /*grid=*/48);   // last wave half full
  b.kernel(500, 100, kGemm, b.call(30, 5), 7, 0, /*grid=*/200);  // 6.25 waves
  b.kernel(700, 100, kGemm, b.call(40, 5), 7, 0, /*grid=*/20);   // under one wave
  const RankAnalysis a = analyze(b.build());
  EXPECT_TRUE(a.lints.wave_tail.known);
  EXPECT_EQ(a.lints.wave_tail.time_ns, 0);
  EXPECT_DOUBLE_EQ(a.findings.metrics.get(Metric::kWaveTailPct).value(), 0);
  EXPECT_EQ(byRule(a.findings, "wave_quantization"), nullptr);
}

TEST(KernelLints, WaveTailIgnoresHostileLaunchFigures) {
  TraceBuilder b = oneStep(32);
  b.kernel(100, 100, kGemm, b.call(10, 5), 7, 0, /*grid=*/33, /*occupancy_pct=*/1e300);
  b.kernel(300, 100, kGemm, b.call(20, 5), 7, 0, /*grid=*/33, /*occupancy_pct=*/-5);
  b.kernel(500, 100, kGemm, b.call(30, 5), 7, 0, /*grid=*/0);
  b.kernel(700, 100, kGemm, b.call(40, 5), 7, 0, /*grid=*/kNullInt32);
  TraceTables t = b.build();
  t.devices.max_threads_per_sm[0] = 2048;
  t.kernels.block_x[0] = std::numeric_limits<int32_t>::max();
  const RankAnalysis a = analyze(t);
  // Absurd occupancy: the grid fits in one wave; a negative one is ignored
  // (one block per SM assumed); no grid: not read.
  EXPECT_LE(a.lints.wave_tail.time_ns, us(100));
  for (const LintEvidence& e : a.lints.wave_tail.evidence) {
    EXPECT_NE(e.detail.find("(assumed)"), std::string::npos) << e.detail;
  }

  TraceBuilder none = oneStep(0);  // no SM count: nothing to divide by
  none.kernel(100, 100, kGemm, none.call(10, 5), 7, 0, /*grid=*/33);
  const RankAnalysis b2 = analyze(none.build());
  EXPECT_FALSE(b2.lints.wave_tail.known);
  EXPECT_FALSE(b2.findings.metrics.get(Metric::kWaveTailPct).has_value());
}

// --- tensor-core alignment ---------------------------------------------------

// An FP16 addmm (bias [N], input [M, K], weight [K, N]) launching a GEMM.
TraceTables addmmTrace(int n, const std::string& kernel = kGemm) {
  TraceBuilder b = oneStep(108);
  const int64_t op = b.range(10, 20, "aten::addmm");
  b.launchKernel(15, 100, 400, kernel);
  TraceTables t = b.build();
  const std::string dims = std::to_string(n);
  for (size_t r = 0; r < t.ranges.size(); ++r) {
    if (t.strings.get(t.ranges.name[r]) != "aten::addmm") continue;
    t.ranges.args[r] = R"({"Input Dims": [[)" + dims + R"(], [8192, 768], [768, )" + dims +
                       R"(]], "Input type": ["c10::Half", "c10::Half", "c10::Half"]})";
  }
  (void)op;
  return t;
}

TEST(KernelLints, AlignmentFiresOnGpt2sVocabularyAndSaysThePadding) {
  const RankAnalysis a = analyze(addmmTrace(50257));
  const KernelLint& g = a.lints.misaligned_gemm;
  ASSERT_TRUE(g.known);
  EXPECT_EQ(a.lints.shaped_gemm_ns, us(400));
  EXPECT_EQ(g.time_ns, us(400));
  ASSERT_EQ(g.evidence.size(), 1u);
  EXPECT_EQ(g.evidence[0].detail,
            "aten::addmm [M=8192, N=50257, K=768], 2-byte elements: not multiples of 8; pad N "
            "50257 -> 50304");
  EXPECT_DOUBLE_EQ(a.findings.metrics.get(Metric::kMisalignedGemmPct).value(), 100);
  const Finding* f = byRule(a.findings, "tensor_core_alignment");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kHigh);
  EXPECT_NEAR(f->max_gain_pct.value(), 40 * 0.875, 1e-6);  // 7/8 of 400 us of 1 ms
  ASSERT_EQ(f->evidence.size(), 1u);
  EXPECT_EQ(f->evidence[0].source, EvidenceSource::kKernels);
}

TEST(KernelLints, AlignmentIsSilentOnPaddedShapesAndOnFp32SimtKernels) {
  const RankAnalysis padded = analyze(addmmTrace(50304));
  EXPECT_TRUE(padded.lints.misaligned_gemm.known);
  EXPECT_EQ(padded.lints.misaligned_gemm.time_ns, 0);
  EXPECT_DOUBLE_EQ(padded.findings.metrics.get(Metric::kMisalignedGemmPct).value(), 0);
  EXPECT_EQ(byRule(padded.findings, "tensor_core_alignment"), nullptr);
  // FP32 on CUDA cores: tensor cores are not its path (fp32_matrix_math's case).
  const RankAnalysis simt = analyze(addmmTrace(50257, kSimtGemm));
  EXPECT_FALSE(simt.lints.misaligned_gemm.known);
  EXPECT_FALSE(simt.findings.metrics.get(Metric::kMisalignedGemmPct).has_value());
}

TEST(KernelLints, AlignmentEvidenceOfAMillionCharacterOpNameStaysOneShortLine) {
  TraceTables t = addmmTrace(50257);
  const std::string huge = "aten::addmm" + std::string(1'000'000, 'x');
  for (size_t r = 0; r < t.ranges.size(); ++r) {
    if (t.strings.get(t.ranges.name[r]) == "aten::addmm") t.ranges.name[r] = t.strings.intern(huge);
  }
  // Not an ATen op name any more: no shape is read from it, nothing fires.
  EXPECT_FALSE(analyze(t).lints.misaligned_gemm.known);
  // A long kernel name in the evidence: the text summary clips it.
  TraceTables k = addmmTrace(50257, "ampere_fp16_s16816gemm_fp16_" + std::string(1'000'000, 'y'));
  const RankAnalysis a = analyze(k);
  ASSERT_EQ(a.lints.misaligned_gemm.evidence.size(), 1u);
  const std::string text = formatRankSummary(buildRankResult(a, "huge", {}));
  for (size_t at = 0, end; at < text.size(); at = end + 1) {
    end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    EXPECT_LT(end - at, 400u) << text.substr(at, 120);
  }
}

TEST(KernelLints, AlignmentWithoutShapesGivesNoFigure) {
  TraceBuilder b = oneStep(108);
  b.range(10, 20, "aten::addmm");
  b.launchKernel(15, 100, 400, kGemm);
  const RankAnalysis a = analyze(b.build());
  EXPECT_FALSE(a.lints.misaligned_gemm.known);
  EXPECT_EQ(byRule(a.findings, "tensor_core_alignment"), nullptr);
}

// --- materialised attention --------------------------------------------------

// bmm, scale, softmax, dropout, bmm on one stream; the GEMMs batched (cuBLAS's
// batch in grid z) unless told not to.
TraceTables attentionTrace(bool batched, const char* extra = nullptr) {
  TraceBuilder b = oneStep(108);
  b.kernel(100, 100, kGemm, b.call(10, 5));
  b.kernel(210, 20, kMul, b.call(20, 5));
  b.kernel(240, 150, kSoftmax, b.call(30, 5));
  b.kernel(400, 20, kMul, b.call(40, 5));
  b.kernel(430, 100, kGemm, b.call(50, 5));
  if (extra) b.kernel(700, 50, extra, b.call(60, 5));
  TraceTables t = b.build();
  for (size_t r = 0; r < t.kernels.size(); ++r) {
    if (batched && t.strings.get(t.kernels.name[r]) == kGemm) t.kernels.grid_z[r] = 48;
  }
  return t;
}

TEST(KernelLints, AttentionFiresOnSoftmaxBetweenBatchedGemms) {
  const RankAnalysis a = analyze(attentionTrace(true));
  const KernelLint& at = a.lints.attention;
  ASSERT_TRUE(at.known);
  EXPECT_EQ(at.time_ns, us(390));  // the five kernels, once each
  ASSERT_EQ(at.evidence.size(), 1u);
  EXPECT_EQ(at.evidence[0].detail,
            "softmax between batched GEMMs on stream 7, 5 kernels from first to last");
  const Finding* f = byRule(a.findings, "materialized_attention");
  ASSERT_NE(f, nullptr);
  EXPECT_NEAR(f->value, 39, 1e-9);
  EXPECT_NEAR(f->max_gain_pct.value(), 39 * (1 - 1 / 7.6), 1e-6);
  EXPECT_EQ(f->evidence[0].label, kSoftmax);
}

TEST(KernelLints, AttentionIsSilentWithFusedAttentionOrUnbatchedGemms) {
  const RankAnalysis fused = analyze(attentionTrace(true, "flash_fwd_kernel"));
  EXPECT_TRUE(fused.lints.attention.known);
  EXPECT_EQ(fused.lints.attention.time_ns, 0);
  EXPECT_EQ(byRule(fused.findings, "materialized_attention"), nullptr);
  // A softmax between plain GEMMs (an LM head and its loss) is not attention.
  const RankAnalysis plain = analyze(attentionTrace(false));
  EXPECT_EQ(plain.lints.attention.time_ns, 0);
  EXPECT_EQ(byRule(plain.findings, "materialized_attention"), nullptr);
}

// --- elementwise chains ------------------------------------------------------

TEST(KernelLints, ElementwiseChainFiresOnThreeShortKernelsInARow) {
  // Two runs of add, mul, add (10 + 15 + 15 us) with a GEMM between them.
  TraceBuilder b = oneStep(108);
  for (double at : {100.0, 400.0}) {
    b.kernel(at, 10, kAdd, b.call(at - 90, 5));
    b.kernel(at + 20, 15, kMul, b.call(at - 80, 5));
    b.kernel(at + 40, 15, kAdd, b.call(at - 70, 5));
    b.kernel(at + 60, 100, kGemm, b.call(at - 60, 5));
  }
  const RankAnalysis a = analyze(b.build());
  const KernelLint& c = a.lints.elementwise_chains;
  ASSERT_TRUE(c.known);
  EXPECT_EQ(c.time_ns, us(80));
  EXPECT_NEAR(c.gain_ns, static_cast<double>(us(80)) * 2 / 3, 1e-6);  // (n - 1)/n, n = 3
  ASSERT_EQ(c.evidence.size(), 1u) << "one item for the two runs of the same kernels";
  EXPECT_EQ(c.evidence[0].detail,
            "first of 3 consecutive elementwise kernels on stream 7; 2 runs like it");
  const Finding* f = byRule(a.findings, "elementwise_fusion");
  ASSERT_NE(f, nullptr);
  EXPECT_NEAR(f->value, 8, 1e-9);
  EXPECT_NEAR(f->max_gain_pct.value(), 8.0 * 2 / 3, 1e-9);
  EXPECT_EQ(f->evidence[0].label, kAdd);
}

TEST(KernelLints, ElementwiseChainIsSilentOnBrokenOrLongRuns) {
  TraceBuilder b = oneStep(108);
  b.kernel(100, 10, kAdd, b.call(10, 5));
  b.kernel(120, 10, kMul, b.call(20, 5));
  b.kernel(140, 10, kGemm, b.call(30, 5));  // breaks the run
  b.kernel(160, 10, kAdd, b.call(40, 5));
  b.kernel(180, 10, kMul, b.call(50, 5), /*stream=*/8);  // another stream
  b.kernel(200, 10, kAdd, b.call(60, 5));
  b.kernel(300, 100, kAdd, b.call(70, 5));  // long: bandwidth-bound, not launch-bound
  b.kernel(410, 100, kMul, b.call(80, 5));
  b.kernel(520, 100, kAdd, b.call(90, 5));
  const RankAnalysis a = analyze(b.build());
  EXPECT_EQ(a.lints.elementwise_chains.time_ns, 0);
  EXPECT_EQ(byRule(a.findings, "elementwise_fusion"), nullptr);
}

// --- the shared real traces --------------------------------------------------

struct SharedRun {
  TraceTables tables;
  RankAnalysis analysis;
};

// Imported and analysed once per test binary run.
const RankAnalysis& shared(const std::string& relative) {
  static std::map<std::string, std::unique_ptr<SharedRun>> cache;
  std::unique_ptr<SharedRun>& slot = cache[relative];
  if (!slot) {
    slot = std::make_unique<SharedRun>();
    Result<TraceTables> tables = importTrace(testing::sharedTrace(relative));
    EXPECT_TRUE(tables.ok()) << relative;
    if (tables.ok()) slot->tables = std::move(tables.value());
    slot->analysis = analyze(slot->tables);
  }
  return slot->analysis;
}

constexpr const char* kLintRules[] = {"wave_quantization", "tensor_core_alignment",
                                      "materialized_attention", "elementwise_fusion"};

TEST(KernelLintsSharedTraces, ResNet50ConvolutionsLeaveTheirLastWavePartlyEmpty) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  for (const char* trace :
       {"kineto/resnet50_workers0.pt.trace.json.gz", "kineto/resnet50_workers4.pt.trace.json.gz"}) {
    SCOPED_TRACE(trace);
    const RankAnalysis& a = shared(trace);
    const Finding* f = byRule(a.findings, "wave_quantization");
    ASSERT_NE(f, nullptr);
    EXPECT_GT(f->value, 5);
    EXPECT_LT(f->value, 30);
    EXPECT_LT(f->max_gain_pct.value(), f->value / 2) << "a tail under half full";
    ASSERT_FALSE(f->evidence.empty());
    EXPECT_NE(f->evidence[0].detail.find(" blocks on 80 SMs x "), std::string::npos)
        << f->evidence[0].detail;  // a V100
    // Its blocks per SM read from Kineto's occupancy (a few kernels report 0,
    // and the note says one block per SM was assumed for them).
    EXPECT_EQ(f->evidence[0].detail.find("(assumed)"), std::string::npos);
    // FP32 on CUDA cores (V100, no TF32): alignment is not the tensor cores' here.
    EXPECT_FALSE(a.findings.metrics.get(Metric::kMisalignedGemmPct).has_value());
    EXPECT_EQ(byRule(a.findings, "materialized_attention"), nullptr) << "a CNN";
    EXPECT_EQ(byRule(a.findings, "elementwise_fusion"), nullptr);
  }
}

TEST(KernelLintsSharedTraces, A100Tf32GemmsWithOddShapesAreMisaligned) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  const RankAnalysis& a = shared("kineto/diff_control_a100.json.gz");
  const Finding* f = byRule(a.findings, "tensor_core_alignment");
  ASSERT_NE(f, nullptr);
  // cutlass_80_tensorop_s1688gemm (TF32) on shapes such as [647 x 96] x [96 x 30].
  EXPECT_GT(f->value, 40);
  EXPECT_LT(f->value, 75);
  ASSERT_FALSE(f->evidence.empty());
  EXPECT_NE(f->evidence[0].label.find("tensorop_s1688gemm"), std::string::npos);
  EXPECT_NE(f->evidence[0].detail.find("4-byte elements: not multiples of 4; pad"),
            std::string::npos)
      << f->evidence[0].detail;
}

TEST(KernelLintsSharedTraces, NoLintFiresWhereTheTraceHasNoPattern) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  for (const char* trace :
       {"kineto/simple_add_a100.json.gz", "kineto/nccl_2rank_a100.json.gz",
        "kineto/cupti_flop_counters_a100.json.gz", "kineto/mi250_rocm_small.json.gz",
        "kineto/cpu_only.json.gz", "nsys/saxpy_mpi_a100_nsys2022.sqlite"}) {
    SCOPED_TRACE(trace);
    const RankAnalysis& a = shared(trace);
    for (const char* rule : kLintRules) EXPECT_EQ(byRule(a.findings, rule), nullptr) << rule;
  }
}

}  // namespace
}  // namespace damscope
