// `damscope plan` as a user runs it: a readable plan for GPT-2 124M on an
// A100 and a 7B model on 8 H100s, its JSON, and wrong inputs refused with
// exit code 2 and one line naming the flag.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <chrono>

#include "tests/test_support.h"

namespace damscope {
namespace {

using testing::CommandResult;
using testing::runCommand;

CommandResult damscope(const std::string& args) {
  return runCommand(testing::damscopeBinary() + " plan " + args);
}

TEST(PlanCli, Gpt2SmallOnAnA100ReadsAsAPlan) {
  const CommandResult r = damscope("--model gpt2-124m --gpu a100-sxm4-80gb");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* section : {"PLAN  gpt2-124m: 1 x A100 SXM4 80GB", "\nWORK\n",
                              "\nMEMORY PER GPU", "\nTIME  at 50 % (fast) to 30 % (slow) of the 312.0 TFLOP/s",
                              "VERDICT  FITS-ONE-GPU", "optimizer state", "GPU-hours", "kWh"}) {
    EXPECT_NE(r.out.find(section), std::string::npos) << section << "\n" << r.out;
  }
  // One GPU: no all-reduce.
  EXPECT_EQ(r.out.find("NETWORK"), std::string::npos) << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST(PlanCli, SevenBillionOnEightH100sSaysWhatItNeeds) {
  const CommandResult r = damscope("--model llama2-7b --gpu h100-sxm --gpus 8 --batch 1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("NETWORK  data parallel over 8 GPUs"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("NVLink 4"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("VERDICT  NEEDS-"), std::string::npos) << r.out;
}

TEST(PlanCli, JsonIsOneDocumentWithTheDocumentedFields) {
  const CommandResult r =
      damscope("--params 7e9 --seq 1024 --gpu a100-sxm4-80gb --gpus 8 --precision fp16 "
               "--batch 1 --link-gbs 12.5 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_NEAR(j["network"]["wire_bytes"].get<double>(), 24.5e9, 0.5e9);
  EXPECT_TRUE(j["network"]["network_bound"].get<bool>());
  EXPECT_EQ(j["request"]["precision"], "fp16");
  for (const char* key : {"layer_forward_flops", "model_flops_per_token", "memory", "time",
                          "verdict", "verdict_words"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
}

TEST(PlanCli, AnswersWellUnder100Ms) {
  const auto start = std::chrono::steady_clock::now();
  const CommandResult r = damscope("--model llama3-8b --gpu h100-sxm --gpus 64 --format json");
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                              start).count();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // A process start included; the arithmetic itself is microseconds
  // (bench/plan_bench).
  EXPECT_LT(ms, 1000);
}

TEST(PlanCli, WrongInputsAreOneLineAndExitTwo) {
  for (const char* args : {"--model gpt2-124m --gpu a100-sxm4-80gb --gpus 8 --link-gbs 0",
                           "--model gpt2-124m --gpu a100-sxm4-80gb --gpus -2",
                           "--model gpt2-124m --gpu a100-sxm4-80gb --gpus abc",
                           "--model gpt2-124m --gpu no-such-gpu",
                           "--model no-such-model --gpu a100-sxm4-80gb",
                           "--params 7e9 --gpu a100-sxm4-80gb",
                           "--gpu a100-sxm4-80gb",
                           "--model gpt2-124m --gpu a100-sxm4-80gb --mfu 60-40",
                           "--model gpt2-124m --gpu a100-sxm4-80gb --mfu fast",
                           "--model gpt2-124m --gpu a100-sxm4-80gb --zero 4",
                           "--model gpt2-124m --gpu a100-sxm4-80gb --checkpointing some",
                           "--model gpt2-124m --gpu a100-sxm4-80gb --batch 0",
                           "--model gpt2-124m --gpu a100-sxm4-80gb --tokens -1",
                           "--model gpt2-124m --gpu a100-sxm4-80gb --host-watts nan",
                           "--model gpt2-124m --gpu a100-sxm4-80gb --format xml"}) {
    const CommandResult r = damscope(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.out << r.err;
    EXPECT_TRUE(r.out.empty()) << args;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << "\n" << r.err;
  }
}

// What-if on a recorded run: a data-bound trace (600 us in the DataLoader,
// then 300 us of GEMM, a step), opened as report opens it.
TEST(PlanCli, WhatIfOnARecordedRunEstimatesFromItsBreakdown) {
  testing::TempDir dir;
  testing::writeFile(dir.file("trace.json"), testing::dataBoundKinetoTrace(0, 0));
  const std::string plan = "cd " + dir.path() + " && " + testing::damscopeBinary() + " plan ";
  const CommandResult text = runCommand(plan + "trace.json --what-if data=hidden");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("Remove the data stall  (data=hidden)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("(est., -"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("assumes:"), std::string::npos) << text.out;

  // Read back from the run.db the first call stored: the arithmetic is all
  // that is left (a process start included, as above).
  const auto start = std::chrono::steady_clock::now();
  const CommandResult json =
      runCommand(plan + "trace.db --what-if data=hidden --what-if overlap=on --format json");
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_LT(ms, 1000);
  const nlohmann::json j = nlohmann::json::parse(json.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << json.out;
  ASSERT_EQ(j["what_ifs"].size(), 2U);
  const nlohmann::json& data = j["what_ifs"][0];
  EXPECT_TRUE(data["estimated"].get<bool>());
  EXPECT_LT(data["step_after_ns"].get<double>(), data["step_before_ns"].get<double>());
  EXPECT_LT(data["step_change_pct"].get<double>(), -20) << data.dump(2);
  EXPECT_EQ(j["combined"]["request"], "data=hidden + overlap=on");
  for (const char* key : {"source", "device", "step_ns", "steps"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
}

TEST(PlanCli, WhatIfMistakesAreOneLineAndExitTwo) {
  for (const char* args : {"missing.db --what-if batch=0",
                           "missing.db --what-if precision=fp8",
                           "missing.db --what-if data",
                           "missing.db --gpu a100-sxm4-80gb",
                           "missing.db --model gpt2-124m",
                           "--model gpt2-124m --gpu a100-sxm4-80gb --what-if data=hidden",
                           "missing.db",
                           "missing.db --format xml"}) {
    const CommandResult r = damscope(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.out << r.err;
    EXPECT_TRUE(r.out.empty()) << args;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << "\n" << r.err;
  }
  // The keys are listed.
  EXPECT_NE(damscope("missing.db --what-if size=8").err.find("data=hidden, overlap=on"),
            std::string::npos);
}

TEST(PlanCli, AModelLargerThanTheClusterSaysSoPlainly) {
  const CommandResult r = damscope("--params 1e12 --seq 2048 --gpu h100-sxm --gpus 8");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("VERDICT  DOES-NOT-FIT"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fully sharded"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace damscope
