// The legacy autograd profiler's JSON (analyzer/importers/kineto/legacy_autograd.h):
// the committed trace of a CPU training loop that Debian 12's PyTorch 1.13.1
// wrote (tests/data/legacy_autograd_cpu.json, made by
// tests/programs/legacy_profiler_trace.py), imported and shown by the damscope
// command; hostile variants of the format; and the name rule that stands in
// for Kineto's categories, checked against Kineto's own on the shared traces.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "analyzer/importers/kineto/kineto_importer.h"
#include "analyzer/importers/kineto/legacy_autograd.h"
#include "analyzer/importers/trace_import.h"
#include "tests/test_support.h"

namespace damscope {
namespace {

using testing::CommandResult;
using testing::TempDir;

std::string fixture() {
  return std::string(DAMSCOPE_SOURCE_DIR) + "/tests/data/legacy_autograd_cpu.json";
}

CommandResult damscope(const std::string& args) {
  return testing::runCommand(testing::damscopeBinary() + " " + args);
}

// Rows of `t.ranges` named `name`.
std::vector<size_t> rangesNamed(const TraceTables& t, std::string_view name) {
  std::vector<size_t> rows;
  for (size_t i = 0; i < t.ranges.size(); ++i) {
    if (t.strings.get(t.ranges.name[i]) == name) rows.push_back(i);
  }
  return rows;
}

std::string_view category(const TraceTables& t, size_t row) {
  return t.strings.get(t.ranges.category[row]);
}

std::string_view parentName(const TraceTables& t, size_t row) {
  const int64_t parent = t.ranges.parent_id[row];
  return isNull(parent) ? std::string_view("(none)") : t.strings.get(t.ranges.name[parent]);
}

class LegacyFixture : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto result = importTrace(fixture());
    ASSERT_TRUE(result.ok()) << result.error().message();
    tables_ = new TraceTables(std::move(result.value()));
  }
  static void TearDownTestSuite() {
    delete tables_;
    tables_ = nullptr;
  }
  static const TraceTables& t() { return *tables_; }

 private:
  static TraceTables* tables_;
};
TraceTables* LegacyFixture::tables_ = nullptr;

TEST_F(LegacyFixture, EveryEventIsAHostRangeOfOneProcessAndThread) {
  // The fixture holds 960 "X" events, all on pid "CPU functions", tid 1.
  const std::string text = testing::readFile(fixture());
  size_t events = 0;
  for (size_t at = text.find("\"ph\": \"X\""); at != std::string::npos;
       at = text.find("\"ph\": \"X\"", at + 1)) {
    ++events;
  }
  ASSERT_EQ(events, 960u);
  EXPECT_EQ(t().ranges.size(), events);
  EXPECT_EQ(t().getStat("kineto.events"), 960);
  // 9 ops end 1 µs after their parent: PyTorch truncated their start and
  // duration to µs separately. Nothing else was skipped or repaired.
  EXPECT_EQ(t().getStat("kineto.legacy_clipped_ends"), 9);
  EXPECT_EQ(t().stats.size(), 2u);
  EXPECT_EQ(t().kernels.size() + t().api_calls.size() + t().memcpys.size(), 0u);

  ASSERT_EQ(t().processes.size(), 1u);
  EXPECT_TRUE(isNull(t().processes.pid[0])) << "the format names no OS process";
  ASSERT_EQ(t().threads.size(), 1u);
  EXPECT_EQ(t().threads.tid[0], 1) << "RecordFunction's thread id";
  for (size_t i = 0; i < t().ranges.size(); ++i) ASSERT_EQ(t().ranges.thread_id[i], 0);

  EXPECT_EQ(t().getMeta("source_format"), "pytorch-autograd-legacy");
  EXPECT_EQ(t().getMeta("clock"), "session");
  // The first event: {"name": "aten::zeros", "ph": "X", "ts": 112, "dur": 27, ...}.
  EXPECT_EQ(t().ranges.ts[0], 112000);
  EXPECT_EQ(t().ranges.dur[0], 27000);
  EXPECT_EQ(t().strings.get(t().ranges.name[0]), "aten::zeros");
  EXPECT_EQ(t().ranges.args[0], "") << "export_chrome_trace writes \"args\": {}";
}

