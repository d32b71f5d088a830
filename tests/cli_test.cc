// The damscope binary as a user runs it: exit codes, one-line errors that
// name the file, no partial output on failure, default output names, and the
// info command's text and JSON.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/test_support.h"

namespace damscope {
namespace {

using testing::CommandResult;
using testing::runCommand;
using testing::TempDir;

const char* kTinyTrace = R"json({"traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 7, "tid": 7, "ts": 100, "dur": 10},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 7, "tid": 7, "ts": 101, "dur": 2,
   "args": {"correlation": 5}},
  {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce", "pid": 0, "tid": 7, "ts": 104, "dur": 3,
   "args": {"device": 0, "stream": 7, "correlation": 5}}],
  "distributedInfo": {"rank": 1, "world_size": 4, "backend": "nccl"}})json";

CommandResult damscope(const std::string& args) {
  return runCommand(testing::damscopeBinary() + " " + args);
}

int lineCount(const std::string& text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

TEST(Cli, HelpAndVersionExitZero) {
  EXPECT_EQ(damscope("--help").exit_code, 0);
  EXPECT_EQ(damscope("import --help").exit_code, 0);
  CommandResult version = damscope("--version");
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_NE(version.out.find("damscope"), std::string::npos);
}

TEST(Cli, UsageErrorsExitTwoWithOneLine) {
  for (const char* args : {"", "frobnicate", "import", "info --no-such-flag x"}) {
    CommandResult r = damscope(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_EQ(lineCount(r.err), 1) << args << ": " << r.err;
  }
}

TEST(Cli, ImportWritesTheStoreAndInfoReadsIt) {
  TempDir dir;
  testing::writeGzip(dir.file("trace.pt.trace.json.gz"), kTinyTrace);
  CommandResult imported = runCommand("cd " + dir.path() + " && " + testing::damscopeBinary() +
                                      " import trace.pt.trace.json.gz");
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  ASSERT_TRUE(std::filesystem::exists(dir.file("trace.db"))) << "default name: input name with .db";
  EXPECT_NE(imported.out.find("1 kernels"), std::string::npos) << imported.out;

  CommandResult info = damscope("info " + dir.file("trace.db"));
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_NE(info.out.find("rank 1 of 4 (nccl)"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("(1 NCCL)"), std::string::npos) << info.out;

  CommandResult json = damscope("info --json " + dir.file("trace.db"));
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["counts"]["kernels"], 1);
  EXPECT_EQ(j["counts"]["api_calls"], 1);
  EXPECT_EQ(j["counts"]["nccl_kernels"], 1);
  EXPECT_EQ(j["processes"][0]["rank"], 1);
  EXPECT_EQ(j["span_ns"], 10000);
}

TEST(Cli, InfoReadsAnyTraceWithoutWritingAFile) {
  TempDir dir;
  testing::writeFile(dir.file("trace.json"), kTinyTrace);
  CommandResult info = damscope("info --json " + dir.file("trace.json"));
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_EQ(nlohmann::json::parse(info.out)["counts"]["ranges"], 1);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), {}), 1);
}

// `info` and `import` show names from the trace and the file's own name
// without letting them forge a line or reorder one (issue 32 §5); an error
// naming such a file is still one line.
TEST(Cli, NamesInTheTraceCannotForgeOrReorderLines) {
  TempDir dir;
  const std::string file = "run\nVERDICT  FILE (forged).json";
  testing::writeFile(dir.file(file), testing::forgedNamesKinetoTrace(0, 0));
  for (const std::string args : {"info", "import"}) {
    const CommandResult r = runCommand("cd " + dir.path() + " && " + testing::damscopeBinary() +
                                       " " + args + " '" + file + "'");
    ASSERT_EQ(r.exit_code, 0) << args << ": " << r.err;
    EXPECT_EQ(testing::linesStartingWithVerdict(r.out + r.err), 0u) << args << ":\n" << r.out;
    EXPECT_FALSE(testing::hasRawFormatControl(r.out + r.err)) << args << ":\n" << r.out;
  }
  const CommandResult info = damscope("info '" + dir.file(file) + "'");
  EXPECT_NE(info.out.find("A100\\nVERDICT  DATA-BOUND (forged)\\u202e"), std::string::npos)
      << info.out;

  const CommandResult missing = damscope("info '" + dir.file("gone\nVERDICT  X.json") + "'");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(std::count(missing.err.begin(), missing.err.end(), '\n'), 1) << missing.err;
  EXPECT_NE(missing.err.find("gone\\nVERDICT  X.json"), std::string::npos) << missing.err;
}

TEST(Cli, ImportRefusesToOverwriteWithoutForce) {
  TempDir dir;
  testing::writeFile(dir.file("trace.json"), kTinyTrace);
  const std::string out = dir.file("run.db");
  ASSERT_EQ(damscope("import " + dir.file("trace.json") + " -o " + out).exit_code, 0);
  CommandResult again = damscope("import " + dir.file("trace.json") + " -o " + out);
  EXPECT_EQ(again.exit_code, 2);
  // The library says "output exists"; the hint about the flag is the CLI's own.
  EXPECT_EQ(again.err, "damscope: " + out + ": output exists (use --force to overwrite)\n");
  EXPECT_EQ(damscope("import -f " + dir.file("trace.json") + " -o " + out).exit_code, 0);
}

