// The test issue 28 asks of what-if: a prediction made from a recorded run
// checked against the run re-recorded with the change. The GPT-2 trainer's
// data-bound scenario on the CPU (one loader thread, no prefetch, 300 ms of
// CPU work per batch: docs/gpt2-trainer.md) is recorded, `damscope plan
// RUN.db --what-if data=hidden` predicts its step without the data stall, and
// the same run with the loader's work gone (--batch-cost-ms 0) is recorded
// and measured.
//
// The tiny model on one compute thread: OpenMP's threads on a machine shared
// with other tests swing the compute time several-fold from run to run (the
// small model on 2 threads measured 566-1,563 ms a step for the same work in
// trials here; the tiny one on one thread 30-54 ms), and the test is about
// the stall, which is then ~90 % of the step.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/test_support.h"

namespace damscope {
namespace {

using testing::runCommand;
using testing::TempDir;

// Records `gpt2-train --scenario data-bound FLAGS` into `db`.
void record(const std::string& db, const std::string& flags) {
  const testing::CommandResult rec = runCommand(
      testing::damscopeBinary() + " record -o " + db +
      " -- " GPT2_TRAIN_PATH " --scenario data-bound --config tiny --threads 1 --steps 5 " + flags);
  ASSERT_EQ(rec.exit_code, 0) << rec.out << rec.err;
}

nlohmann::json plan(const std::string& args) {
  const testing::CommandResult r =
      runCommand(testing::damscopeBinary() + " plan " + args + " --format json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out, nullptr, false);
}

// Tolerance: the predicted saving (step before - predicted step) within
// +-35 % of the measured one (step before - re-recorded step). A what-if that
// kept the stall would be 100 % off, one that removed the stall twice over
// ~100 % too; the compute part left after the stall varies between the two
// recordings by ~25 ms in ~300 ms of saving (the trials above), under 10 %.
constexpr double kTolerancePct = 35;

TEST(WhatIfTrainer, RemovingTheDataStallPredictsTheRunWithTheLoaderFixed) {
  TempDir dir;
  const std::string slow = dir.file("data-bound.db");
  const std::string fixed = dir.file("fixed.db");
  record(slow, "");
  const nlohmann::json predicted = plan(slow + " --what-if data=hidden");
  ASSERT_TRUE(predicted.is_object());
  ASSERT_EQ(predicted["what_ifs"].size(), 1U) << predicted.dump(2);
  const nlohmann::json& e = predicted["what_ifs"][0];
  ASSERT_TRUE(e["estimated"].get<bool>()) << e.dump(2);
  const double before = e["step_before_ns"].get<double>();
  const double after = e["step_after_ns"].get<double>();

  record(fixed, "--batch-cost-ms 0");
  const nlohmann::json measured = plan(fixed);
  ASSERT_TRUE(measured.is_object());
  const double remeasured = measured["step_ns"].get<double>();

  // The direction: the step shrinks, in the prediction and in fact.
  EXPECT_LT(after, before) << e.dump(2);
  EXPECT_LT(remeasured, before);
  // The size.
  const double predicted_saving = before - after;
  const double measured_saving = before - remeasured;
  EXPECT_NEAR(predicted_saving, measured_saving, kTolerancePct / 100 * measured_saving)
      << "predicted " << after / 1e6 << " ms, re-recorded " << remeasured / 1e6 << " ms, from "
      << before / 1e6 << " ms";
  // MFU rises as the step shrinks, at the same model FLOPs.
  ASSERT_TRUE(e["mfu_after_pct"].is_number()) << e.dump(2);
  EXPECT_GT(e["mfu_after_pct"].get<double>(), e["mfu_before_pct"].get<double>());
}

}  // namespace
}  // namespace damscope
