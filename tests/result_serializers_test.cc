// The serializers of the result model (analyzer/report/): the text and JSON
// of a stored result equal those of the fresh one, lost data shows in every
// output and qualifies the verdict, and stored rows that a damaged or edited
// run.db holds are refused with the table and row named.
#include <gtest/gtest.h>

#include "analyzer/report/result_json.h"
#include "analyzer/report/result_rows.h"
#include "analyzer/report/result_text.h"
#include "tests/trace_builder.h"

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
