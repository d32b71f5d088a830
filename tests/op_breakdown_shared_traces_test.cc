// Parity of `damscope ops --by annotation` with HTA on the shared traces:
// GPU time per GPU user annotation name equals HTA's
// get_gpu_user_annotation_breakdown(use_gpu_annotation=True) "sum" within
// 0.1 %. Skips when ../shared/traces is absent.
//
// The reference figures were computed from the trace files themselves with
// a short Python script that mirrors HTA's definition
// (HolisticTraceAnalysis @f4d0062c, hta/analyzers/breakdown_analysis.py:
// the events of category gpu_user_annotation, grouped by name, "dur"
// summed): every complete ("ph": "X") event with "cat" ==
// "gpu_user_annotation", its "dur" (µs) parsed as an exact decimal and summed
// per name. That is HTA at full precision (HTA_DISABLE_NS_ROUNDING=1), which
// a nanosecond tool must reproduce (../shared/traces/README.md, "Precision").
// HTA reads the whole trace, so the table is taken with WindowMode::kAll.
#include <gtest/gtest.h>

#include <map>

#include "analyzer/importers/trace_import.h"
#include "analyzer/pipeline/op_analysis.h"
#include "tests/test_support.h"

namespace damscope {
namespace {

using Sums = std::map<std::string, int64_t>;  // name -> ns

void expectHtaParity(const std::string& trace, const Sums& hta) {
  auto tables = importTrace(testing::sharedTrace(trace));
  ASSERT_TRUE(tables.ok()) << tables.error().message();
  AnalysisOptions options;
  options.window.mode = WindowMode::kAll;
  OpBreakdownOptions ops;
  ops.grouping = OpGrouping::kAnnotation;
  auto table = analyseOps(tables.value(), options, ops);
  ASSERT_TRUE(table.ok());
  Sums ours;
  for (const OpRow& row : table->rows) ours[row.name] = row.gpu_total_ns;
  ASSERT_EQ(ours.size(), hta.size()) << trace;
  for (const auto& [name, ns] : hta) {
    ASSERT_TRUE(ours.count(name)) << trace << ": no row " << name;
    EXPECT_NEAR(static_cast<double>(ours[name]), static_cast<double>(ns), 1e-3 * ns)
        << trace << ": " << name;
  }
}

TEST(OpBreakdownHtaParity, GpuUserAnnotationsOfNccl2RankA100) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  expectHtaParity("kineto/nccl_2rank_a100.json.gz",
                  {{"DistributedDataParallel.forward", 292'764'153},  // 3 events
                   {"nccl:all_reduce", 46'784'659},                   // 15
                   {"Optimizer.step#SGD.step", 28'206'874},           // 3
                   {"## backward ##", 1'911'193},                     // 3
                   {"nccl:broadcast", 123'334}});                     // 6
}

TEST(OpBreakdownHtaParity, GpuUserAnnotationsOfNsResolutionV100) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  expectHtaParity("kineto/ns_resolution_v100.json.gz",
                  {{"DistributedDataParallel.forward", 154'345'805},  // 5 events
                   {"Optimizer.step#SGD.step", 5'565'191},            // 5
                   {"## backward ##", 138'341}});                     // 5
}

// Every GPU operation of the resnet50 trace has its launch call, and every
// launch lies in a framework op: the op table accounts for all GPU time.
TEST(OpBreakdownSharedTraces, Resnet50OpsHoldEveryGpuOperation) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  auto tables = importTrace(testing::sharedTrace("kineto/resnet50_workers0.pt.trace.json.gz"));
  ASSERT_TRUE(tables.ok());
  auto table = analyseOps(tables.value(), {}, {});
  ASSERT_TRUE(table.ok());
  EXPECT_EQ(table->unattributed_ops, 0);
  EXPECT_EQ(table->outside_ops, 0);
  int64_t self = 0;
  for (const OpRow& row : table->rows) self += row.gpu_self_ns;
  EXPECT_EQ(self, table->gpu_ns);  // each operation is some op's self time, once
  ASSERT_FALSE(table->rows.empty());
  EXPECT_EQ(table->rows[0].name, "CudnnConvolutionBackward");
}

}  // namespace
}  // namespace damscope