TEST_F(LegacyFixture, ProfilerStepsAreUserAnnotationsAtTheTop) {
  for (int n = 1; n <= 4; ++n) {
    const auto rows = rangesNamed(t(), "ProfilerStep#" + std::to_string(n));
    ASSERT_EQ(rows.size(), 1u) << n;
    EXPECT_EQ(category(t(), rows[0]), "user_annotation");
    EXPECT_EQ(t().ranges.depth[rows[0]], 0);
  }
  EXPECT_TRUE(rangesNamed(t(), "ProfilerStep#0").empty());
  EXPECT_TRUE(rangesNamed(t(), "ProfilerStep#5").empty());
  // ProfilerStep#1: {"ts": 154, "dur": 73751}.
  const size_t first = rangesNamed(t(), "ProfilerStep#1")[0];
  EXPECT_EQ(t().ranges.ts[first], 154000);
  EXPECT_EQ(t().ranges.dur[first], 73751000);
}

TEST_F(LegacyFixture, DataLoaderAndOptimizerRangesNestInTheirStep) {
  const auto loader =
      rangesNamed(t(), "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
  ASSERT_EQ(loader.size(), 4u);
  for (size_t row : loader) {
    EXPECT_EQ(category(t(), row), "user_annotation");
    EXPECT_EQ(t().ranges.depth[row], 1);
    EXPECT_EQ(parentName(t(), row).substr(0, 13), "ProfilerStep#");
    // The Dataset's Python work: most of the step (72 of 74 ms in step 1).
    EXPECT_GT(t().ranges.dur[row], t().ranges.dur[t().ranges.parent_id[row]] * 9 / 10);
  }
  for (const char* name : {"Optimizer.step#SGD.step", "Optimizer.zero_grad#SGD.zero_grad"}) {
    const auto rows = rangesNamed(t(), name);
    ASSERT_EQ(rows.size(), 4u) << name;
    for (size_t row : rows) {
      EXPECT_EQ(category(t(), row), "user_annotation") << name;
      EXPECT_EQ(parentName(t(), row).substr(0, 13), "ProfilerStep#") << name;
    }
  }
  // SGD's update runs inside its step range.
  size_t updates = 0;
  for (size_t row : rangesNamed(t(), "aten::add_")) {
    updates += parentName(t(), row) == "Optimizer.step#SGD.step";
  }
  EXPECT_GT(updates, 0u);
}

TEST_F(LegacyFixture, OpsAndAutogradNodesAreCpuOpsNestedAsRecorded) {
  for (size_t row : rangesNamed(t(), "aten::addmm")) {
    EXPECT_EQ(category(t(), row), "cpu_op");
    EXPECT_EQ(parentName(t(), row), "aten::linear");
  }
  for (size_t row : rangesNamed(t(), "AddmmBackward0")) {
    EXPECT_EQ(category(t(), row), "cpu_op");
    EXPECT_EQ(parentName(t(), row), "autograd::engine::evaluate_function: AddmmBackward0");
  }
  // torch.tensor() in the Dataset detaches its result: VariableTypeManual.cpp
  // records "detach_" by that bare name, inside the dispatcher's aten::detach_.
  // Where truncation ended aten::detach_ at the very µs detach_ starts, the
  // two read as siblings (as they would for any op and the next): not guessed.
  const auto detach = rangesNamed(t(), "detach_");
  ASSERT_EQ(detach.size(), 68u);
  int nested = 0;
  for (size_t row : detach) {
    EXPECT_EQ(category(t(), row), "cpu_op");
    if (parentName(t(), row) == "aten::detach_") {
      ++nested;
    } else {
      ASSERT_GT(row, 0u);
      EXPECT_EQ(t().strings.get(t().ranges.name[row - 1]), "aten::detach_");
      EXPECT_EQ(t().ranges.ts[row - 1] + t().ranges.dur[row - 1], t().ranges.ts[row]);
      EXPECT_EQ(t().ranges.parent_id[row], t().ranges.parent_id[row - 1]);
    }
  }
  EXPECT_EQ(nested, 61);
  std::map<std::string_view, int64_t> by_category;
  for (size_t i = 0; i < t().ranges.size(); ++i) {
    ++by_category[category(t(), i)];
    // Every range lies inside its parent, the 9 overhanging ones clipped.
    EXPECT_FALSE(t().ranges.depth[i] > 0 && isNull(t().ranges.parent_id[i]))
        << t().strings.get(t().ranges.name[i]) << " overlaps without being contained";
  }
  EXPECT_EQ(by_category.size(), 2u);
  EXPECT_EQ(by_category["user_annotation"], 16);  // 4 steps, 4 loader, 4 + 4 optimizer
  EXPECT_EQ(by_category["cpu_op"], 944);
  // One that overhung: {"name": "aten::to", "ts": 73814, "dur": 7} holds
  // {"name": "aten::_to_copy", "ts": 73815, "dur": 7}, now ended with it.
  const auto copies = rangesNamed(t(), "aten::_to_copy");
  const auto clipped = std::find_if(copies.begin(), copies.end(),
                                    [&](size_t row) { return t().ranges.ts[row] == 73815000; });
  ASSERT_NE(clipped, copies.end());
  EXPECT_EQ(t().ranges.dur[*clipped], 6000);
  EXPECT_EQ(parentName(t(), *clipped), "aten::to");
}

// The repair on its own: only overhangs up to 1 µs are the truncation's.
TEST(LegacyAutogradImport, OnlyOverhangsOfUpTo1UsAreClipped) {
  TempDir dir;
  const std::string trace = dir.file("overhang.json");
  testing::writeFile(trace, R"([
    {"name": "outer", "ph": "X", "ts": 100, "dur": 10, "tid": 1, "pid": "CPU functions", "args": {}},
    {"name": "aten::a", "ph": "X", "ts": 101, "dur": 10, "tid": 1, "pid": "CPU functions", "args": {}},
    {"name": "aten::b", "ph": "X", "ts": 112, "dur": 10, "tid": 1, "pid": "CPU functions", "args": {}},
    {"name": "aten::c", "ph": "X", "ts": 113, "dur": 11, "tid": 1, "pid": "CPU functions", "args": {}},
    {"name": "other thread", "ph": "X", "ts": 105, "dur": 20, "tid": 2, "pid": "CPU functions", "args": {}}
  ])");
  auto result = importTrace(trace);
  ASSERT_TRUE(result.ok()) << result.error().message();
  const TraceTables& t = result.value();
  EXPECT_EQ(t.getStat("kineto.legacy_clipped_ends"), 1);
  const size_t a = rangesNamed(t, "aten::a")[0], c = rangesNamed(t, "aten::c")[0];
  EXPECT_EQ(t.ranges.dur[a], 9000) << "1 µs over outer: clipped";
  EXPECT_EQ(parentName(t, a), "outer");
  EXPECT_EQ(t.ranges.dur[c], 11000) << "2 µs over aten::b: a real overlap, kept";
  EXPECT_TRUE(isNull(t.ranges.parent_id[c]));
  EXPECT_EQ(t.ranges.dur[rangesNamed(t, "other thread")[0]], 20000) << "threads apart";
}

