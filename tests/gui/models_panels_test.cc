// The GUI's item models over one rank's results and events: the operation
// summaries (figures against hand-computed ones, numeric sorting and
// filtering through the proxy), the findings, the ranks of a two-rank run and
// the event details; every model under QAbstractItemModelTester.
#include <algorithm>

#include <QAbstractItemModelTester>

#include <gtest/gtest.h>

#include "analyzer/report/text_format.h"
#include "gui/models/event_details.h"
#include "gui/models/figure_text.h"
#include "gui/models/findings_model.h"
#include "gui/models/operation_stats_model.h"
#include "gui/models/qt_text.h"
#include "gui/models/ranks_model.h"
#include "tests/gui/gui_test_support.h"
#include "tests/test_support.h"
#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::analysedRunOf;
using testing::smallTrainingTrace;
using testing::TraceBuilder;

std::shared_ptr<const AnalysedRun> smallRun() {
  return std::make_shared<const AnalysedRun>(analysedRunOf(smallTrainingTrace()));
}

void testModel(QAbstractItemModel* model) {
  QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::Fatal);
}

const OperationRow* rowNamed(const OperationStatsModel& m, const std::string& name) {
  for (const OperationRow& r : m.rows()) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

TEST(OperationStatsModel, EveryKindPassesTheModelTesterOnARunAndOnNone) {
  const auto run = smallRun();
  for (OperationKind kind : {OperationKind::kKernels, OperationKind::kCopies,
                             OperationKind::kApiCalls, OperationKind::kOps}) {
    OperationStatsModel model(kind);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    OperationFilterProxy proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester proxy_tester(&proxy,
                                          QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setRun(run, 0);
    EXPECT_GT(model.rowCount(), 0);
    proxy.sort(2, Qt::DescendingOrder);
    proxy.setNameFilter(QStringLiteral("a"));
    model.setRun(std::make_shared<const AnalysedRun>(), 0);  // an empty run
    EXPECT_EQ(model.rowCount(), 0);
    model.setRun(nullptr, 0);
    EXPECT_EQ(model.rowCount(), 0);
  }
}

TEST(OperationStatsModel, AWindowKeepsTheOperationsStartingInsideIt) {
  const auto run = smallRun();
  const RankResult& r = run->run.ranks[0];
  ASSERT_GE(r.steps.size(), 2u);
  const TimeWindow second{r.steps[1].ts, r.steps[1].ts + r.steps[1].dur};
  OperationStatsModel model(OperationKind::kKernels);
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setRun(run, 0);
  int64_t whole = 0;
  for (const OperationRow& row : model.rows()) whole += row.count;
  model.setRun(run, 0, second);
  int64_t inside = 0;
  double pct = 0;
  for (const OperationRow& row : model.rows()) {
    inside += row.count;
    pct += row.pct;
    for (const EventRef& e : row.events) EXPECT_TRUE(second.contains(spanOf(e, *run)->ts));
  }
  EXPECT_EQ(whole, 18);
  EXPECT_EQ(inside, 6) << "the six kernels of one step";
  EXPECT_LE(pct, 100.0 + 1e-9) << "shares of the window's device time";
  EXPECT_GT(pct, 80.0);
  model.setRun(run, 0, TimeWindow{0, 1});
  EXPECT_EQ(model.rowCount(), 0) << "a window with nothing in it";
}

TEST(OperationStatsModel, KernelFiguresEqualTheHandComputedOnes) {
  const auto run = smallRun();
  OperationStatsModel model(OperationKind::kKernels);
  model.setRun(run, 0);
  const OperationRow* sgemm = rowNamed(model, "volta_sgemm_128x64_nn");
  ASSERT_NE(sgemm, nullptr);
  // Three steps, three sgemm runs of 140 µs each (gui_test_support.cc).
  EXPECT_EQ(sgemm->count, 9);
  EXPECT_EQ(sgemm->total_ns, 9 * 140'000);
  EXPECT_DOUBLE_EQ(sgemm->average_ns, 140'000);
  EXPECT_DOUBLE_EQ(sgemm->median_ns, 140'000);
  EXPECT_EQ(sgemm->min_ns, 140'000);
  EXPECT_EQ(sgemm->max_ns, 140'000);
  EXPECT_EQ(sgemm->category, "gemm");
  // 18 kernels of 140 µs and three 40 µs copies: the device's time.
  EXPECT_NEAR(sgemm->pct, 100.0 * 9 * 140 / (18 * 140 + 3 * 40), 1e-9);
  EXPECT_EQ(sgemm->events, kernelsNamed(*run, 0, "volta_sgemm_128x64_nn"));
  const int row = static_cast<int>(sgemm - model.rows().data());
  const auto events = model.index(row, 0).data(OperationStatsModel::EventsRole).value<EventRefs>();
  EXPECT_EQ(events, sgemm->events);
  EXPECT_EQ(model.index(row, model.columnOf(OperationStatsModel::Column::kTotal)).data(),
            QStringLiteral("1.3 ms"));
  EXPECT_EQ(model.headerData(model.columnOf(OperationStatsModel::Column::kPct), Qt::Horizontal),
            QStringLiteral("% of GPU time"));
}

TEST(OperationStatsModel, MedianOfAnEvenCountIsTheMeanOfTheMiddleTwo) {
  TraceBuilder b;
  b.device(0, 80);
  const double durs[] = {10, 30, 20, 50};
  for (int i = 0; i < 4; ++i) b.launchKernel(i * 100, i * 100 + 5, durs[i], "k");
  const AnalysedRun run = analysedRunOf(b.build());
  const std::vector<OperationRow> rows = operationRows(run, 0, OperationKind::kKernels);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_DOUBLE_EQ(rows[0].median_ns, 25'000);
  EXPECT_EQ(rows[0].min_ns, 10'000);
  EXPECT_EQ(rows[0].max_ns, 50'000);
  EXPECT_DOUBLE_EQ(rows[0].average_ns, 27'500);
  const std::vector<OperationRow> api = operationRows(run, 0, OperationKind::kApiCalls);
  ASSERT_EQ(api.size(), 1u);
  EXPECT_EQ(api[0].name, "cudaLaunchKernel");
  EXPECT_EQ(api[0].count, 4);
  EXPECT_DOUBLE_EQ(api[0].pct, 100);
}

TEST(OperationStatsModel, TheProxySortsDurationsAsNumbersAndFiltersIgnoringCase) {
  TraceBuilder b;
  b.device(0, 80);
  // As text "9.00 µs" sorts after "100.0 µs"; as numbers it comes first.
  b.launchKernel(0, 10, 100, "Long_kernel");
  b.launchKernel(200, 210, 9, "short_kernel");
  b.launchKernel(300, 310, 10, "middle_kernel");
  OperationStatsModel model(OperationKind::kKernels);
  model.setRun(std::make_shared<const AnalysedRun>(analysedRunOf(b.build())), 0);
  OperationFilterProxy proxy;
  proxy.setSourceModel(&model);
  testModel(&proxy);
  proxy.sort(model.columnOf(OperationStatsModel::Column::kTotal), Qt::AscendingOrder);
  ASSERT_EQ(proxy.rowCount(), 3);
  EXPECT_EQ(proxy.index(0, 0).data(), QStringLiteral("short_kernel"));
  EXPECT_EQ(proxy.index(1, 0).data(), QStringLiteral("middle_kernel"));
  EXPECT_EQ(proxy.index(2, 0).data(), QStringLiteral("Long_kernel"));
  proxy.sort(model.columnOf(OperationStatsModel::Column::kName), Qt::AscendingOrder);
  EXPECT_EQ(proxy.index(0, 0).data(), QStringLiteral("Long_kernel"));  // 'L' before 'm', 's'
  EXPECT_EQ(proxy.index(2, 0).data(), QStringLiteral("short_kernel"));
  proxy.sort(model.columnOf(OperationStatsModel::Column::kMax), Qt::DescendingOrder);
  EXPECT_EQ(proxy.index(0, 0).data(), QStringLiteral("Long_kernel"));
  proxy.setNameFilter(QStringLiteral("LONG"));
  ASSERT_EQ(proxy.rowCount(), 1);
  EXPECT_EQ(proxy.index(0, 0).data(), QStringLiteral("Long_kernel"));
  proxy.setNameFilter({});
  EXPECT_EQ(proxy.rowCount(), 3);
}

// A kernel row reads as the top-kernels chart names it (short_names.h); the
// whole name is in the tooltip and the filter still finds what was folded.
TEST(OperationStatsModel, KernelRowsShowTheChartsShortNamesAndFilterOnTheWholeName) {
  TraceBuilder b;
  b.device(0, 80);
  b.launchKernel(0, 10, 100, "void at::native::elementwise_kernel<float>(int, float*)");
  b.launchKernel(200, 210, 50, "void at::native::elementwise_kernel<c10::Half>(int, c10::Half*)");
  OperationStatsModel model(OperationKind::kKernels);
  model.setRun(std::make_shared<const AnalysedRun>(analysedRunOf(b.build())), 0);
  OperationFilterProxy proxy;
  proxy.setSourceModel(&model);
  testModel(&proxy);
  ASSERT_EQ(model.rowCount(), 2);
  EXPECT_EQ(model.index(0, 0).data(), QStringLiteral("at::native::elementwise_kernel<…>"));
  EXPECT_EQ(model.index(1, 0).data(), QStringLiteral("at::native::elementwise_kernel<…> (2)"));
  EXPECT_EQ(model.index(1, 0).data(Qt::ToolTipRole),
            QStringLiteral("void at::native::elementwise_kernel<c10::Half>(int, c10::Half*)"));
  proxy.setNameFilter(QStringLiteral("HALF"));
  ASSERT_EQ(proxy.rowCount(), 1);
  EXPECT_EQ(proxy.index(0, 0).data(), QStringLiteral("at::native::elementwise_kernel<…> (2)"));
  proxy.setNameFilter(QStringLiteral("(2)"));  // the shown name counts too
  EXPECT_EQ(proxy.rowCount(), 1);
  proxy.setNameFilter({});
  EXPECT_EQ(proxy.rowCount(), 2);
}

// The Ops table: each step's aten::linear launched one copy and six kernels
// (140 µs each, the copy 40 µs): 3 calls, 2,640 µs of GPU time, 21 events.
TEST(OperationStatsModel, OpsAreTheFrameworkOpsThatLaunchedTheGpuWork) {
  const auto run = smallRun();
  const std::vector<OperationRow> rows = operationRows(*run, 0, OperationKind::kOps);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].name, "aten::linear");
  EXPECT_EQ(rows[0].count, 3);
  EXPECT_EQ(rows[0].total_ns, testing::us(3 * (40 + 6 * 140)));
  EXPECT_DOUBLE_EQ(rows[0].average_ns, static_cast<double>(testing::us(40 + 6 * 140)));
  EXPECT_DOUBLE_EQ(rows[0].pct, 100);
  ASSERT_EQ(rows[0].events.size(), 21u);
  EXPECT_EQ(std::count_if(rows[0].events.begin(), rows[0].events.end(),
                          [](const EventRef& e) { return e.kind == EventKind::kMemcpy; }),
            3);
  OperationStatsModel model(OperationKind::kOps);
  model.setRun(run, 0);
  EXPECT_EQ(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("Calls"));
}

TEST(OperationStatsModel, CopiesAreGroupedByKindWithBytes) {
  const auto run = smallRun();
  OperationStatsModel model(OperationKind::kCopies);
  model.setRun(run, 0);
  testModel(&model);
  ASSERT_EQ(model.rowCount(), 1);
  const OperationRow& row = model.rows()[0];
  EXPECT_EQ(row.name, "HtoD");
  EXPECT_EQ(row.count, 3);
  EXPECT_EQ(row.total_ns, 3 * 40'000);
  EXPECT_EQ(row.bytes, std::max<int64_t>(0, run->tables[0].memcpys.bytes[0]) * 3);
}

// Every share names its denominator and scope, so that "% of GPU time" is
// not read as the diagnosis's utilization (issue 31 §1).
TEST(OperationStatsModel, HeaderTooltipsNameTheScopeAndTheDenominator) {
  const auto run = smallRun();
  OperationStatsModel model(OperationKind::kKernels);
  testModel(&model);
  const QString scope = QStringLiteral("the 2 analysed steps");
  model.setTable(operationTable(*run, 0, OperationKind::kKernels), scope);
  EXPECT_EQ(model.scope(), scope);
  const auto tip = [&](OperationStatsModel::Column c) {
    return model.headerData(model.columnOf(c), Qt::Horizontal, Qt::ToolTipRole).toString();
  };
  EXPECT_TRUE(tip(OperationStatsModel::Column::kCount).contains(scope));
  const QString pct = tip(OperationStatsModel::Column::kPct);
  EXPECT_TRUE(pct.contains(scope)) << pct.toStdString();
  EXPECT_TRUE(pct.contains("every kernel, copy and memset")) << pct.toStdString();
  EXPECT_TRUE(pct.contains("not of wall time")) << pct.toStdString();
  // The denominator itself: all device time of the trace.
  const TraceTables& t = run->tables[0];
  int64_t device_ns = 0;
  for (int64_t d : t.kernels.dur) device_ns += d;
  for (int64_t d : t.memcpys.dur) device_ns += d;
  for (int64_t d : t.memsets.dur) device_ns += d;
  EXPECT_TRUE(pct.contains(qtString(formatDuration(static_cast<double>(device_ns)))))
      << pct.toStdString();
  EXPECT_FALSE(model.headerData(0, Qt::Horizontal, Qt::ToolTipRole).isValid())
      << "the name needs no scope";

  model.setRun(run, 0);
  EXPECT_TRUE(tip(OperationStatsModel::Column::kCount).contains("the whole trace"));
  model.setRun(run, 0, TimeWindow{0, 1});
  EXPECT_TRUE(tip(OperationStatsModel::Column::kCount).contains("the selected window"));
}

// A share with nothing to divide by is missing, not "0.0 %".
TEST(OperationStatsModel, AShareWithoutADenominatorIsADashWithItsReason) {
  OperationStatsModel model(OperationKind::kKernels);
  testModel(&model);
  OperationTable table;
  OperationRow row;
  row.name = "instant_kernel";
  row.count = 1;
  table.rows.push_back(row);
  model.setTable(table, QStringLiteral("the whole trace"));
  const QModelIndex pct = model.index(0, model.columnOf(OperationStatsModel::Column::kPct));
  EXPECT_EQ(pct.data().toString(), missingText());
  EXPECT_TRUE(pct.data(Qt::ToolTipRole).toString().contains("no share"));

  OperationStatsModel copies(OperationKind::kCopies);
  testModel(&copies);
  OperationTable copy_table;
  OperationRow copy;
  copy.name = "HtoD";
  copy.count = 1;
  copy.bytes = 64;
  copy_table.rows.push_back(copy);
  copy_table.share_total_ns = 10;
  copies.setTable(copy_table, QStringLiteral("the whole trace"));
  const QModelIndex rate =
      copies.index(0, copies.columnOf(OperationStatsModel::Column::kThroughput));
  EXPECT_EQ(rate.data().toString(), missingText());
  EXPECT_FALSE(rate.data(Qt::ToolTipRole).toString().isEmpty());
  EXPECT_EQ(copies.index(0, copies.columnOf(OperationStatsModel::Column::kPct)).data().toString(),
            QStringLiteral("0.0 %"));
}

// A 1 M-character kernel name is shown clamped: laying it out froze the UI.
TEST(OperationStatsModel, NamesAreClampedForLayoutAndTooltips) {
  OperationStatsModel model(OperationKind::kKernels);
  testModel(&model);
  OperationTable table;
  OperationRow row;
  row.name = "kernel_" + std::string(1'000'000, 'x');
  row.count = 1;
  row.total_ns = 5;
  table.rows.push_back(row);
  table.share_total_ns = 5;
  model.setTable(table, QStringLiteral("the whole trace"));
  const QModelIndex name = model.index(0, 0);
  EXPECT_LE(name.data().toString().size(), static_cast<qsizetype>(kNameShownBytes));
  EXPECT_TRUE(name.data().toString().startsWith("kernel_x"));
  EXPECT_LE(name.data(Qt::ToolTipRole).toString().size(),
            static_cast<qsizetype>(kNameTooltipBytes));
  EXPECT_EQ(model.rows().front().name.size(), row.name.size()) << "the row keeps the whole name";
}

TEST(FindingsModel, RowsFollowTheAnalyzerOrderAndCarryTheirEvents) {
  const auto run = smallRun();
  FindingsModel model;
  testModel(&model);
  model.setRun(run, 0);
  const auto& findings = run->run.ranks[0].findings.findings;
  ASSERT_FALSE(findings.empty());
  ASSERT_EQ(model.rowCount(), static_cast<int>(findings.size()));
  for (int i = 0; i < model.rowCount(); ++i) {
    const Finding& f = findings[static_cast<size_t>(i)];
    EXPECT_EQ(model.index(i, FindingsModel::kTitle).data().toString().toStdString(), f.title);
    EXPECT_EQ(model.index(i, 0).data(FindingsModel::EventsRole).value<EventRefs>(),
              eventsOfFinding(f, 0));
    EXPECT_EQ(model.index(i, FindingsModel::kEvidence).data().toInt(),
              static_cast<int>(eventsOfFinding(f, 0).size()));
    EXPECT_EQ(
        model.index(i, FindingsModel::kMaxGain).data().toString(),
        f.max_gain_pct ? QStringLiteral("%1 %").arg(*f.max_gain_pct, 0, 'f', 1) : missingText());
  }
  model.setRun(std::make_shared<const AnalysedRun>(), 0);
  EXPECT_EQ(model.rowCount(), 0);
}

TEST(FindingsModel, AWindowsResultReplacesTheRunsUnderTheModelTester) {
  const auto run = smallRun();
  FindingsModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setRun(run, 0);
  const int whole = model.rowCount();
  ASSERT_GT(whole, 0);
  auto window = std::make_shared<RankResult>(run->run.ranks[0]);
  window->findings.findings.resize(1);
  model.setResult(window, 0);
  EXPECT_EQ(model.rowCount(), 1);
  EXPECT_EQ(model.index(0, FindingsModel::kTitle).data().toString().toStdString(),
            window->findings.findings[0].title);
  model.setResult(nullptr, 0);
  EXPECT_EQ(model.rowCount(), 0);
  model.setRun(run, 0);
  EXPECT_EQ(model.rowCount(), whole);
}

TEST(RanksModel, TheSlowerOfTwoRanksIsMarkedAsTheStraggler) {
  testing::TempDir dir;
  const std::vector<std::string> inputs{dir.file("rank0.json"), dir.file("rank1.json")};
  testing::writeFile(inputs[0], testing::dataBoundKinetoTrace(0, 0, 8));
  testing::writeFile(inputs[1], testing::dataBoundKinetoTrace(1, 400, 8));
  PipelineOptions options;
  options.store = false;
  auto opened = openRun(inputs, options, EventsNeeded::kEveryRank);
  ASSERT_TRUE(opened.ok()) << opened.error().message();
  const auto run = std::make_shared<const AnalysedRun>(std::move(opened.value()));
  ASSERT_EQ(run->run.cross_rank.size(), 2u);
  RanksModel model;
  testModel(&model);
  model.setRun(run);
  ASSERT_EQ(model.rowCount(), 2);
  EXPECT_FALSE(model.index(0, 0).data(RanksModel::StragglerRole).toBool());
  EXPECT_TRUE(model.index(1, 0).data(RanksModel::StragglerRole).toBool());
  EXPECT_EQ(model.index(1, 0).data(Qt::BackgroundRole).value<QColor>(),
            RanksModel::stragglerBackground());
  EXPECT_FALSE(model.index(0, 0).data(Qt::BackgroundRole).isValid());
  EXPECT_EQ(model.index(1, RanksModel::kStraggler).data(), QStringLiteral("straggler"));
  EXPECT_EQ(model.index(1, RanksModel::kFile).data(), QStringLiteral("rank1.json"));
  EXPECT_EQ(model.headerData(RanksModel::kFile, Qt::Horizontal), QStringLiteral("File"));
  // The verdict's tooltip holds it whole, whatever the column's width.
  EXPECT_EQ(model.index(1, RanksModel::kVerdict).data(Qt::ToolTipRole),
            model.index(1, RanksModel::kVerdict).data());
  EXPECT_GT(model.index(1, RanksModel::kSlowerThanMedian).data(RanksModel::SortRole).toDouble(),
            model.index(0, RanksModel::kSlowerThanMedian).data(RanksModel::SortRole).toDouble());
  // A step column per step number, each rank's step time in it.
  ASSERT_FALSE(model.stepNumbers().empty());
  EXPECT_EQ(model.columnCount(),
            RanksModel::kFixedColumnCount + static_cast<int>(model.stepNumbers().size()));
  const int step_column = RanksModel::kFixedColumnCount;
  EXPECT_GT(model.index(1, step_column).data(RanksModel::SortRole).toLongLong(),
            model.index(0, step_column).data(RanksModel::SortRole).toLongLong());
  model.setRun(nullptr);
  EXPECT_EQ(model.rowCount(), 0);
}

TEST(RanksModel, NotesNameTheFileOfEachRankTheyMention) {
  AnalysedRun run;
  run.run.ranks.resize(3);
  for (int32_t i = 0; i < 3; ++i) {
    run.run.ranks[static_cast<size_t>(i)].rank = 10 + i;
    run.run.ranks[static_cast<size_t>(i)].source =
        "/data/job/rank" + std::to_string(10 + i) + ".json";
  }
  run.run.cross_rank_notes = {
      "collective skew assumes the ranks' clocks agree",
      "rank 11 started last in 7 of the 8 collectives; rank 12 never did",
      "rank 10 is claimed by both /data/job/rank10.json and b.json",
      "rank 99 is not in this run",
  };
  EXPECT_EQ(rankNotes(run),
            (std::vector<std::string>{
                "collective skew assumes the ranks' clocks agree",
                "rank 11 (rank11.json) started last in 7 of the 8 collectives; rank 12 "
                "(rank12.json) never did",
                "rank 10 is claimed by both /data/job/rank10.json and b.json",
                "rank 99 is not in this run",
            }));
}

TEST(RanksModel, OneRankHasNoComparison) {
  RanksModel model;
  testModel(&model);
  model.setRun(smallRun());
  ASSERT_EQ(model.rowCount(), 1);
  EXPECT_EQ(model.index(0, RanksModel::kStraggler).data(), missingText());
  // The dash says why in its tooltip; a figure that exists keeps its own.
  EXPECT_EQ(model.index(0, RanksModel::kStraggler).data(Qt::ToolTipRole),
            QString("One rank: nothing to compare it with"));
  EXPECT_NE(model.index(0, RanksModel::kRank).data(Qt::ToolTipRole),
            QString("One rank: nothing to compare it with"));
  EXPECT_EQ(model.stepNumbers(), (std::vector<int64_t>{1, 2, 3}));
}

std::string lineOf(const EventDetailLines& lines, const std::string& key) {
  std::string out;
  for (const auto& [k, v] : lines) {
    if (k == key) out += (out.empty() ? "" : " | ") + v;
  }
  return out;
}

TEST(EventDetails, AKernelNamesItsLaunchCallAndEnclosingRanges) {
  const auto run = smallRun();
  const EventRefs sgemm = kernelsNamed(*run, 0, "volta_sgemm_128x64_nn");
  ASSERT_FALSE(sgemm.empty());
  const EventDetailLines lines = eventDetails(sgemm.front(), *run);
  EXPECT_EQ(lineOf(lines, "Name"), "volta_sgemm_128x64_nn");
  EXPECT_EQ(lineOf(lines, "Duration"), "140.0 µs");
  EXPECT_EQ(lineOf(lines, "Where"), "device 0, stream 7");
  EXPECT_NE(lineOf(lines, "Launched by").find("cudaLaunchKernel"), std::string::npos);
  // The launch lies in step 1 and, inside it, in aten::linear: outermost first.
  const std::string ranges = lineOf(lines, "In range");
  const auto step = ranges.find("ProfilerStep#1");
  const auto linear = ranges.find("aten::linear");
  ASSERT_NE(step, std::string::npos) << ranges;
  ASSERT_NE(linear, std::string::npos) << ranges;
  EXPECT_LT(step, linear);
  const int64_t origin = firstEventTs(run->tables[0]);
  EXPECT_EQ(lineOf(lines, "Start"),
            "+" +
                formatDuration(static_cast<double>(
                    run->tables[0].kernels.ts[static_cast<size_t>(sgemm.front().id)] - origin)) +
                " (" +
                std::to_string(run->tables[0].kernels.ts[static_cast<size_t>(sgemm.front().id)]) +
                " ns)");
}

TEST(EventDetails, AGapSaysItsCauseAndAStaleReferenceSaysNothing) {
  const auto run = smallRun();
  const auto& gaps = run->run.ranks[0].gaps;
  ASSERT_FALSE(gaps.empty());
  const EventDetailLines lines = eventDetails({0, EventKind::kGap, 0}, *run);
  EXPECT_FALSE(lineOf(lines, "Cause").empty());
  EXPECT_EQ(lineOf(lines, "Kind"), "idle gap");
  EXPECT_TRUE(eventDetails({0, EventKind::kKernel, 1'000'000}, *run).empty());
  EXPECT_TRUE(eventDetails({3, EventKind::kKernel, 0}, *run).empty());
}

}  // namespace
}  // namespace damscope