TEST(Cli, ImportOfADamscopeTraceIsRefused) {
  TempDir dir;
  testing::writeFile(dir.file("trace.json"), kTinyTrace);
  ASSERT_EQ(damscope("import " + dir.file("trace.json") + " -o " + dir.file("run.db")).exit_code,
            0);
  CommandResult r = damscope("import " + dir.file("run.db") + " -o " + dir.file("again.db"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("already a damscope trace"), std::string::npos) << r.err;
}

// Every bad input: exit 2, one line on stderr naming the file, nothing written.
TEST(Cli, BadInputsExitTwoNameTheFileAndLeaveNothing) {
  TempDir dir;
  const std::string in = dir.file("in");
  std::filesystem::create_directory(in);
  testing::writeGzip(in + "/truncated.json.gz", kTinyTrace, 60);
  testing::writeFile(in + "/corrupt.json", R"({"traceEvents": [{"ph": "X", "cat": })");
  testing::writeFile(in + "/empty.json", "");
  testing::writeFile(in + "/notatrace.json", R"({"hello": "world"})");
  testing::writeFile(in + "/text.txt", "plain text\n");
  std::filesystem::create_directory(in + "/a-directory");
  {
    // A SQLite file that is neither an nsys export nor a damscope trace.
    CommandResult made = runCommand("sqlite3 " + in + "/other.sqlite 'CREATE TABLE t(x);'");
    ASSERT_EQ(made.exit_code, 0) << "needs the sqlite3 shell";
  }
  const std::string out = dir.file("out");
  std::filesystem::create_directory(out);

  for (const char* name : {"truncated.json.gz", "corrupt.json", "empty.json", "notatrace.json",
                           "text.txt", "a-directory", "other.sqlite", "does-not-exist.json"}) {
    const std::string path = in + "/" + name;
    for (const char* command : {"import", "info"}) {
      CommandResult r = damscope(std::string(command) + " " + path + " -o " + out + "/run.db");
      if (std::string(command) == "info") r = damscope("info " + path);
      EXPECT_EQ(r.exit_code, 2) << command << " " << name;
      EXPECT_EQ(lineCount(r.err), 1) << command << " " << name << ": " << r.err;
      EXPECT_NE(r.err.find(path), std::string::npos) << command << " " << name << ": " << r.err;
      EXPECT_EQ(r.err.rfind("damscope: ", 0), 0u) << r.err;
    }
    EXPECT_TRUE(std::filesystem::is_empty(out)) << "partial output left after " << name;
  }
}

// Issue 32 §3: a FIFO no one writes blocks a reader forever, /dev/zero never
// ends. Every open of an input goes through one check (base/input_fd.h) that
// refuses them before a byte is read: as the trace, through a symbolic link,
// and as the run.db an earlier import would have left. `timeout` turns a
// hang into exit 124.
TEST(Cli, FifosAndDevicesAreRefusedWithoutBlocking) {
  TempDir dir;
  const std::string fifo = dir.file("trace.json");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::filesystem::create_symlink(fifo, dir.file("link.json"));
  testing::writeFile(dir.file("real.json"), kTinyTrace);
  ASSERT_EQ(::mkfifo(dir.file("real.db").c_str(), 0600), 0);  // analyze real.json's run.db
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"import " + fifo + " -o " + dir.file("out.db"), fifo},
      {"info " + fifo, fifo},
      {"analyze " + fifo, fifo},
      {"analyze " + dir.file("link.json"), dir.file("link.json")},
      {"report " + fifo + " -o " + dir.file("report.html"), fifo},
      {"ops " + fifo, fifo},
      {"diff " + fifo + " " + dir.file("real.json"), fifo},
      {"info /dev/zero", "/dev/zero"},
      {"analyze /dev/zero", "/dev/zero"},
      {"analyze " + dir.file("real.json"), "real.db: is not a regular file"},
  };
  for (const auto& [args, named] : cases) {
    const CommandResult r =
        runCommand("cd " + dir.path() + " && timeout 20 " + testing::damscopeBinary() + " " + args);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.err;
    EXPECT_EQ(lineCount(r.err), 1) << args << ": " << r.err;
    EXPECT_NE(r.err.find(named), std::string::npos) << args << ": " << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("out.db")));
  EXPECT_FALSE(std::filesystem::exists(dir.file("report.html")));
}

// Issue 32 §3: a size has a documented range; 1e308 tokens a step made the
// throughput infinite.
TEST(Cli, TokensPerStepPastItsRangeIsRefused) {
  TempDir dir;
  testing::writeFile(dir.file("trace.json"), kTinyTrace);
  for (const char* value : {"1e308", "1e13", "0", "-5", "inf"}) {
    for (const char* flag : {"--tokens-per-step", "--samples-per-step"}) {
      const CommandResult r =
          damscope("analyze --no-store " + dir.file("trace.json") + " " + flag + " " + value);
      EXPECT_EQ(r.exit_code, 2) << flag << " " << value << ": " << r.err;
      EXPECT_NE(r.err.find("at most 1e12"), std::string::npos) << r.err;
    }
  }
  const CommandResult at_most =
      damscope("analyze --no-store " + dir.file("trace.json") + " --tokens-per-step 1e12");
  EXPECT_EQ(at_most.exit_code, 0) << at_most.err;
}

TEST(Cli, UnwritableOutputExitsTwoAndLeavesNothing) {
  TempDir dir;
  testing::writeFile(dir.file("trace.json"), kTinyTrace);
  CommandResult r =
      damscope("import " + dir.file("trace.json") + " -o " + dir.file("missing-dir/run.db"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(lineCount(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("missing-dir/run.db"), std::string::npos) << r.err;
  CommandResult onto_dir = damscope("import -f " + dir.file("trace.json") + " -o " + dir.path());
  EXPECT_EQ(onto_dir.exit_code, 2);
  EXPECT_NE(onto_dir.err.find("is a directory"), std::string::npos) << onto_dir.err;
}

}  // namespace
}  // namespace damscope
