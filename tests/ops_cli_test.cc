// `damscope ops` as a user runs it: a table per trace with the figures of
// the attribution (op_breakdown_test.cc checks them in depth), the JSON
// document's fields, --by/--sort/--top, and bad input rejected with exit
// code 2 and one line.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/test_support.h"

namespace damscope {
namespace {

using testing::CommandResult;
using testing::runCommand;
using testing::TempDir;

CommandResult damscope(const std::string& args) {
  return runCommand(testing::damscopeBinary() + " " + args);
}

// aten::linear [0,100) holds aten::addmm [10,60), which launches a 40 µs
// GEMM; aten::relu [100,120) launches a 10 µs kernel; an NVTX-like
// user_annotation "block" [0,200) holds them all.
constexpr const char* kTrace = R"({"traceEvents":[
 {"ph":"X","cat":"user_annotation","name":"block","pid":1,"tid":1,"ts":0,"dur":200},
 {"ph":"X","cat":"cpu_op","name":"aten::linear","pid":1,"tid":1,"ts":0,"dur":100},
 {"ph":"X","cat":"cpu_op","name":"aten::addmm","pid":1,"tid":1,"ts":10,"dur":50},
 {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":20,"dur":5,
  "args":{"correlation":1}},
 {"ph":"X","cat":"cpu_op","name":"aten::relu","pid":1,"tid":1,"ts":100,"dur":20},
 {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":105,"dur":5,
  "args":{"correlation":2}},
 {"ph":"X","cat":"kernel","name":"sgemm","pid":0,"tid":7,"ts":30,"dur":40,
  "args":{"correlation":1,"device":0,"stream":7}},
 {"ph":"X","cat":"kernel","name":"relu_kernel","pid":0,"tid":7,"ts":110,"dur":10,
  "args":{"correlation":2,"device":0,"stream":7}}
]})";

TEST(OpsCli, PrintsTheOpTableLargestGpuTimeFirst) {
  TempDir dir;
  const std::string trace = dir.file("ops.json");
  testing::writeFile(trace, kTrace);
  CommandResult r = damscope("ops --no-store " + trace);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const size_t linear = r.out.find("aten::linear");
  const size_t addmm = r.out.find("aten::addmm");
  const size_t relu = r.out.find("aten::relu");
  ASSERT_NE(relu, std::string::npos) << r.out;
  EXPECT_LT(addmm, linear);  // ties on GPU time (40 µs) break by name
  EXPECT_LT(linear, relu);
  EXPECT_NE(r.out.find("By op: 3 rows"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("40.0 µs"), std::string::npos) << r.out;
  EXPECT_TRUE(r.err.empty() || r.err.find("damscope:") == std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("ops.db")));  // --no-store wrote nothing
}

TEST(OpsCli, JsonHasTheDocumentedFields) {
  TempDir dir;
  const std::string trace = dir.file("ops.json");
  testing::writeFile(trace, kTrace);
  CommandResult r = damscope("ops --no-store --format json --by leaf-op --sort cpu --top 2 " +
                             trace);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["ranks"].size(), 1u);
  const nlohmann::json& rank = doc["ranks"][0];
  EXPECT_EQ(rank["input"], trace);
  EXPECT_EQ(rank["grouping"], "leaf-op");
  EXPECT_EQ(rank["gpu_ops"], 2);
  EXPECT_EQ(rank["gpu_ns"], 50000);
  EXPECT_EQ(rank["row_count"], 3);
  ASSERT_EQ(rank["rows"].size(), 2u);  // --top 2
  // By host self time: addmm 50 µs, linear 100 - 50 = 50 µs, relu 20 µs.
  EXPECT_EQ(rank["rows"][0]["name"], "aten::addmm");
  EXPECT_EQ(rank["rows"][0]["cpu_total_ns"], 50000);
  EXPECT_EQ(rank["rows"][0]["gpu_self_ns"], 40000);
  EXPECT_EQ(rank["rows"][1]["name"], "aten::linear");
  EXPECT_EQ(rank["rows"][1]["gpu_total_ns"], 0);
  for (const char* field : {"calls", "gpu_ops", "gpu_total_pct", "cpu_self_ns", "cpu_total_pct",
                            "flops", "achieved_flops_per_s", "memory_bound", "shapes"}) {
    EXPECT_TRUE(rank["rows"][0].contains(field)) << field;
  }

  r = damscope("ops --no-store --format json --by range " + trace);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json ranges = nlohmann::json::parse(r.out)["ranks"][0]["rows"];
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_EQ(ranges[0]["name"], "block");
  EXPECT_EQ(ranges[0]["gpu_total_ns"], 50000);
}

TEST(OpsCli, BadInputIsOneLineAndExitCode2) {
  TempDir dir;
  const std::string trace = dir.file("ops.json");
  testing::writeFile(trace, kTrace);
  for (const std::string& args :
       {"ops --no-store --by kernel " + trace, "ops --no-store --sort name " + trace,
        "ops --no-store --format xml " + trace, "ops --no-store --top -1 " + trace,
        "ops --no-store --window sideways " + trace,
        "ops --no-store " + dir.file("missing.json")}) {
    CommandResult r = damscope(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_EQ(r.err.find("damscope: "), 0u) << args << ": " << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << args << ": " << r.err;
  }
}

}  // namespace
}  // namespace damscope
