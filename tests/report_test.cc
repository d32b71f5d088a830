// The reports (analyzer/report/report_html.h, step_strip.h): every string
// from a trace is escaped in HTML and Markdown, no NaN or infinity reaches a
// document however empty the trace, the timeline strip shows the median step
// with its bubbles by cause and merges what it cannot draw apart, and the
// HTML of a real data-bound trace carries its verdict and evidence.
#include <gtest/gtest.h>

#include <regex>

#include "analyzer/pipeline/pipeline.h"
#include "analyzer/report/markup.h"
#include "analyzer/report/report_html.h"
#include "analyzer/report/result_json.h"
#include "analyzer/report/result_text.h"
#include "analyzer/report/step_strip.h"
#include "tests/test_support.h"
#include "tests/trace_builder.h"

namespace damscope {
namespace {

RunResult runOf(const TraceTables& tables) {
  RunResult run;
  run.ranks.push_back(buildRankResult(analyzeRank(tables, {}).value(), "t.json", {}));
  return run;
}

// No figure may read "nan" or "inf" (as a word: "information" is fine).
bool hasNonFinite(const std::string& document) {
  static const std::regex word(R"((^|[^A-Za-z])(nan|inf|-nan|-inf)([^A-Za-z]|$))",
                               std::regex::icase);
  return std::regex_search(document, word);
}

TEST(Report, NamesFromTheTraceAreEscaped) {
  const std::string evil = "<script>alert('x')</script>|*_`";
  testing::TraceBuilder b;
  b.device(0, 80);
  for (int s = 0; s < 4; ++s) {
    b.step(s * 1000, 1000, s + 1);
    b.launchKernel(s * 1000 + 10, s * 1000 + 50, 800, evil);
  }
  const RunResult run = runOf(b.build());
  const std::string html = renderHtmlReport(run, std::nullopt);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"), std::string::npos);

  const std::string md = renderMarkdownReport(run);
  for (size_t at = md.find('<'); at != std::string::npos; at = md.find('<', at + 1)) {
    EXPECT_TRUE(at > 0 && md[at - 1] == '\\') << "a bare < in Markdown at " << at << ":\n" << md;
  }
  EXPECT_NE(md.find("\\<script\\>"), std::string::npos);
  EXPECT_NE(md.find("\\|\\*\\_\\`"), std::string::npos);  // a table cell stays one cell
}

// Every rendering names the op and module behind a finding's evidence, from
// the one list result_words.h makes of them.
TEST(Report, FindingsSayWhichOpAndModuleIsBehindThem) {
  const RunResult run = runOf(testing::gemmInModuleTrace().build());
  const std::string words = "aten::mm in Linear_0";
  EXPECT_NE(formatRunSummary(run).find("behind it: " + words), std::string::npos);
  EXPECT_NE(renderMarkdownReport(run).find("behind it: aten::mm in Linear\\_0"), std::string::npos)
      << renderMarkdownReport(run);
  const std::string html = renderHtmlReport(run, std::nullopt);
  EXPECT_NE(html.find("Behind it: " + words), std::string::npos);
  EXPECT_NE(html.find("<td class=\"origin\">aten::mm · Linear_0</td>"), std::string::npos);
  const nlohmann::json findings = runJson(run)["ranks"][0]["findings"];
  bool found = false;
  for (const nlohmann::json& f : findings) {
    for (const nlohmann::json& o : f["evidence_origins"]) {
      found |= o["op"] == "aten::mm" && o["module"] == "Linear_0" && o["items"] == 1;
    }
  }
  EXPECT_TRUE(found) << findings.dump(1);
}

// Exposed communication says whether it is waiting for other ranks or
// transfer, and that one rank alone cannot tell.
TEST(Report, ExposedCommunicationIsSplitIntoWaitingAndTransfer) {
  RunResult run = runOf(testing::goldenStepTrace());
  RankResult& a = run.ranks.front();
  ASSERT_TRUE(a.scorecard);
  EXPECT_NE(renderHtmlReport(run, std::nullopt)
                .find("(waiting for other ranks versus transfer: needs the other ranks&#39; "
                      "traces)"),
            std::string::npos);
  RankComparison c;
  c.collectives = 4;
  c.waiting_pct = 10.5;
  c.transfer_pct = 2.5;
  a.comparison = c;
  EXPECT_NE(renderHtmlReport(run, std::nullopt)
                .find("exposed communication 13.0 % (waiting for other ranks 10.5 %, transfer "
                      "2.5 %)"),
            std::string::npos);
  EXPECT_NE(formatRunSummary(run).find("(waiting for other ranks 10.5 %, transfer 2.5 %)"),
            std::string::npos);
}

TEST(Report, EscapingCoversEveryMarkupCharacter) {
  EXPECT_EQ(htmlEscape("a&b<c>d\"e'f\x1bg"), "a&amp;b&lt;c&gt;d&quot;e&#39;fg");
  EXPECT_EQ(markdownEscape("x|y\nz#"), "x\\|y z\\#");
}

TEST(Report, AnEmptyTraceRendersWithoutNonFiniteFigures) {
  testing::TraceBuilder b;
  b.device(0, 80);
  b.range(0, 100, "just a host range");
  const RunResult run = runOf(b.build());
  const std::string html = renderHtmlReport(run, std::nullopt);
  const std::string md = renderMarkdownReport(run);
  EXPECT_FALSE(hasNonFinite(html)) << html;
  EXPECT_FALSE(hasNonFinite(md)) << md;
  EXPECT_NE(html.find("NO VERDICT"), std::string::npos);
  EXPECT_NE(html.find("not computed"), std::string::npos);  // MFU says it is missing
}

TEST(Report, ZeroDurationKernelsRenderWithoutNonFiniteFigures) {
  testing::TraceBuilder b;
  b.device(0, 80);
  for (int s = 0; s < 3; ++s) {
    b.step(s * 100, 100, s + 1);
    b.launchKernel(s * 100 + 1, s * 100 + 5, 0, "zero_kernel");
  }
  const TraceTables t = b.build();
  const RunResult run = runOf(t);
  const std::optional<StepStrip> strip = buildStepStrip(t, run.ranks.front());
  EXPECT_FALSE(hasNonFinite(renderHtmlReport(run, strip)));
  EXPECT_FALSE(hasNonFinite(renderMarkdownReport(run)));
}

TEST(StepStrip, ShowsTheMedianStepWithItsBubbles) {
  testing::TraceBuilder b;
  b.device(0, 80);
  // Steps of 1000, 3000 and 2000 µs (the median is step 3): each launches
  // one kernel after an idle stretch on the device.
  const double starts[] = {0, 1000, 4000, 6000};
  for (int s = 0; s < 3; ++s) {
    const double t0 = starts[s], dur = starts[s + 1] - starts[s];
    b.step(t0, dur, s + 1);
    b.launchKernel(t0 + 1, t0 + dur / 2, dur / 2 - 1, "volta_sgemm_128x64_nn");
  }
  b.step(6000, 1000, 4);  // cut off by the HTA window
  b.launchKernel(6001, 6500, 499, "volta_sgemm_128x64_nn");
  const TraceTables t = b.build();
  const RunResult run = runOf(t);
  const std::optional<StepStrip> strip = buildStepStrip(t, run.ranks.front());
  ASSERT_TRUE(strip);
  EXPECT_EQ(strip->step_number, 3);
  EXPECT_EQ(strip->steps_considered, 3);
  ASSERT_EQ(strip->rows.size(), 1u);
  ASSERT_EQ(strip->rows[0].spans.size(), 1u);
  EXPECT_EQ(strip->rows[0].spans[0].category, KernelCategory::kGemm);
  int64_t idle = 0;
  for (const StripBubble& bubble : strip->bubbles) {
    EXPECT_GE(bubble.ts, 0);
    EXPECT_LE(bubble.ts + bubble.dur, strip->dur);
    idle += bubble.dur;
  }
  EXPECT_GT(idle, 0);
  EXPECT_LT(idle, strip->dur);
  const std::string html = renderHtmlReport(run, strip);
  EXPECT_NE(html.find("A representative step"), std::string::npos);
  EXPECT_NE(html.find("ProfilerStep#3"), std::string::npos);
}

TEST(StepStrip, MergesWhatItCannotDrawApart) {
  testing::TraceBuilder b;
  b.device(0, 80);
  b.step(0, 10000, 1);
  // 5000 kernels of 1 µs, 1 µs apart: far narrower than a 10-span strip.
  for (int k = 0; k < 5000; ++k) b.launchKernel(0, k * 2, 1, "vectorized_elementwise_kernel");
  b.step(10000, 100, 2);
  b.launchKernel(10000, 10001, 10, "vectorized_elementwise_kernel");
  const TraceTables t = b.build();
  const RunResult run = runOf(t);
  const std::optional<StepStrip> strip = buildStepStrip(t, run.ranks.front(), 10);
  ASSERT_TRUE(strip);
  ASSERT_EQ(strip->rows.size(), 1u);
  int64_t events = 0;
  for (const StripSpan& s : strip->rows[0].spans) events += s.events;
  EXPECT_EQ(events, 5000);  // none lost from a merged span
  EXPECT_LE(strip->rows[0].spans.size(), 10u);
}

TEST(Report, TheDataBoundResnetShowsItsVerdictAndEvidence) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  PipelineOptions options;
  options.store = false;
  auto trace = openRun({testing::sharedTrace("kineto/resnet50_workers0.pt.trace.json.gz")}, options,
                       EventsNeeded::kFirstRank);
  ASSERT_TRUE(trace.ok()) << trace.error().message();
  const RunResult& run = trace->run;
  const RankResult& rank = run.ranks.front();
  const std::optional<StepStrip> strip = buildStepStrip(trace->tables.front(), rank);
  ASSERT_TRUE(strip);
  const std::string html = renderHtmlReport(run, strip);
  EXPECT_NE(html.find("DATA-BOUND"), std::string::npos);
  ASSERT_FALSE(rank.findings.findings.empty());
  const Finding& first = rank.findings.findings.front();
  EXPECT_NE(html.find(htmlEscape(first.title)), std::string::npos);
  EXPECT_NE(html.find("class=\"evidence\""), std::string::npos);
  bool data_bubble = false;
  for (const StripBubble& b : strip->bubbles) data_bubble |= b.cause == GapCause::kDataLoading;
  EXPECT_TRUE(data_bubble);
  EXPECT_FALSE(hasNonFinite(html));
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg"));  // nothing fetched
  EXPECT_EQ(html.find("https://"), std::string::npos);
}

// Each analysed step's critical path is listed in every rendering, and the
// data stall's finding says what freeing it would give (issue 29 §1).
TEST(Report, TheDataBoundResnetSaysWhatFreeingItsStallGivesByTheCriticalPath) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  PipelineOptions options;
  options.store = false;
  auto trace = openRun({testing::sharedTrace("kineto/resnet50_workers0.pt.trace.json.gz")}, options,
                       EventsNeeded::kNone);
  ASSERT_TRUE(trace.ok()) << trace.error().message();
  const RunResult& run = trace->run;
  const std::string text = formatRunSummary(run);
  EXPECT_NE(text.find("of the critical path: without it the median step takes ≈ 111.3 ms (now "
                      "179.7 ms)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("Path     the critical path of each analysed step"), std::string::npos);
  EXPECT_NE(text.find("step 5       181.0 ms  data 38.0 %, kernel 36.2 %, cpu 25.1 %"),
            std::string::npos)
      << text;
  EXPECT_NE(renderMarkdownReport(run).find("\n## Critical path\n"), std::string::npos);
  const std::string html = renderHtmlReport(run, std::nullopt);
  EXPECT_NE(html.find("<h2>Critical path</h2>"), std::string::npos);
  EXPECT_NE(html.find("≈ 111.3 ms without the data stall (median, critical path)"),
            std::string::npos);

  const nlohmann::json rank = runJson(run)["ranks"][0];
  const nlohmann::json& first = rank["findings"][0];
  ASSERT_EQ(first["rule"], "data_loading");
  EXPECT_NEAR(first["critical_path"]["pct"].get<double>(), 38.7, 0.05);
  EXPECT_NEAR(first["critical_path"]["projected_step_ns"].get<double>(), 111.3e6, 0.05e6);
  size_t paths = 0;
  for (const nlohmann::json& s : rank["steps"]) {
    if (!s["in_window"].get<bool>()) {
      EXPECT_TRUE(s["critical_path"].is_null());
      continue;
    }
    ++paths;
    const nlohmann::json& p = s["critical_path"];
    int64_t split = 0;
    for (const char* b : {"cpu_ns", "data_ns", "kernel_ns", "communication_ns", "launch_delay_ns",
                          "kernel_gap_ns"}) {
      split += p[b].get<int64_t>();
    }
    EXPECT_EQ(split, p["length_ns"].get<int64_t>());
    EXPECT_LT(p["without_data_ns"].get<int64_t>(), p["length_ns"].get<int64_t>());
  }
  EXPECT_EQ(paths, 5u);
}

}  // namespace
}  // namespace damscope
