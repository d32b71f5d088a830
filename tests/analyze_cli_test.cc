// `damscope analyze` as a user runs it: it imports a trace into NAME.db,
// stores the analysis tables there, prints the verdict first, prints the
// documented JSON with --format json, reuses its own import, replaces
// earlier results, analyses several ranks together, and rejects bad input
// with exit code 2 and one line.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/test_support.h"
#include "analyzer/result/analysis_store.h"
#include "trace/trace_reader.h"

namespace damscope {
namespace {

using testing::CommandResult;
using testing::runCommand;
using testing::TempDir;

CommandResult damscope(const std::string& args) {
  return runCommand(testing::damscopeBinary() + " " + args);
}

TEST(AnalyzeCli, ImportsStoresAndPrintsTheVerdictFirst) {
  TempDir dir;
  const std::string trace = dir.file("run0.json");
  testing::writeFile(trace, testing::dataBoundKinetoTrace(0, 0));
  CommandResult r =
      runCommand("cd " + dir.path() + " && " + testing::damscopeBinary() + " analyze run0.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const size_t verdict = r.out.find("VERDICT  DATA-BOUND");
  ASSERT_NE(verdict, std::string::npos) << r.out;
  EXPECT_LT(verdict, r.out.find("Where the step time goes"));
  EXPECT_LT(r.out.find("Where the step time goes"), r.out.find("What to change first"));
  EXPECT_NE(r.out.find("data_loading"), std::string::npos);

  auto stored = readAnalysis(dir.file("run0.db"));
  ASSERT_TRUE(stored.ok()) << stored.error().message();
  EXPECT_EQ(stored->summary.verdict[0], "data-bound");
  EXPECT_EQ(stored->steps.size(), 3u);
  EXPECT_FALSE(stored->gaps.empty());
  EXPECT_EQ(stored->findings.rule[0], "data_loading");
  auto events = readTrace(dir.file("run0.db"));
  ASSERT_TRUE(events.ok());
  EXPECT_EQ(events->kernels.size(), 3u);

  // Again: reuses the import, replaces the results.
  r = runCommand("cd " + dir.path() + " && " + testing::damscopeBinary() +
                 " analyze run0.json --window all");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  stored = readAnalysis(dir.file("run0.db"));
  ASSERT_TRUE(stored.ok());
  EXPECT_EQ(stored->summary.window_mode[0], "all");
  EXPECT_EQ(stored->steps.size(), 3u);
}

// Names from the trace cannot forge a line of damscope's own, nor reorder one
// (issue 32 §5): the kernel, the device, a range and the file name carry
// "\nVERDICT ..." and bidi controls; only the real verdict starts a line.
TEST(AnalyzeCli, NamesInTheTraceCannotForgeOrReorderLines) {
  TempDir dir;
  const std::string file = "run\nVERDICT  FILE (forged).json";
  testing::writeFile(dir.file(file), testing::forgedNamesKinetoTrace(0, 0));
  for (const std::string args : {"analyze --no-store", "analyze", "ops"}) {
    const CommandResult r = runCommand("cd " + dir.path() + " && " + testing::damscopeBinary() +
                                       " " + args + " '" + file + "'");
    ASSERT_EQ(r.exit_code, 0) << args << ": " << r.err;
    EXPECT_EQ(testing::linesStartingWithVerdict(r.out), args == "ops" ? 0u : 1u)
        << args << ":\n" << r.out;
    EXPECT_EQ(testing::linesStartingWithVerdict(r.err), 0u) << args << ":\n" << r.err;
    EXPECT_FALSE(testing::hasRawFormatControl(r.out + r.err)) << args << ":\n" << r.out;
  }
  // Shown, as visible escapes, on the line they belong to.
  const CommandResult r = runCommand("cd " + dir.path() + " && " + testing::damscopeBinary() +
                                     " analyze --no-store '" + file + "'");
  EXPECT_NE(r.out.find("run\\nVERDICT  FILE (forged).json"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("A100\\nVERDICT  DATA-BOUND (forged)\\u202e\\u2066x\\u2069\\u200b\\ufeff"
                       "\\U000e0001"),
            std::string::npos)
      << r.out;
}

TEST(AnalyzeCli, JsonHasTheDocumentedFields) {
  TempDir dir;
  const std::string trace = dir.file("run0.json");
  testing::writeFile(trace, testing::dataBoundKinetoTrace(0, 0));
  CommandResult r = damscope("analyze --no-store --format json " + trace);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["format"], "damscope-analysis");
  ASSERT_EQ(j["ranks"].size(), 1u);
  const nlohmann::json& rank = j["ranks"][0];
  for (const char* key :
       {"window_us", "idle_pct", "compute_pct", "non_compute_pct", "overlap_pct", "gpu_util_pct",
        "sm_efficiency_pct", "occupancy_pct", "verdict", "scorecard", "findings", "steps"}) {
    EXPECT_TRUE(rank.contains(key)) << key;
  }
  EXPECT_TRUE(rank["overlap_pct"].is_null()) << "no communication";
  EXPECT_EQ(rank["verdict"], "data-bound");
  EXPECT_EQ(rank["scorecard"].size(), 7u);
  EXPECT_DOUBLE_EQ(rank["window_us"].get<double>(), 1300.0);  // first GEMM start to second's end
  EXPECT_DOUBLE_EQ(rank["gpu_util_pct"].get<double>(), 30.0);
  EXPECT_DOUBLE_EQ(rank["occupancy_pct"].get<double>(), 50.0);
  const nlohmann::json& finding = rank["findings"][0];
  for (const char* key : {"rule", "severity", "recommendation", "max_gain_pct"}) {
    EXPECT_TRUE(finding.contains(key)) << key;
  }
  ASSERT_EQ(rank["steps"].size(), 3u);
  for (const char* key : {"id", "start_ns", "dur_ns"})
    EXPECT_TRUE(rank["steps"][0].contains(key)) << key;
  EXPECT_TRUE(rank["stored_in"].is_null());
  EXPECT_FALSE(std::filesystem::exists(dir.file("run0.db")));
}

TEST(AnalyzeCli, SeveralRanksAreComparedAndStragglersFound) {
  TempDir dir;
  testing::writeFile(dir.file("rank0.json"), testing::dataBoundKinetoTrace(0, 0));
  testing::writeFile(dir.file("rank1.json"),
                     testing::dataBoundKinetoTrace(1, 200));  // 200 µs slower loader
  CommandResult r = runCommand("cd " + dir.path() + " && " + testing::damscopeBinary() +
                               " analyze rank0.json rank1.json --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["ranks"].size(), 2u);
  EXPECT_EQ(j["ranks"][1]["rank"], 1);
  EXPECT_TRUE(j["ranks"][1]["cross_rank"]["straggler"].get<bool>());
  EXPECT_FALSE(j["ranks"][0]["cross_rank"]["straggler"].get<bool>());
  bool straggler_finding = false;
  for (const auto& f : j["ranks"][1]["findings"]) straggler_finding |= f["rule"] == "straggler";
  EXPECT_TRUE(straggler_finding);
  auto stored = readAnalysis(dir.file("rank1.db"));
  ASSERT_TRUE(stored.ok());
  EXPECT_EQ(stored->rank_comparison.size(), 2u);
}

// The JSON a merge prints, made comparable with the full analysis': the
// merge names the run.db files it read and says where it stored.
std::string asIfFromTraces(const std::string& json) {
  nlohmann::json doc = nlohmann::json::parse(json);
  for (auto& rank : doc["ranks"]) rank["stored_in"] = nullptr;
  std::string text = doc.dump();
  for (size_t at = text.find(".db\""); at != std::string::npos; at = text.find(".db\"", at)) {
    text.replace(at, 4, ".json\"");
  }
  return text;
}

// Issue 13: all cores give the same output, and a job whose ranks were each
// analysed on their own is put together from their stored results, equal to
// the whole job analysed at once.
TEST(AnalyzeCli, ParallelRanksAndTheMergeFromStoredResultsAgree) {
  TempDir dir;
  std::string traces, stores;
  for (int r = 0; r < 5; ++r) {
    const std::string name = dir.file("rank" + std::to_string(r));
    testing::writeFile(name + ".json", testing::allReduceKinetoTrace(r, 5, r == 3 ? 300 : 0));
    traces += " " + name + ".json";
    stores += " " + name + ".db";
  }
  CommandResult serial = damscope("analyze --no-store --format json -j 1" + traces);
  ASSERT_EQ(serial.exit_code, 0) << serial.err;
  CommandResult parallel = damscope("analyze --no-store --format json -j 4" + traces);
  ASSERT_EQ(parallel.exit_code, 0) << parallel.err;
  EXPECT_EQ(serial.out, parallel.out);
  EXPECT_NE(serial.out.find("straggler"), std::string::npos);

  for (int r = 0; r < 5; ++r) {
    const std::string name = dir.file("rank" + std::to_string(r));
    CommandResult alone = damscope("analyze -o " + name + ".db " + name + ".json");
    ASSERT_EQ(alone.exit_code, 0) << alone.err;
  }
  CommandResult merged = damscope("analyze --format json" + stores);
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_EQ(asIfFromTraces(merged.out), nlohmann::json::parse(serial.out).dump());
  // Again, now that each file holds the job's comparison: nothing doubles.
  CommandResult again = damscope("analyze --format json" + stores);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out, merged.out);
  // Other flags: the stored results do not fit, the events are analysed.
  CommandResult all = damscope("analyze --no-store --format json --window all" + stores);
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_EQ(nlohmann::json::parse(all.out)["window"], "all") << all.out.substr(0, 300);
  EXPECT_EQ(damscope("analyze -j -1" + stores).exit_code, 2);
}

// Many ranks: the text is about the job (verdicts counted, the stragglers
// named and shown in full with the first rank), not a summary per rank.
TEST(AnalyzeCli, ManyRanksAreSummarisedAsAJob) {
  TempDir dir;
  std::string traces;
  for (int r = 0; r < 12; ++r) {
    const std::string trace = dir.file("rank" + std::to_string(r) + ".json");
    testing::writeFile(trace, testing::allReduceKinetoTrace(r, 12, r == 7 ? 300 : 0));
    traces += " " + trace;
  }
  CommandResult r = damscope("analyze --no-store" + traces);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("Job of 12 ranks\n", 0), 0u) << r.out.substr(0, 400);
  EXPECT_NE(r.out.find("stragglers: rank 7"), std::string::npos) << r.out.substr(0, 400);
  EXPECT_NE(r.out.find("In full below: rank 0, rank 7 (2 of 12 ranks"), std::string::npos);
  size_t verdicts = 0;
  for (size_t at = r.out.find("VERDICT  "); at != std::string::npos;
       at = r.out.find("VERDICT  ", at + 1)) {
    ++verdicts;
  }
  EXPECT_EQ(verdicts, 2u);
  const size_t table = r.out.find("Cross-rank: the 10 slowest of 12 ranks");
  ASSERT_NE(table, std::string::npos);
  const size_t header = r.out.find('\n', table) + 1;
  const size_t first_row = r.out.find('\n', header) + 1;
  EXPECT_EQ(r.out.substr(first_row, 8), "  7     ") << "the slowest first: " << r.out.substr(table);
}

TEST(AnalyzeCli, BadInputExitsTwoWithOneLine) {
  TempDir dir;
  const std::string trace = dir.file("run0.json");
  testing::writeFile(trace, testing::dataBoundKinetoTrace(0, 0));
  testing::writeFile(dir.file("not_a_trace.txt"), "hello");
  for (const std::string& args :
       {"analyze " + dir.file("missing.json"), "analyze " + dir.file("not_a_trace.txt"),
        "analyze --window sideways " + trace, "analyze --threshold nope=3 " + trace,
        "analyze --format xml " + trace, "analyze -o x.db " + trace + " " + trace,
        "analyze --model gpt5 " + trace, "analyze --gpu tpu-v9 " + trace,
        "analyze --peak-tflops -1 " + trace, "analyze --peak-bw-gbs 1e300 " + trace,
        "analyze --precision fp4 " + trace, "analyze --layers 12 " + trace,
        "analyze --params 0 " + trace, std::string("analyze")}) {
    CommandResult r = damscope(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.out << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << ": " << r.err;
  }
  // An existing file that is not this trace's import is not overwritten.
  testing::writeFile(dir.file("taken.db"), "precious");
  CommandResult r = damscope("analyze -o " + dir.file("taken.db") + " " + trace);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(testing::readFile(dir.file("taken.db")), "precious");
}

TEST(AnalyzeCli, ModelAndDeviceFlagsGiveMfu) {
  TempDir dir;
  const std::string trace = dir.file("run0.json");
  testing::writeFile(trace, testing::dataBoundKinetoTrace(0, 0));
  // The trace's "Test GPU" is in no table: without a peak, the note names the flags.
  CommandResult r = damscope("analyze --no-store " + trace);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("(give it with --gpu NAME or --peak-tflops X)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(give it with --model NAME or --params N)"), std::string::npos) << r.out;
  r = damscope(
      "analyze --no-store --format json --model gpt2-124m --tokens-per-step 4 "
      "--gpu v100-sxm2-32gb " +
      trace);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json mfu = nlohmann::json::parse(r.out)["ranks"][0]["mfu"];
  EXPECT_EQ(mfu["flops_source"], "user_model");
  EXPECT_EQ(mfu["peak_source"], "user_device");
  EXPECT_EQ(mfu["model"]["params"], 124439808);
  EXPECT_TRUE(mfu["mfu_pct"].is_number()) << mfu.dump();
}

TEST(AnalyzeCli, RealResnetPairAsAUserSeesIt) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  CommandResult r =
      damscope("analyze --no-store --format json " +
               testing::sharedTrace("kineto/resnet50_workers0.pt.trace.json.gz") + " " +
               testing::sharedTrace("kineto/resnet50_workers4.pt.trace.json.gz"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["ranks"][0]["verdict"], "data-bound");
  EXPECT_EQ(j["ranks"][0]["findings"][0]["rule"], "data_loading");
  EXPECT_NE(j["ranks"][1]["verdict"], "data-bound");
}

}  // namespace
}  // namespace damscope