TEST(LegacyAutogradCli, InfoSaysWhatTheTraceIs) {
  const CommandResult r = damscope("info " + fixture());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* expected :
       {"(PyTorch legacy autograd profiler JSON)", "after the capture started", "pid unknown",
        "1 thread", "no GPU activity",
        "ranges                   960  (cpu_op 944, user_annotation 16)"}) {
    EXPECT_NE(r.out.find(expected), std::string::npos) << expected << " in\n" << r.out;
  }
  EXPECT_EQ(r.out.find("1970"), std::string::npos) << "no date from a session clock";

  const CommandResult json = damscope("info --json " + fixture());
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const nlohmann::json j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["format"], "PyTorch legacy autograd profiler JSON");
  EXPECT_TRUE(j["processes"][0]["pid"].is_null());
  EXPECT_EQ(j["meta"]["source_format"], "pytorch-autograd-legacy");
}

TEST(LegacyAutogradCli, AnalyzeFindsTheProfilerSteps) {
  const CommandResult r = damscope("analyze --no-store --format json " + fixture());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["ranks"].size(), 1u);
  const nlohmann::json& steps = j["ranks"][0]["steps"];
  ASSERT_EQ(steps.size(), 4u);
  EXPECT_EQ(steps[0]["start_ns"], 154000);
  EXPECT_EQ(steps[0]["dur_ns"], 73751000);
}

