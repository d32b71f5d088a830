// The GPT-2 trainer's scenarios are the ground truth of the D·A·M verdict:
// each one, recorded with `damscope record` (NVTX only: no GPU here) and
// analysed with `damscope analyze`, must be diagnosed as what it reproduces
// (issue 10; docs/gpt2-trainer.md lists the scenarios). The data-parallel
// scenarios run as two ranks under mpirun, each recorded into its own file,
// and are analysed together (issue 12).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <vector>

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

// The median of the analysed steps' durations, in ns.
double medianAnalysedStep(const nlohmann::json& rank) {
  std::vector<double> steps;
  for (const nlohmann::json& s : rank["steps"]) {
    if (s["in_window"].get<bool>()) steps.push_back(s["dur_ns"].get<double>());
  }
  if (steps.empty()) return 0;
  std::sort(steps.begin(), steps.end());
  const size_t n = steps.size();
  return n % 2 ? steps[n / 2] : (steps[n / 2 - 1] + steps[n / 2]) / 2;
}

TEST(Gpt2Scenarios, DataBoundWithoutItsDataStallProjectsTheBalancedStep) {
  // Issue 29 §1: the same model and batch, once starved by a slow loader and
  // once fed; the critical path's step without the data stall should land
  // near the fed step as measured. The projection itself is exact here
  // (each step less its 300 ms wait, to the microsecond), but on the 2-core
  // build VM the starved run's ops run 1.4x to 2x slower than the fed run's:
  // without damscope too, data-bound steps take 423-450 ms (300 ms waiting,
  // 123-150 ms computing) against 66-97 ms for balanced ones, and a 30 ms
  // batch cost already adds 20 ms to the compute. No projection from the
  // starved trace can see that, so the check is what holds here: the
  // projection takes most of the step away, lands no lower than the fed
  // step, and within 2.5x of it. Alone (RUN_SERIAL): both are timings.
  const Diagnosis fed = recordAndAnalyse("balanced", "--steps 6");
  const Diagnosis starved = recordAndAnalyse("data-bound", "--steps 6");
  ASSERT_TRUE(fed.rank.is_object()) << fed.trainer_out;
  ASSERT_TRUE(starved.rank.is_object()) << starved.trainer_out;
  const nlohmann::json* data = nullptr;
  for (const nlohmann::json& f : starved.rank["findings"]) {
    if (f["rule"] == "data_loading") data = &f;
  }
  ASSERT_NE(data, nullptr) << starved.rank["findings"].dump(1);
  const nlohmann::json& path = (*data)["critical_path"];
  ASSERT_TRUE(path.is_object()) << data->dump(1);
  EXPECT_GT(path["pct"].get<double>(), 50.0) << path;
  const double projected = path["projected_step_ns"].get<double>();
  const double starved_step = path["step_ns"].get<double>();
  const double balanced = medianAnalysedStep(fed.rank);
  ASSERT_GT(balanced, 0);
  const std::string figures = "projected " + std::to_string(projected / 1e6) + " ms, balanced " +
                              std::to_string(balanced / 1e6) + " ms, starved " +
                              std::to_string(starved_step / 1e6) + " ms";
  EXPECT_LT(projected, 0.5 * starved_step) << figures;
  EXPECT_GT(projected, 0.85 * balanced) << figures;
  EXPECT_LT(projected, 2.5 * balanced) << figures;
}

