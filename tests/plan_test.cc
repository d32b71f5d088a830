// The planner's worked examples (issue 28): each figure the napkin math of
// the chapter states, within 2 %, with the formula it checks.
#include <gtest/gtest.h>

#include "analyzer/planner/training_plan.h"
#include "analyzer/report/plan_report.h"

namespace damscope {
namespace {

const DeviceSpec* device(std::string_view key) {
  Result<DeviceSpecMatch> match = findDeviceSpecByName(key);
  EXPECT_TRUE(match.ok()) << key;
  return match.ok() ? match->spec : nullptr;
}

PlanRequest request(double params, int64_t seq, std::string_view gpu) {
  PlanRequest r;
  r.model.name = "test";
  r.model.params = params;
  r.model.seq_len = seq;
  r.device = device(gpu);
  return r;
}

TrainingPlan planOf(const PlanRequest& r) {
  Result<TrainingPlan> plan = planTraining(r);
  EXPECT_TRUE(plan.ok()) << (plan.ok() ? "" : plan.error().message());
  return plan.ok() ? *plan : TrainingPlan{};
}

#define EXPECT_WITHIN_2_PCT(value, expected) EXPECT_NEAR(value, expected, 0.02 * (expected))

// 24 B S d^2 + 4 B S^2 d (Narayanan et al. 2021): GPT-2 width 1600, B = 32,
// S = 1024 -> 2,228 GFLOP per layer forward.
TEST(Plan, OneLayersForwardFlopsAreTheMegatronCount) {
  PlanRequest r = request(1.5e9, 1024, "a100-sxm4-80gb");
  r.model.d_model = 1600;
  r.micro_batch = 32;
  const TrainingPlan plan = planOf(r);
  ASSERT_TRUE(plan.layer_forward);
  EXPECT_WITHIN_2_PCT(plan.layer_forward->total(), 2228e9);
  EXPECT_WITHIN_2_PCT(plan.layer_forward->ffn, 16.0 * 32 * 1024 * 1600 * 1600);
}

// Mixed precision with Adam and no master copy: 2 + 2 + 8 bytes per
// parameter -> 84 GB for 7e9 before activations.
TEST(Plan, SevenBillionInMixedPrecisionWithAdamIs84Gb) {
  PlanRequest r = request(7e9, 2048, "h100-sxm");
  r.master_weights = false;
  const TrainingPlan plan = planOf(r);
  EXPECT_WITHIN_2_PCT(plan.memory.state.total(), 84e9);
  EXPECT_EQ(plan.memory.state.master_weights, 0);
  // With the fp32 master copy, ZeRO's 16 bytes per parameter.
  r.master_weights = true;
  EXPECT_WITHIN_2_PCT(planOf(r).memory.state.total(), 112e9);
}

// FP32 with Adam: 4 + 4 + 8 bytes per parameter -> 24 GB for 1.5e9.
TEST(Plan, OnePointFiveBillionInFp32WithAdamIs24Gb) {
  PlanRequest r = request(1.5e9, 1024, "a100-sxm4-80gb");
  r.precision = Precision::kFp32;
  const TrainingPlan plan = planOf(r);
  EXPECT_WITHIN_2_PCT(plan.memory.state.total(), 24e9);
}

// Ring all-reduce: 2 (N - 1) / N x 14 GB of FP16 gradients on 8 GPUs = 24.5 GB
// per GPU, 1.96 s over 12.5 GB/s: network-bound against a shorter compute
// step, hidden behind a longer one.
TEST(Plan, SevenBillionGradientsOnEightGpusHitTheNetworkWall) {
  PlanRequest r = request(7e9, 1024, "a100-sxm4-80gb");
  r.precision = Precision::kFp16;
  r.gpus = 8;
  r.micro_batch = 1;
  r.link_bytes_per_s = 12.5e9;
  const TrainingPlan plan = planOf(r);
  ASSERT_TRUE(plan.network);
  EXPECT_WITHIN_2_PCT(plan.network->wire_bytes, 24.5e9);
  EXPECT_WITHIN_2_PCT(plan.network->allreduce_s, 1.96);
  EXPECT_LT(plan.time.step_s.slow, 1.0);
  EXPECT_TRUE(plan.network->network_bound);
  // The wall sets the step: the total time is steps x the all-reduce.
  EXPECT_WITHIN_2_PCT(plan.time.total_s.fast, plan.time.steps * 1.96);

  r.grad_accum = 64;  // 64 times the compute per all-reduce
  const TrainingPlan accumulated = planOf(r);
  EXPECT_GT(accumulated.time.step_s.fast, 1.96);
  EXPECT_FALSE(accumulated.network->network_bound);
}

// 6 N D FLOPs: 7e9 parameters x 1e12 tokens at 156 TFLOP/s on each of 1,024
// A100s -> 3.0 days; 1,024 x 400 W + 128 hosts x 200 W -> 31,800 kWh.
TEST(Plan, SevenBillionOnATrillionTokensTakesThreeDaysAnd31800Kwh) {
  PlanRequest r = request(7e9, 2048, "a100-sxm4-80gb");
  r.gpus = 1024;
  r.tokens = 1e12;
  r.utilization_low = r.utilization_high = 0.5;  // 156 of 312 TFLOP/s
  const TrainingPlan plan = planOf(r);
  EXPECT_EQ(plan.time.nodes, 128);
  EXPECT_EQ(plan.time.gpu_watts, 400);
  ASSERT_TRUE(plan.network);
  EXPECT_FALSE(plan.network->network_bound);
  EXPECT_WITHIN_2_PCT(plan.time.total_s.fast / 86400, 3.0);
  EXPECT_WITHIN_2_PCT(plan.time.energy_kwh.fast, 31800);
  EXPECT_EQ(plan.time.energy_kwh.fast, plan.time.energy_kwh.slow);
}

// 33 work units on 32 slots take two waves: 33 / 64 busy.
TEST(Plan, WaveQuantizationOf33UnitsOn32SlotsIs51Point6Pct) {
  EXPECT_WITHIN_2_PCT(waveUtilization(33, 32), 0.516);
  EXPECT_DOUBLE_EQ(waveUtilization(64, 32), 1.0);
  EXPECT_EQ(waveUtilization(0, 32), 0);
}

TEST(Plan, Gpt2SmallFitsOneA100) {
  Result<ModelShape> gpt2 = findModelPreset("gpt2-124m");
  ASSERT_TRUE(gpt2.ok());
  PlanRequest r;
  r.model = *gpt2;
  r.device = device("a100-sxm4-80gb");
  const TrainingPlan plan = planOf(r);
  EXPECT_EQ(plan.verdict, ScaleOut::kFitsOneGpu);
  EXPECT_FALSE(plan.network);
  ASSERT_TRUE(plan.memory.activations && plan.memory.logits);
  // Tokens default to 20 per parameter.
  EXPECT_TRUE(plan.time.tokens_defaulted);
  EXPECT_DOUBLE_EQ(plan.time.tokens, 20 * gpt2->params);
  // The band: the slow end is the high utilization over the low one slower.
  EXPECT_NEAR(plan.time.step_s.slow / plan.time.step_s.fast, 0.50 / 0.30, 1e-9);
  const std::string text = planText(plan);
  EXPECT_NE(text.find("VERDICT  FITS-ONE-GPU"), std::string::npos) << text;
  EXPECT_NE(text.find("Chinchilla"), std::string::npos) << text;
}

TEST(Plan, SevenBillionOnEightH100sNeedsZeroOrLessActivation) {
  Result<ModelShape> llama = findModelPreset("llama2-7b");
  ASSERT_TRUE(llama.ok());
  PlanRequest r;
  r.model = *llama;
  r.device = device("h100-sxm");
  r.gpus = 8;
  r.micro_batch = 1;
  r.flash_attention = true;
  TrainingPlan plan = planOf(r);
  EXPECT_EQ(plan.verdict, ScaleOut::kNeedsZero);
  EXPECT_EQ(plan.zero_stage_needed, 1);
  EXPECT_EQ(plan.memory.attention_scores, 0);

  // Storing the S x S scores of 4,096 tokens does not fit at any ZeRO stage;
  // recomputing them does.
  r.flash_attention = false;
  r.zero_stage = 3;
  plan = planOf(r);
  EXPECT_EQ(plan.verdict, ScaleOut::kNeedsLessActivation);
  EXPECT_GT(*plan.memory.attention_scores, 0);
  EXPECT_LT(plan.least_activation_bytes, *plan.memory.activations);
}

TEST(Plan, ATrillionParametersOnEightGpusSaysItDoesNotFitAndHowManyItNeeds) {
  PlanRequest r = request(1e12, 2048, "h100-sxm");
  r.gpus = 8;
  const TrainingPlan plan = planOf(r);
  EXPECT_EQ(plan.verdict, ScaleOut::kDoesNotFit);
  // 16 bytes per parameter over 90 % of 80 GiB.
  EXPECT_EQ(plan.min_gpus, static_cast<int64_t>(std::ceil(16e12 / (0.9 * 80.0 * (1 << 30)))));
  EXPECT_NE(scaleOutWords(plan).find("does not fit"), std::string::npos);
}

TEST(Plan, FullRecomputationAddsAForwardPassAndLowersActivations) {
  Result<ModelShape> gpt2 = findModelPreset("gpt2-1.5b");
  ASSERT_TRUE(gpt2.ok());
  PlanRequest r;
  r.model = *gpt2;
  r.device = device("a100-sxm4-80gb");
  const TrainingPlan none = planOf(r);
  r.checkpointing = Checkpointing::kFull;
  const TrainingPlan full = planOf(r);
  EXPECT_EQ(full.model_flops_per_token, none.model_flops_per_token);
  EXPECT_NEAR(full.hardware_flops_per_token / full.model_flops_per_token, 4.0 / 3, 1e-9);
  EXPECT_LT(*full.memory.activations, *none.memory.activations / 5);
  EXPECT_GT(full.time.step_s.fast, none.time.step_s.fast);
}

TEST(Plan, ImpossibleInputsNameTheirFlag) {
  const auto error = [](const PlanRequest& r) {
    Result<TrainingPlan> plan = planTraining(r);
    return plan.ok() ? std::string() : plan.error().message();
  };
  PlanRequest r = request(7e9, 2048, "h100-sxm");
  PlanRequest bad = r;
  bad.gpus = 8;
  bad.link_bytes_per_s = 0;
  EXPECT_NE(error(bad).find("--link-gbs"), std::string::npos);
  bad = r;
  bad.gpus = -1;
  EXPECT_NE(error(bad).find("--gpus"), std::string::npos);
  bad = r;
  bad.model.params = -5;
  EXPECT_NE(error(bad).find("--params"), std::string::npos);
  bad = r;
  bad.model.seq_len.reset();
  EXPECT_NE(error(bad).find("--seq"), std::string::npos);
  bad = r;
  bad.utilization_low = 0.6;
  bad.utilization_high = 0.4;
  EXPECT_NE(error(bad).find("--mfu"), std::string::npos);
  bad = r;
  bad.zero_stage = 4;
  EXPECT_NE(error(bad).find("--zero"), std::string::npos);
  bad = r;
  bad.precision = Precision::kFp64;  // the H100 SXM has an fp64 peak: accepted
  EXPECT_EQ(error(bad), "");
  bad.device = device("l4");  // no fp64 figure in the table
  EXPECT_NE(error(bad).find("--precision"), std::string::npos);
}

TEST(Plan, JsonHoldsTheSameFiguresAsTheModel) {
  PlanRequest r = request(7e9, 1024, "a100-sxm4-80gb");
  r.gpus = 8;
  const TrainingPlan plan = planOf(r);
  const nlohmann::json j = planJson(plan);
  EXPECT_EQ(j["memory"]["total_bytes"].get<double>(), plan.memory.total);
  EXPECT_EQ(j["network"]["wire_bytes"].get<double>(), plan.network->wire_bytes);
  EXPECT_EQ(j["time"]["step_s"]["fast"].get<double>(), plan.time.step_s.fast);
  EXPECT_EQ(j["verdict"], std::string(toText(plan.verdict)));
  EXPECT_EQ(j["request"]["device"], "a100-sxm4-80gb");
}

}  // namespace
}  // namespace damscope
