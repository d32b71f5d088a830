// `damscope report` as a user runs it: a trace is analysed and stored first,
// then reported from run.db without analysing again (the two documents are
// the same); the format follows the output's suffix; bad input, a bad format
// and an existing output get exit code 2 and one line, and leave nothing.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/test_support.h"

namespace damscope {
namespace {

using testing::CommandResult;
using testing::runCommand;
using testing::TempDir;

CommandResult damscopeIn(const TempDir& dir, const std::string& args) {
  return runCommand("cd " + dir.path() + " && " + testing::damscopeBinary() + " " + args);
}

bool exists(const std::string& path) {
  return std::filesystem::exists(path);
}

size_t lines(const std::string& s) {
  return static_cast<size_t>(std::count(s.begin(), s.end(), '\n'));
}

TEST(ReportCli, AnalysesATraceThenReportsFromItsRunDb) {
  TempDir dir;
  testing::writeFile(dir.file("train.json"), testing::dataBoundKinetoTrace(0, 0, 5));
  const CommandResult first = damscopeIn(dir, "report train.json");
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_NE(first.out.find("train-report.html"), std::string::npos);
  ASSERT_TRUE(exists(dir.file("train-report.html")));
  ASSERT_TRUE(exists(dir.file("train.db")));  // stored as analyze stores
  const std::string html = testing::readFile(dir.file("train-report.html"));
  EXPECT_NE(html.find("DATA-BOUND"), std::string::npos);
  EXPECT_NE(html.find("A representative step"), std::string::npos);

  const CommandResult again = damscopeIn(dir, "report train.db -o again.html");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(testing::readFile(dir.file("again.html")), html);
}

TEST(ReportCli, TheOutputSuffixChoosesTheFormat) {
  TempDir dir;
  testing::writeFile(dir.file("train.json"), testing::dataBoundKinetoTrace(0, 0, 5));
  ASSERT_EQ(damscopeIn(dir, "report --no-store train.json -o r.md").exit_code, 0);
  const std::string md = testing::readFile(dir.file("r.md"));
  EXPECT_EQ(md.rfind("# damscope report", 0), 0u);
  EXPECT_NE(md.find("**Verdict: DATA-BOUND**"), std::string::npos);

  ASSERT_EQ(damscopeIn(dir, "report --no-store train.json -o r.json").exit_code, 0);
  const nlohmann::json doc = nlohmann::json::parse(testing::readFile(dir.file("r.json")));
  ASSERT_TRUE(doc.contains("ranks"));
  EXPECT_EQ(doc["ranks"][0]["verdict"], "data-bound");

  const CommandResult out = damscopeIn(dir, "report --no-store train.json -o - --format md");
  ASSERT_EQ(out.exit_code, 0) << out.err;
  EXPECT_EQ(out.out, md);
  EXPECT_FALSE(exists(dir.file("train.db")));  // --no-store wrote nothing else
}

TEST(ReportCli, BadInputGetsOneLineAndLeavesNothing) {
  TempDir dir;
  CommandResult r = damscopeIn(dir, "report missing.json -o r.html");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_FALSE(exists(dir.file("r.html")));

  testing::writeFile(dir.file("bad.json"), "{\"traceEvents\": [");
  r = damscopeIn(dir, "report bad.json -o r.html");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_FALSE(exists(dir.file("r.html")));
  EXPECT_FALSE(exists(dir.file("bad.db")));

  testing::writeFile(dir.file("train.json"), testing::dataBoundKinetoTrace(0, 0, 5));
  r = damscopeIn(dir, "report --no-store train.json --format pdf");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--format pdf"), std::string::npos);

  testing::writeFile(dir.file("taken.html"), "mine");
  r = damscopeIn(dir, "report --no-store train.json -o taken.html");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--force"), std::string::npos);
  EXPECT_EQ(testing::readFile(dir.file("taken.html")), "mine");
  EXPECT_EQ(damscopeIn(dir, "report --no-store train.json -o taken.html -f").exit_code, 0);
  EXPECT_NE(testing::readFile(dir.file("taken.html")), "mine");
}

}  // namespace
}  // namespace damscope