// The fixture's Dataset does its work in Python on the training thread: the
// aten ops are the cpu device's work (docs/analysis.md, "CPU runs"), the
// DataLoader's iteration is a data stall, and the run is data-bound.
TEST(LegacyAutogradCli, ACpuOnlyRunGetsItsDataStallsAndVerdict) {
  const CommandResult r = damscope("analyze --no-store --format json " + fixture());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json rank = nlohmann::json::parse(r.out)["ranks"][0];
  EXPECT_EQ(rank["device_kind"], "cpu");
  EXPECT_EQ(rank["verdict"], "data-bound");
  EXPECT_GT(rank["scorecard"]["data_stall"].get<double>(), 90.0);
  bool data_gap = false;
  for (const nlohmann::json& f : rank["findings"]) data_gap |= f["rule"] == "data_loading";
  EXPECT_TRUE(data_gap);
}

// Variants of the format that no profiler writes: each is refused whole
// (exit 2, one line naming the file and the event), and nothing is written.
TEST(LegacyAutogradCli, HostileInputsFailWithOneLineAndNoOutput) {
  TempDir dir;
  constexpr const char* kFirst =
      R"({"name": "ProfilerStep#1", "ph": "X", "ts": 10, "dur": 100, "tid": 1, "pid": "CPU functions", "args": {}})";
  const std::pair<std::string, std::string> cases[] = {
      // A Kineto event (numeric pid, a category) after a legacy one.
      {std::string("[") + kFirst +
           R"(, {"name": "aten::mm", "ph": "X", "ts": 20, "dur": 5, "tid": 1, "pid": 4242, "args": {}}])",
       "has pid 4242, not \"CPU functions\": the events of two profilers mixed"},
      {std::string("[") + kFirst +
           R"(, {"name": "aten::mm", "ph": "X", "cat": "cpu_op", "ts": 20, "dur": 5, "tid": 1, "pid": "CPU functions"}])",
       "has category \"cpu_op\""},
      // The string pid with a tid that is no thread id.
      {std::string("[") + kFirst +
           R"(, {"name": "aten::mm", "ph": "X", "ts": 20, "dur": 5, "tid": "main", "pid": "CPU functions", "args": {}}])",
       "has tid \"main\", which is not a thread id"},
      {std::string("[") + kFirst +
           R"(, {"name": "aten::mm", "ph": "X", "ts": 20, "dur": 5, "tid": [1], "pid": "CPU functions", "args": {}}])",
       "has tid missing or not a string or number"},
      // PyTorch writes names unescaped: a quote in one breaks the JSON.
      {std::string("[") + kFirst +
           R"(, {"name": "say "hi"", "ph": "X", "ts": 20, "dur": 5, "tid": 1, "pid": "CPU functions", "args": {}}])",
       "invalid legacy autograd profiler trace at byte"},
      // Top-level arrays of junk.
      {R"([1, "two", null, [3], true])",
       "none of the 5 entries of the event array is a trace event"},
      {R"([{"name": "x"}, {"pid": "CPU functions"}])", "none of the 2 entries"},
  };
  int n = 0;
  for (const auto& [text, expected] : cases) {
    const std::string trace = dir.file("bad" + std::to_string(n) + ".json");
    const std::string store = dir.file("bad" + std::to_string(n++) + ".db");
    testing::writeFile(trace, text);
    const CommandResult r = damscope("import -o " + store + " " + trace);
    EXPECT_EQ(r.exit_code, 2) << text << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(trace + ": "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(expected), std::string::npos) << expected << " in " << r.err;
    EXPECT_FALSE(std::filesystem::exists(store)) << text;
  }
}

