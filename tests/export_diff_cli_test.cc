// `damscope export` and `damscope diff` as a user runs them: export analyses
// a trace first (storing it as analyze does, or not with --no-store), reuses a
// stored analysis, writes plain or gzip JSON, refuses to overwrite without
// --force, and leaves nothing behind on bad input; diff compares a generated
// pair (DataLoader fix) in text and JSON, reuses stored results, and rejects
// bad input with exit code 2 and one line; both on the real traces.
#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/test_support.h"
#include "analyzer/result/analysis_store.h"

namespace damscope {
namespace {

using testing::CommandResult;
using testing::runCommand;
using testing::TempDir;

CommandResult damscopeIn(const TempDir& dir, const std::string& args) {
  return runCommand("cd " + dir.path() + " && " + testing::damscopeBinary() + " " + args);
}

// A PyTorch profiler trace of `steps` steps: the DataLoader takes
// `loader_us`, then the host launches a 300 µs GEMM.
std::string kinetoRun(int loader_us, int steps = 4) {
  std::string events;
  for (int step = 0; step < steps; ++step) {
    const int t0 = step * (loader_us + 320);
    const std::string c = std::to_string(step + 1);
    const auto at = [&](int us) { return std::to_string(t0 + us); };
    events += R"({"ph":"X","cat":"cpu_op","name":"ProfilerStep#)" + c +
              R"(","pid":1,"tid":1,"ts":)" + at(0) + R"(,"dur":)" +
              std::to_string(loader_us + 320) + "},";
    events +=
        R"({"ph":"X","cat":"user_annotation","name":"enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__","pid":1,"tid":1,"ts":)" +
        at(0) + R"(,"dur":)" + std::to_string(loader_us) + "},";
    events += R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":)" +
              at(loader_us + 5) + R"(,"dur":5,"args":{"correlation":)" + c + "}},";
    events += R"({"ph":"X","cat":"kernel","name":"volta_sgemm_128x64_nn","pid":0,"tid":7,"ts":)" +
              at(loader_us + 15) + R"(,"dur":300,"args":{"correlation":)" + c +
              R"(,"device":0,"stream":7,"grid":[160,1,1],"block":[256,1,1]}},)";
  }
  events.pop_back();
  return R"({"traceEvents":[)" + events +
         R"(],"deviceProperties":[{"id":0,"name":"Test GPU","numSms":80}]})";
}

std::string gunzip(const std::string& path) {
  gzFile in = gzopen(path.c_str(), "rb");
  std::string out;
  if (!in) return out;
  char buf[4096];
  for (int n; (n = gzread(in, buf, sizeof(buf))) > 0;) out.append(buf, static_cast<size_t>(n));
  gzclose(in);
  return out;
}

int lines(const std::string& text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

TEST(ExportCli, AnalysesStoresAndWritesAChromeTrace) {
  TempDir dir;
  testing::writeFile(dir.file("run.json"), kinetoRun(600));
  CommandResult r = damscopeIn(dir, "export run.json --chrome out.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("out.json: Chrome trace of run.json"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Analysis stored in run.db"), std::string::npos) << r.out;
  const nlohmann::json j = nlohmann::json::parse(testing::readFile(dir.file("out.json")));
  int kernels = 0, gaps = 0, flows = 0;
  for (const auto& e : j["traceEvents"]) {
    kernels += e.value("cat", "") == "kernel";
    gaps += e.value("cat", "") == "damscope_gap";
    flows += e["ph"] == "f";
  }
  EXPECT_EQ(kernels, 4);
  EXPECT_GT(gaps, 0);
  EXPECT_EQ(flows, 4);
  EXPECT_EQ(j["otherData"]["verdict"], "data-bound");
  ASSERT_TRUE(readAnalysis(dir.file("run.db")).ok()) << "stored as analyze stores";

  // Again from the run.db, which holds the analysis now; gzip; the output
  // exists without --force.
  r = damscopeIn(dir, "export run.db --chrome out.json.gz");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("Analysis stored"), std::string::npos) << "read back, not analysed";
  EXPECT_EQ(gunzip(dir.file("out.json.gz")), testing::readFile(dir.file("out.json")));
  r = damscopeIn(dir, "export run.db --chrome out.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("out.json: output exists (use --force"), std::string::npos) << r.err;
  r = damscopeIn(dir, "export run.db --chrome out.json --force");
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(ExportCli, NoStoreWritesOnlyTheExport) {
  TempDir dir;
  testing::writeFile(dir.file("run.json"), kinetoRun(600));
  CommandResult r = damscopeIn(dir, "export --no-store run.json --chrome out.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir.file("out.json")));
  EXPECT_FALSE(std::filesystem::exists(dir.file("run.db")));
}

TEST(ExportCli, BadInputExitsTwoWithOneLineAndLeavesNothing) {
  TempDir dir;
  testing::writeFile(dir.file("run.json"), kinetoRun(600));
  testing::writeFile(dir.file("not_a_trace.txt"), "hello");
  for (const std::string& args :
       {std::string("export missing.json --chrome out.json"),
        std::string("export not_a_trace.txt --chrome out.json"),
        std::string("export run.json --chrome no/such/folder/out.json --no-store"),
        std::string("export run.json"), std::string("export --chrome out.json")}) {
    CommandResult r = damscopeIn(dir, args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.out << r.err;
    EXPECT_EQ(lines(r.err), 1) << args << ": " << r.err;
  }
  CommandResult r = damscopeIn(dir, "export missing.json --chrome out.json");
  EXPECT_NE(r.err.find("missing.json"), std::string::npos) << r.err;
  r = damscopeIn(dir, "export run.json --chrome no/such/folder/out.json --no-store");
  EXPECT_NE(r.err.find("no/such/folder/out.json"), std::string::npos) << r.err;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    const std::string name = entry.path().filename().string();
    EXPECT_TRUE(name == "run.json" || name == "not_a_trace.txt") << "left behind: " << name;
  }
  EXPECT_EQ(damscopeIn(dir, "export --help").exit_code, 0);
}

TEST(DiffCli, GeneratedPairAsAUserSeesIt) {
  TempDir dir;
  testing::writeFile(dir.file("before.json"), kinetoRun(600));
  testing::writeFile(dir.file("after.json"), kinetoRun(10, 6));
  CommandResult r = damscopeIn(dir, "diff before.json after.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("VERDICT  DATA-BOUND -> COMPUTE-BOUND"), r.out.find("VERDICT")) << r.out;
  EXPECT_NE(r.out.find("step time 920.0 µs -> 330.0 µs (-64.1 %), 3 -> 5 steps analysed"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("gone   data_loading"), std::string::npos) << r.out;
  EXPECT_TRUE(readAnalysis(dir.file("before.db")).ok()) << "stored as analyze stores";
  EXPECT_TRUE(readAnalysis(dir.file("after.db")).ok());

  // From the stored results, as JSON.
  r = damscopeIn(dir, "diff before.db after.db --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["format"], "damscope-diff");
  ASSERT_EQ(j["ranks"].size(), 1u);
  const nlohmann::json& d = j["ranks"][0];
  EXPECT_EQ(d["before"]["verdict"], "data-bound");
  EXPECT_EQ(d["after"]["verdict"], "compute-bound");
  EXPECT_TRUE(d["verdict_changed"].get<bool>());
  EXPECT_DOUBLE_EQ(d["step_time_us"]["before"].get<double>(), 920.0);
  for (const char* key : {"scorecard", "breakdown", "utilization", "kernel_categories", "kernels",
                          "findings", "notes"}) {
    EXPECT_TRUE(d.contains(key)) << key;
  }

  // Several ranks a side.
  r = damscopeIn(dir, "diff --before before.db --after after.db --no-store");
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

// Names from the traces cannot forge the diff's lines nor reorder them (issue
// 32 §5): one VERDICT line, no raw bidi controls.
TEST(DiffCli, NamesInTheTracesCannotForgeOrReorderLines) {
  TempDir dir;
  testing::writeFile(dir.file("before.json"), testing::forgedNamesKinetoTrace(0, 0));
  testing::writeFile(dir.file("after.json"), testing::forgedNamesKinetoTrace(0, 300));
  for (const char* args : {"diff --no-store before.json after.json", "diff before.json after.json",
                           "diff before.db after.db"}) {
    const CommandResult r = damscopeIn(dir, args);
    ASSERT_EQ(r.exit_code, 0) << args << ": " << r.err;
    EXPECT_EQ(testing::linesStartingWithVerdict(r.out), 1u) << args << ":\n" << r.out;
    EXPECT_EQ(testing::linesStartingWithVerdict(r.err), 0u) << args << ":\n" << r.err;
    EXPECT_FALSE(testing::hasRawFormatControl(r.out + r.err)) << args << ":\n" << r.out;
    EXPECT_NE(r.out.find("A100\\nVERDICT  DATA-BOUND (forged)\\u202e"), std::string::npos)
        << args << ":\n" << r.out;
  }
}

// A two-rank run before and after: compared rank by rank, in the order given.
TEST(DiffCli, SeveralRanksAreComparedRankByRank) {
  TempDir dir;
  testing::writeFile(dir.file("b0.json"), testing::dataBoundKinetoTrace(0, 0));
  testing::writeFile(dir.file("b1.json"), testing::dataBoundKinetoTrace(1, 200));
  testing::writeFile(dir.file("a0.json"), testing::dataBoundKinetoTrace(0, 0));
  testing::writeFile(dir.file("a1.json"), testing::dataBoundKinetoTrace(1, 0));
  CommandResult r = damscopeIn(
      dir, "diff --no-store --format json --before b0.json b1.json --after a0.json a1.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["ranks"].size(), 2u);
  EXPECT_EQ(j["ranks"][1]["before"]["rank"], 1);
  EXPECT_EQ(j["ranks"][1]["after"]["rank"], 1);
  EXPECT_LT(j["ranks"][1]["step_time_us"]["delta"].get<double>(), 0) << "rank 1's loader sped up";
  EXPECT_DOUBLE_EQ(j["ranks"][0]["step_time_us"]["delta"].get<double>(), 0);
  bool straggler_gone = false;
  for (const auto& f : j["ranks"][1]["findings"]) {
    straggler_gone |= f["rule"] == "straggler" && f["state"] == "disappeared";
  }
  EXPECT_TRUE(straggler_gone) << j["ranks"][1]["findings"].dump(2);
  EXPECT_TRUE(j["notes"].empty());
  r = damscopeIn(dir, "diff --no-store --before b0.json b1.json --after a0.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("note: before has 2 rank(s), after 1"), std::string::npos) << r.out;
}

TEST(DiffCli, BadInputExitsTwoWithOneLine) {
  TempDir dir;
  testing::writeFile(dir.file("run.json"), kinetoRun(600));
  for (const std::string& args :
       {std::string("diff run.json"), std::string("diff run.json missing.json --no-store"),
        std::string("diff run.json run.json --format xml"),
        std::string("diff run.json run.json --before run.json --after run.json"),
        std::string("diff --before run.json"), std::string("diff a b c")}) {
    CommandResult r = damscopeIn(dir, args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.out << r.err;
    EXPECT_EQ(lines(r.err), 1) << args << ": " << r.err;
  }
  EXPECT_NE(damscopeIn(dir, "diff run.json missing.json --no-store").err.find("missing.json"),
            std::string::npos);
  EXPECT_EQ(damscopeIn(dir, "diff --help").exit_code, 0);
}

TEST(ExportDiffCli, RealTraces) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  TempDir dir;
  CommandResult r = damscopeIn(
      dir, "diff --no-store " + testing::sharedTrace("kineto/resnet50_workers0.pt.trace.json.gz") +
               " " + testing::sharedTrace("kineto/resnet50_workers4.pt.trace.json.gz"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("VERDICT  DATA-BOUND -> HOST-BOUND"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("data stall was the lead: 34.9 % -> 3.0 % of the step"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("step time 179.9 ms -> 144.4 ms (-19.7 %)"), std::string::npos) << r.out;

  r = damscopeIn(dir, "export --no-store " +
                          testing::sharedTrace("kineto/nccl_2rank_a100.json.gz") +
                          " --chrome nccl.json.gz");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(gunzip(dir.file("nccl.json.gz")));
  EXPECT_GT(j["traceEvents"].size(), 30'000u);
}

}  // namespace
}  // namespace damscope
