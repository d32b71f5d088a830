// The GPT-2 trainer's scenarios are the ground truth of the D·A·M verdict:
// each one, recorded with `damscope record` (NVTX only: no GPU here) and
// analysed with `damscope analyze`, must be diagnosed as what it reproduces
// (issue 10; docs/gpt2-trainer.md lists the scenarios).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/test_support.h"

namespace damscope {
namespace {

using testing::runCommand;
using testing::TempDir;

struct Diagnosis {
  nlohmann::json rank;  // the analysis JSON of the one rank
  std::string trainer_out;
};

// Records `gpt2-train --scenario NAME FLAGS` and analyses the trace.
Diagnosis recordAndAnalyse(const std::string& scenario, const std::string& flags) {
  TempDir dir;
  const std::string db = dir.file("run.db");
  const testing::CommandResult rec =
      runCommand(testing::damscopeBinary() + " record -o " + db + " -- " GPT2_TRAIN_PATH
                 " --scenario " + scenario + " " + flags);
  EXPECT_EQ(rec.exit_code, 0) << rec.err;
  const testing::CommandResult an =
      runCommand(testing::damscopeBinary() + " analyze --no-store --format json " + db);
  EXPECT_EQ(an.exit_code, 0) << an.err;
  Diagnosis d;
  d.trainer_out = rec.out;
  const nlohmann::json j = nlohmann::json::parse(an.out, nullptr, false);
  if (j.is_object() && j.contains("ranks") && j["ranks"].size() == 1) d.rank = j["ranks"][0];
  return d;
}

// What every scenario's diagnosis has: the ops of a cpu device, the trainer's
// steps, and MFU from the model annotation and the measured peak.
void expectACpuRunOfTheTrainer(const Diagnosis& d) {
  ASSERT_TRUE(d.rank.is_object()) << d.trainer_out;
  EXPECT_EQ(d.rank["device_kind"], "cpu");
  EXPECT_EQ(d.rank["step_source"], "trainer");
  EXPECT_TRUE(d.rank["mfu"]["mfu_pct"].is_number()) << d.rank["mfu"].dump();
  EXPECT_EQ(d.rank["mfu"]["peak_source"], "model_annotation");
}

bool hasFinding(const nlohmann::json& rank, const std::string& rule) {
  for (const nlohmann::json& f : rank["findings"]) {
    if (f["rule"] == rule) return true;
  }
  return false;
}

TEST(Gpt2Scenarios, DataBoundIsCalledDataBound) {
  const Diagnosis d = recordAndAnalyse("data-bound", "--steps 5");
  expectACpuRunOfTheTrainer(d);
  EXPECT_EQ(d.rank["verdict"], "data-bound") << d.rank["scorecard"].dump();
  EXPECT_TRUE(hasFinding(d.rank, "data_loading"));
}

TEST(Gpt2Scenarios, ComputeBoundIsCalledComputeBound) {
  const Diagnosis d = recordAndAnalyse("compute-bound", "--steps 4");
  expectACpuRunOfTheTrainer(d);
  EXPECT_EQ(d.rank["verdict"], "compute-bound") << d.rank["scorecard"].dump();
}

TEST(Gpt2Scenarios, MemoryBoundIsCalledMemoryBound) {
  const Diagnosis d = recordAndAnalyse("memory-bound", "--steps 5");
  expectACpuRunOfTheTrainer(d);
  EXPECT_EQ(d.rank["verdict"], "memory-bound") << d.rank["scorecard"].dump();
  EXPECT_TRUE(hasFinding(d.rank, "memory_bound_kernels"));
}

TEST(Gpt2Scenarios, BalancedFeedsTheCpu) {
  // The loader prefetches behind compute: no stall axis reaches the
  // starvation threshold, and the verdict names the ops' own limit.
  const Diagnosis d = recordAndAnalyse("balanced", "--steps 6");
  expectACpuRunOfTheTrainer(d);
  const std::string verdict = d.rank["verdict"];
  EXPECT_TRUE(verdict == "compute-bound" || verdict == "memory-bound") << verdict;
  EXPECT_LT(d.rank["scorecard"]["data_stall"].get<double>(), 5.0);
  EXPECT_FALSE(hasFinding(d.rank, "data_loading"));
}

}  // namespace
}  // namespace damscope