// An error quotes the event's name escaped and cut, whatever the name holds.
TEST(LegacyAutogradImport, ErrorsQuoteNamesEscapedAndCut) {
  const std::string name = "line\\nbreak " + std::string(200, 'x');
  std::string json =
      R"([{"name": "ProfilerStep#1", "ph": "X", "ts": 1, "dur": 9, "tid": 1, "pid": "CPU functions"},
          {"name": ")" +
      name + R"(", "ph": "X", "ts": 2, "dur": 1, "tid": 1, "pid": "1234"}])";
  auto result = importKinetoJson(json, "long.json");
  ASSERT_FALSE(result.ok());
  const std::string& message = result.error().message();
  EXPECT_NE(message.find("event \"line\\nbreak xxx"), std::string::npos) << message;
  EXPECT_NE(message.find("xxx...\" has pid \"1234\", not"), std::string::npos) << message;
  EXPECT_EQ(message.find(std::string(100, 'x')), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos);
}

// What the format may hold besides CPU events, and times the store refuses:
// counted in stats, not stored, the rest imported.
TEST(LegacyAutogradImport, GpuSpansRemoteEventsAndBadTimesAreCounted) {
  TempDir dir;
  const std::string trace = dir.file("odd.json");
  testing::writeFile(trace, R"([
    {"name": "aten::mm", "ph": "X", "ts": 10.5, "dur": 2.25, "tid": 3, "pid": "CPU functions", "args": {}},
    {"name": "aten::mm", "ph": "s", "ts": 10.5, "tid": 3, "pid": "CPU functions", "id": 0, "cat": "cpu_to_cuda", "args": {}},
    {"name": "aten::mm", "ph": "f", "ts": 11, "tid": 0, "pid": "CUDA functions", "id": 0, "cat": "cpu_to_cuda", "args": {}, "bp": "e"},
    {"name": "aten::mm", "ph": "X", "ts": 11, "dur": 1, "tid": 0, "pid": "CUDA functions", "args": {}},
    {"name": "rpc_async#udf", "ph": "X", "ts": 12, "dur": 1, "tid": " node_id:1, thread_id:7 ", "pid": "CPU functions", "args": {}},
    {"name": "far", "ph": "X", "ts": 9000000000000000, "dur": 1, "tid": 3, "pid": "CPU functions", "args": {}},
    {"name": "no ts", "ph": "X", "dur": 1, "tid": 3, "pid": "CPU functions", "args": {}},
    {"name": "negative", "ph": "X", "ts": 20, "dur": -4, "tid": 3, "pid": "CPU functions", "args": {}}
  ])");
  auto result = importTrace(trace);
  ASSERT_TRUE(result.ok()) << result.error().message();
  const TraceTables& t = result.value();
  ASSERT_EQ(t.ranges.size(), 2u);
  EXPECT_EQ(t.ranges.ts[0], 10500);
  EXPECT_EQ(t.ranges.dur[0], 2250);
  EXPECT_EQ(t.strings.get(t.ranges.name[1]), "negative");
  EXPECT_EQ(t.ranges.dur[1], 0);
  EXPECT_EQ(t.getStat("kineto.flow_events"), 2);
  EXPECT_EQ(t.getStat("kineto.legacy_cuda_events"), 1);
  EXPECT_EQ(t.getStat("kineto.legacy_remote_events"), 1);
  EXPECT_EQ(t.getStat("kineto.events_outside_time_range"), 1);
  EXPECT_EQ(t.getStat("kineto.events_without_ts"), 1);
  EXPECT_EQ(t.getStat("kineto.bad_durations"), 1);
  EXPECT_EQ(t.threads.tid[0], 3);
}