TEST(Gpt2Scenarios, PeriodicStallIsFoundAsSlowStepsThatRecur) {
  // Steps 3, 7 and 11 (0-based, as the trace numbers them) hold a
  // checkpoint; 13 steps leave 11 judged (step 0 is warm-up, the last is cut).
  // The test runs alone (RUN_SERIAL, tests/CMakeLists.txt): other trainers
  // beside it would spread the normal steps' times as wide as the stall.
  const Diagnosis d = recordAndAnalyse("periodic-stall", "--steps 13");
  expectACpuRunOfTheTrainer(d);
  const nlohmann::json* slow = nullptr;
  for (const nlohmann::json& f : d.rank["findings"]) {
    if (f["rule"] == "slow_steps") slow = &f;
  }
  ASSERT_NE(slow, nullptr) << d.rank["findings"].dump(1);
  const std::string title = (*slow)["title"];
  EXPECT_EQ(title.rfind("Steps 3, 7 and 11 take ", 0), 0u) << title;
  EXPECT_NE(title.find("(every 4 steps)"), std::string::npos) << title;
  EXPECT_NE(title.find("mostly host/launch stall"), std::string::npos) << title;
  EXPECT_NE(title.find("`checkpoint` takes"), std::string::npos) << title;
  // Their excess: three steps of about +200 ms among eleven of about 70.
  EXPECT_GT((*slow)["max_gain_pct"].get<double>(), 25.0);
  EXPECT_EQ((*slow)["evidence"]["ranges"].size(), 6u) << (*slow)["evidence"];
}

#ifdef GPT2_MPIRUN_PATH

struct JobDiagnosis {
  nlohmann::json ranks;  // the analysis JSON of each rank, in rank order
  std::string trainer_out;
};

// `mpirun -np 2 damscope record -o DIR/run.db -- gpt2-train FLAGS`: the
// collector names the files run.rank0.db and run.rank1.db.
std::string mpirun2(const std::string& command) {
  // Root needs the flag (Open MPI refuses root otherwise); --oversubscribe
  // lets two ranks start where the launcher counts fewer slots.
  return std::string(GPT2_MPIRUN_PATH) + " -np 2 --oversubscribe" +
         (geteuid() == 0 ? " --allow-run-as-root" : "") + " " + command;
}

JobDiagnosis recordJob(const TempDir& dir, const std::string& flags) {
  const std::string db = dir.file("run.db");
  const testing::CommandResult rec = runCommand(
      mpirun2(testing::damscopeBinary() + " record -o " + db + " -- " GPT2_TRAIN_PATH " " + flags));
  EXPECT_EQ(rec.exit_code, 0) << rec.err;
  // Each rank's record finalizes and reports its own file, never the other's.
  for (const char* rank : {"run.rank0.db", "run.rank1.db"}) {
    size_t said = 0;
    const std::string line = "damscope: wrote " + dir.file(rank);
    for (size_t at = rec.err.find(line); at != std::string::npos; at = rec.err.find(line, at + 1)) {
      ++said;
    }
    EXPECT_EQ(said, 1u) << rec.err;
  }
  const testing::CommandResult an =
      runCommand(testing::damscopeBinary() + " analyze --no-store --format json " +
                 dir.file("run.rank0.db") + " " + dir.file("run.rank1.db"));
  EXPECT_EQ(an.exit_code, 0) << an.err;
  JobDiagnosis d;
  d.trainer_out = rec.out;
  const nlohmann::json j = nlohmann::json::parse(an.out, nullptr, false);
  if (j.is_object() && j.contains("ranks") && j["ranks"].size() == 2) d.ranks = j["ranks"];
  return d;
}

