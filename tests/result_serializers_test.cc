// The serializers of the result model (analyzer/report/): the text and JSON
// of a stored result equal those of the fresh one, lost data shows in every
// output and qualifies the verdict, and stored rows that a damaged or edited
// run.db holds are refused with the table and row named.
#include <gtest/gtest.h>

#include "analyzer/report/result_json.h"
#include "analyzer/report/result_text.h"
#include "analyzer/result/analysis_store.h"
#include "analyzer/result/result_rows.h"
#include "tests/test_support.h"
#include "tests/trace_builder.h"
#include "trace/trace_writer.h"

namespace damscope {
namespace {

RankResult resultOf(const TraceTables& tables) {
  return buildRankResult(analyzeRank(tables, {}).value(), "golden.json", {});
}

TraceTables lossyTrace(int64_t dropped) {
  TraceTables t = testing::goldenStepTrace();
  t.addStat("collector.dropped_records", dropped, "lost while recording");
  t.addStat("collector.negative_durations", 2, "stored with dur 0");
  return t;
}

TEST(ResultSerializers, AStoredResultRendersLikeTheFreshOne) {
  const RankResult fresh = resultOf(lossyTrace(3));
  auto stored = toRankResult(toAnalysisTables(fresh), "");
  ASSERT_TRUE(stored.ok()) << stored.error().message();
  EXPECT_EQ(formatRankSummary(stored->rank), formatRankSummary(fresh));
  EXPECT_EQ(rankJson(stored->rank), rankJson(fresh));
}

TEST(ResultSerializers, LostDataShowsInEveryOutput) {
  const RankResult clean = resultOf(testing::goldenStepTrace());
  EXPECT_EQ(formatRankSummary(clean).find("Trace    "), std::string::npos)
      << "nothing lost: no line";
  EXPECT_FALSE(clean.verdict_may_be_off);

  // 3 lost of ~20 events: more than 1 %, the verdict is qualified.
  const RankResult lossy = resultOf(lossyTrace(3));
  const std::string text = formatRankSummary(lossy);
  EXPECT_NE(text.find("Trace    3 events lost"), std::string::npos) << text;
  EXPECT_NE(text.find("2 repaired or clipped"), std::string::npos) << text;
  EXPECT_NE(text.find("caution:"), std::string::npos) << text;
  EXPECT_LT(text.find("caution:"), text.find("Where the step time goes")) << "with the verdict";
  EXPECT_NE(text.find("about the trace, not the run"), std::string::npos) << text;
  EXPECT_NE(text.find("stats collector.dropped_records, collector.negative_durations"),
            std::string::npos)
      << text;
  const nlohmann::json json = rankJson(lossy);
  EXPECT_TRUE(json["verdict_may_be_off"].get<bool>());
  EXPECT_EQ(json["data_loss"]["lost"], 3);
  EXPECT_EQ(json["data_loss"]["counts"].size(), 2u);
  bool trace_quality = false;
  for (const auto& f : json["findings"]) trace_quality |= f["kind"] == "trace_quality";
  EXPECT_TRUE(trace_quality);
  const AnalysisTables rows = toAnalysisTables(lossy);
  EXPECT_EQ(rows.summary.verdict_may_be_off[0], 1);
  EXPECT_EQ(rows.data_loss.size(), 2u);
}

TEST(ResultSerializers, MoreFindingsThanShownAreCountedInTheFrontEndsWords) {
  RankResult r = resultOf(testing::goldenStepTrace());
  ASSERT_GT(r.findings.findings.size(), 2u);
  SummaryTextOptions text;
  text.max_findings = 2;
  text.more_findings = "in the report";
  const std::string out = formatRankSummary(r, text);
  EXPECT_NE(out.find("(" + std::to_string(r.findings.findings.size() - 2) + " more in the report)"),
            std::string::npos)
      << out;
}

// A result in which every stored figure is known: the golden trace analysed
// with a model (so MFU and the memory estimate are there), and by hand what
// that small trace cannot give.
RankResult everyFigureKnown() {
  AnalysisOptions options;
  ModelShape model{"test-model", 7e9, 32, 4096, 32, 2048, 50257};
  options.mfu.model = model;
  options.steps.tokens_per_step = 4096;
  options.steps.samples_per_step = 2;
  options.device.peak_flops_per_s = 312e12;
  options.device.bandwidth_bytes_per_s = 2e12;
  TraceTables trace = testing::goldenStepTrace();
  trace.addStat("collector.dropped_records", 3, "lost while recording");
  RankResult r = buildRankResult(analyzeRank(trace, options).value(), "golden", options);
  r.rank = 3, r.world_size = 8;
  r.window.cutoff_ns = 12345;
  r.mfu.precision.share_pct = 97.5;
  r.mfu.impossible_pct = 140.0;
  r.mfu.likely_wrong = "the tokens per step";
  r.mfu.mfu_pct = 45.0, r.mfu.hardware_flops_per_step = 1e12, r.mfu.hfu_pct = 12.5;
  r.mfu.op_shapes_coverage_pct = 91.5, r.mfu.hardware_flops_window = 3e12;
  for (StepMfu& m : r.mfu.steps) m.mfu_pct = 40.0, m.hardware_flops = 2e12, m.hfu_pct = 25.0;
  if (r.memory) r.memory->device_bytes = 80e9, r.memory->pct_of_device = 50.0;
  for (DeviceUtilization& u : r.utilization.devices) u.sm_efficiency_pct = 80, u.occupancy_pct = 40;
  OpRow op;
  op.name = "aten::mm", op.shapes = "[[64,128],[128,32]]", op.calls = 4, op.gpu_ops = 4;
  op.gpu_total_ns = op.gpu_self_ns = 400, op.gpu_total_pct = 12.5, op.cpu_total_pct = 3;
  op.cpu_total_ns = 90, op.cpu_self_ns = 60, op.flops = 2e9, op.flop_time_ns = 400,
  op.unplaced_ns = 0;
  op.achieved_flops_per_s = 5e12, op.intensity = 20, op.ceiling_flops_per_s = 4e13;
  op.pct_of_ceiling = 12.5, op.memory_bound = true;
  r.top_ops.push_back(op);
  RooflinePoint point;
  point.name = "volta_sgemm", point.category = KernelCategory::kGemm, point.kernels = 2;
  point.time_ns = 100, point.flops = 1e9, point.bytes = 1e6, point.intensity = 1e3;
  point.achieved_flops_per_s = 1e13, point.ceiling_flops_per_s = 3e13, point.pct_of_ceiling = 33;
  point.memory_bound = false, point.example_kernel_id = 4;
  r.roofline.kernels.push_back(point);
  point.name = "gemm";
  r.roofline.classes.push_back(point);
  r.roofline.ceilings.push_back({Precision::kFp32, 15.7e12, 17.5});
  r.roofline.collectives.push_back({"allreduce", 4, 1000, 1e9, 1e12, 1.5e11, 66.6});
  r.collective_names = {"ncclKernel_AllReduce"};
  r.collective_starts = {{0, 100}, {0, 200}};
  // A kernel lint's reading, so that finding_evidence.detail holds a value.
  r.findings.findings.at(0).evidence.at(0).detail =
      "1.03 waves: 33 blocks on 32 SMs x 1 block per SM";
  r.findings.findings.at(0).evidence.at(0).op = "aten::mm";
  r.findings.findings.at(0).evidence.at(0).module = "model.layers.0.mlp";
  r.findings.findings.at(0).projection = PathProjection{38.7, 180'000'000, 111'300'000};
  r.notes.push_back({"mfu", "a note", Remedy::kTokens});
  r.comparison = RankComparison{3, "golden", 4, 1000, 2.5, true, 6, 30, 90, 50};
  return r;
}

// Every declared column is written (it holds a value in some row) and read
// back (the result read from a stored file equals the one written), through
// SQLite: a figure that one direction forgets shows here.
TEST(ResultSerializers, EveryDeclaredColumnIsWrittenAndReadBack) {
  const RankResult r = everyFigureKnown();
  const std::vector<RankComparison> job = {
      RankComparison{0, "rank0", 4, 900, 0, false, 6, 30, 90, 0}, *r.comparison};
  const AnalysisTables rows = toAnalysisTables(r, job, 1);
  rows.forEachTable([&](const auto& table) {
    ASSERT_FALSE(table.empty()) << table.kSqlName;
    table.forEachColumn([&](const char* name, const auto& column) {
      bool known = false;
      for (const auto& v : column) known = known || !isNull(v);
      EXPECT_TRUE(known) << table.kSqlName << "." << name << " is NULL in every row";
    });
  });

  testing::TempDir dir;
  const std::string path = dir.file("run.db");
  ASSERT_TRUE(saveTrace(testing::goldenStepTrace(), path, false).ok());
  ASSERT_TRUE(storeAnalysis(path, rows).ok());
  auto stored = readAnalysis(path);
  ASSERT_TRUE(stored.ok()) << stored.error().message();
  auto back = toRankResult(*stored, "");
  ASSERT_TRUE(back.ok()) << back.error().message();
  EXPECT_TRUE(back->rank == r) << "a figure does not read back as written";
  EXPECT_EQ(back->job, job);
  EXPECT_EQ(rankJson(back->rank), rankJson(r));
}

// Damage that a hand-edited or corrupted run.db can hold: each is refused,
// with the table and row, never a crash or a different result.
TEST(ResultSerializers, DamagedRowsAreRefusedWithTableAndRow) {
  const AnalysisTables good = toAnalysisTables(resultOf(testing::goldenStepTrace()));
  ASSERT_GT(good.findings.size(), 0u);
  ASSERT_GT(good.gaps.size(), 1u);
  struct Damage {
    const char* expect;
    void (*apply)(AnalysisTables&);
  };
  const Damage cases[] = {
      {"gaps row 1: cause \"nonsense\"", [](AnalysisTables& t) { t.gaps.cause[1] = "nonsense"; }},
      {"finding_evidence row 0: finding_id 999",
       [](AnalysisTables& t) { t.finding_evidence.finding_id[0] = 999; }},
      {"finding_evidence row 0: finding_id is NULL",
       [](AnalysisTables& t) { t.finding_evidence.finding_id[0] = kNullInt; }},
      {"summary row 0: expected one row, found 0", [](AnalysisTables& t) { t.summary.clear(); }},
      {"breakdown row 1: step_id 5 out of order",
       [](AnalysisTables& t) { t.breakdown.step_id[1] = 5; }},
      {"gaps row 0: step_id -3 names no row", [](AnalysisTables& t) { t.gaps.step_id[0] = -3; }},
      {"metrics row 0: name \"speed\"", [](AnalysisTables& t) { t.metrics.name[0] = "speed"; }},
      {"breakdown row 0: ts + dur is not a time",
       [](AnalysisTables& t) { t.breakdown.dur[0] = INT64_MAX; }},
      {"summary row 0: window_mode \"\"", [](AnalysisTables& t) { t.summary.window_mode[0] = ""; }},
  };
  for (const Damage& d : cases) {
    AnalysisTables rows = good;
    d.apply(rows);
    auto read = toRankResult(rows, "run.db");
    ASSERT_FALSE(read.ok()) << d.expect;
    EXPECT_EQ(read.error().message().find("run.db: stored analysis is corrupt: "), 0u)
        << read.error().message();
    EXPECT_NE(read.error().message().find(d.expect), std::string::npos) << read.error().message();
  }
  EXPECT_TRUE(toRankResult(good, "run.db").ok());
}

}  // namespace
}  // namespace damscope
