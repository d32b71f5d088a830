// Inputs a hostile user or a damaged disk produces, through the damscope
// command as a user runs it: each gets an answer or one clear line with exit
// code 2, never an abort, a crash, a corrupt file or a rewritten terminal.
// (Issue 8's defects, one test each.)
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/test_support.h"
#include "trace/analysis_store.h"
#include "trace/sqlite_db.h"
#include "trace/trace_reader.h"

namespace damscope {
namespace {

using testing::CommandResult;
using testing::TempDir;

CommandResult damscope(const std::string& args) {
  return testing::runCommand(testing::damscopeBinary() + " " + args);
}

// A one-step Kineto trace whose kernel is called `kernel_name` (raw bytes,
// written into the JSON string as they are).
std::string traceWithKernel(const std::string& kernel_name) {
  return R"({"traceEvents":[)"
         R"({"ph":"X","cat":"cpu_op","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":1000},)"
         R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":10,"dur":5,"args":{"correlation":1}},)"
         R"({"ph":"X","cat":"kernel","name":")" +
         kernel_name +
         R"(","pid":0,"tid":7,"ts":20,"dur":300,"args":{"correlation":1,"device":0,"stream":7}}],)"
         R"("deviceProperties":[{"id":0,"name":")" +
         kernel_name + R"(","numSms":80}]})";
}

bool oneLine(const std::string& text) {
  return std::count(text.begin(), text.end(), '\n') == 1;
}

TEST(HostileInput, InvalidUtf8NeverBreaksJsonOutput) {
  TempDir dir;
  // Invalid UTF-8 in the file's own name (stored in the run.db as its
  // source), and, written into the run.db by hand, in a kernel's name.
  // (Kineto JSON itself must be UTF-8: the JSON parser refuses it otherwise.)
  const std::string trace = dir.file("bad\xff\xfe.json");
  testing::writeFile(trace, traceWithKernel("gemm"));
  const std::string store = dir.file("bad.db");
  ASSERT_EQ(damscope("import -o " + store + " '" + trace + "'").exit_code, 0);
  {
    auto db = Database::open(store, Database::Mode::kReadWriteCreate);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(db->exec("UPDATE strings SET value = CAST(X'67656d6dc328ff' AS TEXT) "
                         "WHERE value = 'gemm'")
                    .ok());
  }
  for (const std::string& args :
       {"info --json " + store, "info --json '" + trace + "'",
        "analyze --no-store --format json " + store, "analyze --format json " + store,
        "analyze --no-store --format json '" + trace + "'"}) {
    const CommandResult r = damscope(args);
    ASSERT_EQ(r.exit_code, 0) << args << ": " << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << args << ": not JSON";
  }
  // Read back as valid UTF-8: the invalid bytes became U+FFFD.
  auto events = readTrace(store);
  ASSERT_TRUE(events.ok()) << events.error().message();
  EXPECT_EQ(events->strings.get(events->kernels.name[0]), "gemm\xEF\xBF\xBD(\xEF\xBF\xBD");
  // And stored results hold valid text only.
  auto stored = readAnalysis(store);
  ASSERT_TRUE(stored.ok()) << stored.error().message();
  EXPECT_EQ(stored->top_kernels.name[0], "gemm\xEF\xBF\xBD(\xEF\xBF\xBD");
}

TEST(HostileInput, EscapeSequencesInNamesDoNotReachTheTerminal) {
  TempDir dir;
  const std::string trace = dir.file("escape.json");
  // OSC "set window title", then a CSI colour change; \u001b is ESC in JSON.
  testing::writeFile(trace, traceWithKernel(R"(k\u001b]0;owned\u0007\u001b[31m)"));
  for (const std::string& args : {"analyze --no-store " + trace, "info " + trace}) {
    const CommandResult r = damscope(args);
    ASSERT_EQ(r.exit_code, 0) << args << ": " << r.err;
    EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << args;
    EXPECT_EQ(r.out.find('\x07'), std::string::npos) << args;
  }
  EXPECT_NE(damscope("info " + trace).out.find("k\\x1b]0;owned\\x07"), std::string::npos)
      << "shown, as a visible escape";
}

