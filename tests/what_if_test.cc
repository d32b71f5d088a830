// What-if on a recorded run (analyzer/planner/what_if.h) on a hand-built
// result: each what-if's arithmetic against the figures it starts from, the
// combination in order, the runs it cannot estimate for (unknown device, CPU,
// a device without the precision) and the requests it refuses.
#include <gtest/gtest.h>

#include <limits>

#include "analyzer/planner/what_if.h"
#include "analyzer/report/report_html.h"
#include "analyzer/report/what_if_report.h"

namespace damscope {
namespace {

constexpr double kMs = 1e6;

void setAxis(Scorecard& card, Axis axis, double ms) {
  card.ns[static_cast<size_t>(axis)] = static_cast<int64_t>(ms * kMs);
}

// A 400 ms step on an A100 SXM4 40GB: 240 ms data stall, 40 ms exposed
// communication, 40 ms memory-bound and 80 ms compute-bound kernels, 60 ms of
// which FP32 GEMMs on CUDA cores; MFU 10 % of the FP32 peak; GPT-2 124M.
RankResult measuredRun() {
  RankResult r;
  r.source = "run.db";
  r.store = "run.db";
  r.window.avg_step_ns = 400 * kMs;
  r.window.step_count = 4;
  ScorecardResult card;
  setAxis(card.run, Axis::kDataStall, 4 * 240);
  setAxis(card.run, Axis::kExposedCommunication, 4 * 40);
  setAxis(card.run, Axis::kMemoryBound, 4 * 40);
  setAxis(card.run, Axis::kComputeBound, 4 * 80);
  r.scorecard = card;
  r.kernels.fp32_matrix_ns = static_cast<int64_t>(4 * 60 * kMs);
  r.mfu.peak_source = PeakSource::kTraceDevice;
  r.mfu.peak_device = "A100 SXM4 40GB (matched by name NVIDIA A100-SXM4-40GB)";
  r.mfu.peak_flops_per_s = 19.5e12;
  r.mfu.precision.precision = Precision::kFp32;
  r.mfu.mfu_pct = 10;
  r.mfu.model = ModelShape{.name = "gpt2-124m",
                           .params = 124e6,
                           .layers = 12,
                           .d_model = 768,
                           .heads = 12,
                           .seq_len = 1024,
                           .vocab = 50257};
  MemoryEstimate memory;
  memory.micro_batch = 8;
  memory.state_bytes = trainingState(124e6, Precision::kFp32, true).total();
  memory.activation_bytes =
      activationBytes({.seq_len = 1024, .micro_batch = 8, .width = 768, .heads = 12, .layers = 12},
                      Precision::kFp32, Checkpointing::kNone, true);
  memory.total_bytes = memory.state_bytes + *memory.activation_bytes;
  r.memory = memory;
  return r;
}

WhatIf parsed(std::string_view text) {
  Result<WhatIf> w = parseWhatIf(text);
  EXPECT_TRUE(w.ok()) << text;
  return w.ok() ? *w : WhatIf{};
}

WhatIfReport estimated(const RankResult& run, const std::vector<std::string_view>& texts) {
  std::vector<WhatIf> requests;
  requests.reserve(texts.size());
  for (std::string_view t : texts) requests.push_back(parsed(t));
  Result<WhatIfReport> report = estimateWhatIfs(run, requests);
  EXPECT_TRUE(report.ok()) << (report.ok() ? "" : report.error().message());
  return report.ok() ? *report : WhatIfReport{};
}

WhatIfEstimate only(const RankResult& run, std::string_view text) {
  const WhatIfReport report = estimated(run, {text});
  EXPECT_EQ(report.each.size(), 1U);
  return report.each.empty() ? WhatIfEstimate{} : report.each.front();
}

TEST(WhatIf, RemovingTheDataStallTakesItOffTheStep) {
  const WhatIfEstimate e = only(measuredRun(), "data=hidden");
  EXPECT_TRUE(e.estimated);
  EXPECT_NEAR(e.step_before_ns, 400 * kMs, 1);
  EXPECT_NEAR(e.step_after_ns, 160 * kMs, 1);
  EXPECT_NEAR(e.changePct(), -60, 1e-6);
  // MFU scales inversely with the step at fixed model FLOPs: 10 % x 400 / 160.
  ASSERT_TRUE(e.mfu_after_pct);
  EXPECT_NEAR(*e.mfu_after_pct, 25, 1e-6);
  EXPECT_EQ(e.memory_after_bytes, e.memory_before_bytes);
  EXPECT_NE(e.basis.find("240.0 ms"), std::string::npos) << e.basis;
}

TEST(WhatIf, OverlapHidesCommunicationBehindKernelTimeOnly) {
  EXPECT_NEAR(only(measuredRun(), "overlap=on").step_after_ns, 360 * kMs, 1);
  // 200 ms of exposed communication, 120 ms of kernels to hide it behind.
  RankResult r = measuredRun();
  setAxis(r.scorecard->run, Axis::kDataStall, 4 * 80);
  setAxis(r.scorecard->run, Axis::kExposedCommunication, 4 * 200);
  EXPECT_NEAR(only(r, "overlap=on").step_after_ns, 280 * kMs, 1);
}

TEST(WhatIf, Bf16MovesFp32GemmsToTensorCoresAtTheDevicesRatio) {
  const WhatIfEstimate e = only(measuredRun(), "precision=bf16");
  ASSERT_TRUE(e.estimated) << e.basis;
  // A100: 19.5 TFLOP/s FP32 on CUDA cores, 312 bf16 on tensor cores: the
  // 60 ms of FP32 GEMM take 60 x 19.5 / 312 = 3.75 ms.
  EXPECT_NEAR(e.step_after_ns, (400 - 60 + 3.75) * kMs, 1);
  // MFU is then measured against the bf16 peak: 10 % x 400 / 343.75 x 19.5 / 312.
  ASSERT_TRUE(e.mfu_after_pct);
  EXPECT_NEAR(*e.mfu_after_pct, 10 * 400 / 343.75 * 19.5 / 312, 1e-9);
  // Activations halve in 16 bits; the state stays 16 bytes a parameter.
  ASSERT_TRUE(e.memory_after_bytes && e.memory_before_bytes);
  EXPECT_LT(*e.memory_after_bytes, *e.memory_before_bytes);
  EXPECT_NE(e.basis.find("312"), std::string::npos) << e.basis;
}

TEST(WhatIf, Tf32UsesTheTf32Peak) {
  const WhatIfEstimate e = only(measuredRun(), "precision=tf32");
  EXPECT_NEAR(e.step_after_ns, (400 - 60 + 60 * 19.5 / 156) * kMs, 1);
}

TEST(WhatIf, PrecisionWithoutADeviceRowHasNoEstimateAndSaysWhy) {
  RankResult unknown = measuredRun();
  unknown.mfu.peak_source = PeakSource::kNone;
  unknown.mfu.peak_device.clear();
  const WhatIfEstimate e = only(unknown, "precision=bf16");
  EXPECT_FALSE(e.estimated);
  EXPECT_EQ(e.step_after_ns, e.step_before_ns);
  EXPECT_NE(e.basis.find("not in damscope's device table"), std::string::npos) << e.basis;

  RankResult cpu = measuredRun();
  cpu.device_kind = DeviceKind::kCpu;
  cpu.mfu.peak_source = PeakSource::kAnnotation;
  const WhatIfEstimate c = only(cpu, "precision=bf16");
  EXPECT_FALSE(c.estimated);
  EXPECT_NE(c.basis.find("CPU run"), std::string::npos) << c.basis;
  // The data stall of a CPU run is still the run's own to remove.
  EXPECT_TRUE(only(cpu, "data=hidden").estimated);

  // A V100 has no bf16 figure.
  RankResult v100 = measuredRun();
  v100.mfu.peak_device = "V100 SXM2 16GB (chosen by the user)";
  v100.mfu.peak_source = PeakSource::kUserDevice;
  const WhatIfEstimate v = only(v100, "precision=bf16");
  EXPECT_FALSE(v.estimated);
  EXPECT_NE(v.basis.find("no bf16"), std::string::npos) << v.basis;
  EXPECT_TRUE(only(v100, "precision=fp16").estimated);
}

TEST(WhatIf, FullCheckpointingAddsAThirdOfKernelTime) {
  const WhatIfEstimate e = only(measuredRun(), "checkpointing=full");
  EXPECT_NEAR(e.step_after_ns, (400 + 120.0 / 3) * kMs, 1);
  ASSERT_TRUE(e.memory_after_bytes && e.memory_before_bytes);
  EXPECT_LT(*e.memory_after_bytes, *e.memory_before_bytes);
}

TEST(WhatIf, SelectiveCheckpointingRecomputesTheScoresShare) {
  // s / (18 h + 3 s) with s = 1024, h = 768: 1024 / 16896 of kernel time.
  const WhatIfEstimate e = only(measuredRun(), "checkpointing=selective");
  EXPECT_NEAR(e.step_after_ns, (400 + 120 * 1024.0 / 16896) * kMs, 1);
  RankResult no_shape = measuredRun();
  no_shape.mfu.model->d_model.reset();
  EXPECT_FALSE(only(no_shape, "checkpointing=selective").estimated);
}

TEST(WhatIf, ABatchScalesKernelTimeAndLeavesTheStalls) {
  // Micro-batch 8 -> 16: 120 ms of kernels -> 240 ms, 280 ms of stalls stay.
  const WhatIfEstimate e = only(measuredRun(), "batch=16");
  ASSERT_TRUE(e.estimated) << e.basis;
  EXPECT_NEAR(e.step_after_ns, 520 * kMs, 1);
  // Twice the model FLOPs a step in 520 ms instead of 400.
  ASSERT_TRUE(e.mfu_after_pct);
  EXPECT_NEAR(*e.mfu_after_pct, 10 * 2 * 400 / 520.0, 1e-9);
  ASSERT_TRUE(e.memory_after_bytes && e.memory_before_bytes);
  EXPECT_GT(*e.memory_after_bytes, *e.memory_before_bytes);
  // Halving it halves the kernel time.
  EXPECT_NEAR(only(measuredRun(), "batch=4").step_after_ns, 340 * kMs, 1);

  RankResult unknown = measuredRun();
  unknown.memory.reset();
  const WhatIfEstimate u = only(unknown, "batch=16");
  EXPECT_FALSE(u.estimated);
  EXPECT_NE(u.basis.find("batch is unknown"), std::string::npos) << u.basis;
  unknown.samples_per_step = 8;
  EXPECT_NEAR(only(unknown, "batch=16").step_after_ns, 520 * kMs, 1);
}

TEST(WhatIf, SeveralCombineInOrderAndEachStandsAlone) {
  const WhatIfReport r = estimated(measuredRun(), {"data=hidden", "overlap=on"});
  ASSERT_EQ(r.each.size(), 2U);
  EXPECT_NEAR(r.each[0].step_after_ns, 160 * kMs, 1);
  EXPECT_NEAR(r.each[1].step_after_ns, 360 * kMs, 1);
  ASSERT_TRUE(r.combined);
  EXPECT_EQ(r.combined->request, "data=hidden + overlap=on");
  EXPECT_NEAR(r.combined->step_after_ns, 120 * kMs, 1);
  EXPECT_FALSE(estimated(measuredRun(), {"data=hidden"}).combined);
}

TEST(WhatIf, UnknownKeysAndValuesAreRefusedWithTheKeysListed) {
  for (std::string_view bad :
       {"", "data", "data=shown", "precision=fp8", "precision=fp32", "checkpointing=none",
        "batch=0", "batch=-8", "batch=8x", "batch=", "batch=2000000", "batch=99999999999999999999",
        "size=8", "=on", "overlap=on=off"}) {
    Result<WhatIf> w = parseWhatIf(bad);
    ASSERT_FALSE(w.ok()) << bad;
    EXPECT_NE(w.error().message().find(whatIfKeys()), std::string::npos);
    EXPECT_EQ(w.error().message().find('\n'), std::string::npos);
  }
  for (std::string_view good :
       {"data=hidden", "overlap=on", "precision=bf16", "precision=fp16", "precision=tf32",
        "checkpointing=full", "checkpointing=selective", "batch=1", "batch=16"}) {
    EXPECT_EQ(toText(parsed(good)), good);
  }
}

TEST(WhatIf, MfuAfterIsNeverAbove100Percent) {
  // 60 % MFU with 60 % of the step a data stall: the kernels would run at
  // 150 % of the peak, so some input of MFU is wrong.
  RankResult r = measuredRun();
  r.mfu.mfu_pct = 60;
  const WhatIfEstimate e = only(r, "data=hidden");
  EXPECT_TRUE(e.estimated);
  EXPECT_FALSE(e.mfu_after_pct);
  EXPECT_NE(e.basis.find("impossible"), std::string::npos) << e.basis;
}

TEST(WhatIf, ARunWithoutStepsHasNothingToEstimateFrom) {
  RankResult r = measuredRun();
  r.window.avg_step_ns = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(estimateWhatIfs(r, {parsed("data=hidden")}).ok());
  r.window.avg_step_ns = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(estimateWhatIfs(r, {parsed("data=hidden")}).ok());
  r.window.avg_step_ns.reset();
  EXPECT_FALSE(estimateWhatIfs(r, {parsed("data=hidden")}).ok());
  r = measuredRun();
  r.scorecard.reset();
  EXPECT_FALSE(estimateWhatIfs(r, {parsed("data=hidden")}).ok());
  EXPECT_TRUE(applicableWhatIfs(r).empty());
}

TEST(WhatIf, TheApplicableOnesAreThoseWithAMeasuredBasis) {
  EXPECT_EQ(applicableWhatIfs(measuredRun()),
            (std::vector<WhatIf>{{WhatIfKind::kHideData},
                                 {WhatIfKind::kOverlap},
                                 {.kind = WhatIfKind::kPrecision, .precision = Precision::kBf16}}));
  RankResult fed = measuredRun();
  setAxis(fed.scorecard->run, Axis::kDataStall, 0);
  setAxis(fed.scorecard->run, Axis::kExposedCommunication, 0);
  fed.kernels.fp32_matrix_ns = 0;
  EXPECT_TRUE(applicableWhatIfs(fed).empty());
}

TEST(WhatIf, TheTextAndJsonSayItIsAnEstimate) {
  const WhatIfReport r = estimated(measuredRun(), {"data=hidden", "precision=bf16"});
  const std::string text = whatIfText(r);
  EXPECT_NE(text.find("400.0 ms -> 160.0 ms (est., -60.0 %)"), std::string::npos) << text;
  EXPECT_NE(text.find("All together"), std::string::npos) << text;
  EXPECT_NE(text.find("assumes:"), std::string::npos) << text;
  const nlohmann::json j = whatIfJson(r);
  ASSERT_EQ(j["what_ifs"].size(), 2U);
  EXPECT_EQ(j["what_ifs"][0]["request"], "data=hidden");
  EXPECT_DOUBLE_EQ(j["what_ifs"][0]["step_after_ns"].get<double>(), 160 * kMs);
  EXPECT_TRUE(j["combined"].is_object());
}

TEST(WhatIf, TheHtmlReportHasAWhatIfSection) {
  RunResult run;
  run.ranks.push_back(measuredRun());
  const std::string html = renderHtmlReport(run, std::nullopt);
  EXPECT_NE(html.find("<h2>What if</h2>"), std::string::npos);
  EXPECT_NE(html.find("Remove the data stall"), std::string::npos);
  EXPECT_NE(html.find("160.0 ms"), std::string::npos);
  EXPECT_NE(html.find("FP32 matrix math on bf16 tensor cores"), std::string::npos);
  const std::string md = renderMarkdownReport(run);
  EXPECT_NE(md.find("## What if"), std::string::npos);
  EXPECT_NE(md.find("400.0 ms -> 160.0 ms (est., -60.0 %)"), std::string::npos) << md;

  RankResult fed = measuredRun();
  setAxis(fed.scorecard->run, Axis::kDataStall, 0);
  setAxis(fed.scorecard->run, Axis::kExposedCommunication, 0);
  fed.kernels.fp32_matrix_ns = 0;
  run.ranks.front() = fed;
  EXPECT_EQ(renderHtmlReport(run, std::nullopt).find("<h2>What if</h2>"), std::string::npos);
}

}  // namespace
}  // namespace damscope