TEST(Gpt2Scenarios, CommunicationBoundJobIsCalledCommunicationBound) {
  TempDir dir;
  const JobDiagnosis d = recordJob(dir, "--scenario communication-bound --steps 6");
  ASSERT_TRUE(d.ranks.is_array()) << d.trainer_out;
  for (const nlohmann::json& rank : d.ranks) {
    EXPECT_EQ(rank["device_kind"], "cpu");
    EXPECT_EQ(rank["verdict"], "communication-bound") << rank["scorecard"].dump();
    // At least the exposed_communication rule's high threshold (15 %,
    // finding_rules.cc). About 28 % on a quiet machine; a CI run with other
    // tests on the same two cores measured 18.7 %: their load slows the
    // compute the collectives would hide behind.
    EXPECT_GE(rank["scorecard"]["exposed_communication"].get<double>(), 15.0);
    EXPECT_TRUE(hasFinding(rank, "exposed_communication"));
    // Issue 29 §3: the time is mostly transfer, not waiting for the other
    // rank (about 25 % against 1-3 % on a quiet machine). Other tests' load
    // delays one rank or the other, so the test runs alone (RUN_SERIAL,
    // tests/CMakeLists.txt).
    EXPECT_GT(rank["cross_rank"]["transfer_pct"].get<double>(),
              rank["cross_rank"]["waiting_pct"].get<double>())
        << rank["cross_rank"];
    EXPECT_GT(rank["kernel_categories_pct"]["communication"].get<double>(), 0.0);
  }
}

TEST(Gpt2Scenarios, StragglerJobNamesTheSlowRank) {
  TempDir dir;
  // 400 ms rather than the scenario's 150 ms: with other tests running on
  // the same cores, scheduling alone can delay a rank by 150 ms.
  const JobDiagnosis d = recordJob(dir, "--scenario straggler --straggler-ms 400 --steps 6");
  ASSERT_TRUE(d.ranks.is_array()) << d.trainer_out;
  EXPECT_FALSE(d.ranks[0]["cross_rank"]["straggler"].get<bool>()) << d.ranks[0]["cross_rank"];
  EXPECT_TRUE(d.ranks[1]["cross_rank"]["straggler"].get<bool>()) << d.ranks[1]["cross_rank"];
  EXPECT_GE(d.ranks[1]["cross_rank"]["last_to_start_pct"].get<double>(), 75.0);
  EXPECT_TRUE(hasFinding(d.ranks[1], "straggler_wait"));
  EXPECT_FALSE(hasFinding(d.ranks[0], "straggler_wait"));
  // The finding says why (issue 29 §4): the extra host work before the
  // all-reduce, about the 400 ms of --straggler-ms per step.
  for (const nlohmann::json& f : d.ranks[1]["findings"]) {
    if (f["rule"] != "straggler_wait") continue;
    const std::string title = f["title"];
    EXPECT_NE(title.find(": it spends +"), std::string::npos) << title;
    EXPECT_NE(title.find(" per step on host/launch stall ("), std::string::npos) << title;
  }
  // Rank 0 waits for rank 1 inside the all-reduce: exposed communication,
  // nearly all of it waiting for the other rank (issue 29 §3).
  EXPECT_GT(d.ranks[0]["scorecard"]["exposed_communication"].get<double>(), 15.0);
  EXPECT_GT(d.ranks[0]["cross_rank"]["waiting_pct"].get<double>(),
            4 * d.ranks[0]["cross_rank"]["transfer_pct"].get<double>())
      << d.ranks[0]["cross_rank"];
}

// The all-reduce averages the same gradients whether it runs after the
// backward pass or bucket by bucket during it: the losses agree exactly.
TEST(Gpt2Scenarios, OverlapChangesWhenGradientsAreAveragedNotWhatTheyAre) {
  TempDir dir;
  auto losses = [&](const std::string& flags, const std::string& name) {
    const std::string log = dir.file(name);
    const testing::CommandResult r = runCommand(mpirun2(
        GPT2_TRAIN_PATH " --config tiny --steps 4 --bucket-mb 0.05 --log-json " + log + " " + flags));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::vector<std::string> out;
    std::ifstream in(log);
    for (std::string line; std::getline(in, line);) {
      out.push_back(nlohmann::json::parse(line)["loss"].dump());
    }
    return out;
  };
  const std::vector<std::string> after = losses("", "after.jsonl");
  const std::vector<std::string> overlapped = losses("--overlap", "overlap.jsonl");
  ASSERT_EQ(after.size(), 4u);
  EXPECT_EQ(after, overlapped);
}

#endif

}  // namespace
}  // namespace damscope