// A run.db edited or damaged so that ids point nowhere: refused with the
// table, row and value, exit 2.
TEST(HostileInput, DanglingIdsInARunDbAreRefused) {
  TempDir dir;
  const std::string trace = dir.file("ok.json");
  testing::writeFile(trace, traceWithKernel("gemm"));
  const std::string store = dir.file("ok.db");
  ASSERT_EQ(damscope("import -o " + store + " " + trace).exit_code, 0);
  for (const char* damage :
       {"UPDATE kernels SET name = 99999", "UPDATE kernels SET name = -7",
        "UPDATE kernels SET name = 1e12", "UPDATE ranges SET thread_id = 12345",
        "UPDATE kernels SET ts = 9000000000000000000"}) {
    const std::string copy = dir.file("damaged.db");
    std::filesystem::copy_file(store, copy, std::filesystem::copy_options::overwrite_existing);
    {
      auto db = Database::open(copy, Database::Mode::kReadWriteCreate);
      ASSERT_TRUE(db.ok());
      ASSERT_TRUE(db->exec(damage).ok());
    }
    const CommandResult r = damscope("analyze --no-store " + copy);
    EXPECT_EQ(r.exit_code, 2) << damage << ": " << r.err;
    EXPECT_TRUE(oneLine(r.err)) << damage << ": " << r.err;
    EXPECT_NE(r.err.find("damaged.db: table "), std::string::npos) << r.err;
  }
}

TEST(HostileInput, AKernelWithoutANameIsAnalysedAndStored) {
  TempDir dir;
  const std::string trace = dir.file("noname.json");
  testing::writeFile(trace, traceWithKernel(""));
  const CommandResult r = testing::runCommand("cd " + dir.path() + " && " +
                                              testing::damscopeBinary() + " analyze noname.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto stored = readAnalysis(dir.file("noname.db"));
  ASSERT_TRUE(stored.ok()) << stored.error().message();
  ASSERT_EQ(stored->top_kernels.size(), 1u);
  EXPECT_EQ(stored->top_kernels.name[0], "");
}

// Replacing a run.db that has a leftover -wal (a crashed writer's) must not
// replay that log into the new file.
TEST(HostileInput, ReplacingARunDbIgnoresItsLeftoverLog) {
  TempDir dir;
  const std::string trace = dir.file("run.json");
  testing::writeFile(trace, traceWithKernel("gemm"));
  const std::string store = dir.file("run.db");
  ASSERT_EQ(damscope("import -o " + store + " " + trace).exit_code, 0);
  // Another database's log, as a crash would leave it.
  {
    const std::string other = dir.file("other.db");
    auto db = Database::open(other, Database::Mode::kReadWriteCreate);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(db->exec("PRAGMA journal_mode=WAL; CREATE TABLE junk(x); "
                         "INSERT INTO junk VALUES (1)")
                    .ok());
    std::filesystem::copy_file(other + "-wal", store + "-wal",
                               std::filesystem::copy_options::overwrite_existing);
  }
  for (const std::string& command :
       {"import -f -o " + store + " " + trace, "analyze -f --no-store -o " + store + " " + trace,
        "analyze -f -o " + store + " " + trace}) {
    ASSERT_EQ(damscope(command).exit_code, 0) << command;
    auto events = readTrace(store);
    ASSERT_TRUE(events.ok()) << command << ": " << events.error().message();
    EXPECT_EQ(events->kernels.size(), 1u);
  }
}

TEST(HostileInput, LongFileNamesImport) {
  TempDir dir;
  // 250 bytes: a temporary name built by adding to it would pass NAME_MAX (255).
  const std::string name = std::string(243, 'n') + ".json";
  testing::writeFile(dir.file(name), traceWithKernel("gemm"));
  const CommandResult r = testing::runCommand("cd " + dir.path() + " && " +
                                              testing::damscopeBinary() + " analyze " + name);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir.file(std::string(243, 'n') + ".db")));
}

}  // namespace
}  // namespace damscope