// A Kineto trace in the bare array format stays a Kineto trace, and an empty
// capture is still accepted.
TEST(LegacyAutogradImport, OnlyTheFirstEventsPidMakesADocumentLegacy) {
  TempDir dir;
  testing::writeFile(
      dir.file("kineto.json"),
      R"([{"ph": "X", "cat": "cpu_op", "name": "op", "pid": 1, "tid": 1, "ts": 1, "dur": 1},
                         {"ph": "X", "name": "stray", "pid": "CPU functions", "tid": 1, "ts": 2, "dur": 1}])");
  auto kineto = importTrace(dir.file("kineto.json"));
  ASSERT_TRUE(kineto.ok()) << kineto.error().message();
  EXPECT_EQ(kineto->getMeta("source_format"), "kineto");
  EXPECT_EQ(kineto->getStat("kineto.ranges_without_thread"), 1);

  testing::writeFile(dir.file("empty.json"), "[]");
  auto empty = importTrace(dir.file("empty.json"));
  ASSERT_TRUE(empty.ok()) << empty.error().message();
  EXPECT_EQ(empty->ranges.size(), 0u);
}

TEST(LegacyRangeCategory, NamesDecideAsKinetoScopesWould) {
  for (const char* op :
       {"aten::addmm", "autograd::engine::evaluate_function: AddmmBackward0",
        "torch::autograd::AccumulateGrad", "AddmmBackward0", "ReluBackward1", "CopyBackwards",
        "MyFunctionBackward", "detach_", "detach", "record_param_comms", "c10d::allreduce_"}) {
    EXPECT_EQ(legacyRangeCategory(op), "cpu_op") << op;
  }
  for (const char* annotation :
       {"ProfilerStep#12", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
        "Optimizer.step#SGD.step", "Optimizer.zero_grad#Adam.zero_grad", "## forward ##", "forward",
        "Backwardness", "detach_all", ""}) {
    EXPECT_EQ(legacyRangeCategory(annotation), "user_annotation") << annotation;
  }
}

// The oracle: on the real Kineto traces, which carry the category the scope
// gave, the rule agrees on every host op and annotation but the forward
// calls of custom autograd Functions, which Kineto records as cpu_op under
// their class name. (The 2021 traces call everything "Operator": no oracle.)
TEST(LegacyRangeCategory, AgreesWithKinetoOnTheSharedTraces) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  const std::set<std::string_view> custom_functions = {"CompiledFunction", "All2All_Pooled_Req",
                                                       "All2All_Pooled_Wait"};
  int64_t checked = 0, agreed = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(testing::sharedTracesDir() + "/kineto")) {
    const std::string file = entry.path().filename().string();
    if (file.starts_with("resnet50_")) continue;
    auto result = importTrace(entry.path().string());
    ASSERT_TRUE(result.ok()) << result.error().message();
    const TraceTables& t = result.value();
    for (size_t i = 0; i < t.ranges.size(); ++i) {
      const std::string_view kineto = t.strings.get(t.ranges.category[i]);
      if (kineto != "cpu_op" && kineto != "user_annotation") continue;
      const std::string_view name = t.strings.get(t.ranges.name[i]);
      ++checked;
      if (legacyRangeCategory(name) == kineto) {
        ++agreed;
      } else {
        EXPECT_TRUE(custom_functions.count(name) && kineto == "cpu_op")
            << file << ": \"" << name << "\" is " << kineto << " in Kineto";
      }
    }
  }
  EXPECT_GT(checked, 150000);
  std::cout << "legacyRangeCategory agrees with Kineto on " << agreed << " of " << checked
            << " host ranges\n";
}

}  // namespace
}  // namespace damscope
