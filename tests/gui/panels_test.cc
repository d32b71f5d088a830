// The panels, offscreen: a finding click asks for its events, a statistics
// row for all its instances, a ranks row for its rank, and every panel paints
// something. DAMSCOPE_DIAGNOSIS_PNG=file saves the diagnosis panel of
// ../shared/traces' resnet50_workers0 for a person to look at.
#include <filesystem>

#include <QComboBox>
#include <QElapsedTimer>
#include <QImage>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTimer>

#include <gtest/gtest.h>

#include "analyzer/report/result_words.h"
#include "gui/models/figure_scope.h"
#include "gui/models/findings_model.h"
#include "gui/models/ranks_model.h"
#include "gui/panels/diagnosis_panel.h"
#include "gui/panels/duration_histogram.h"
#include "gui/panels/event_details_panel.h"
#include "gui/panels/ranks_panel.h"
#include "gui/panels/statistics_panel.h"
#include "gui/panels/scorecard_bar.h"
#include "tests/gui/gui_test_support.h"
#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::analysedRunOf;
using testing::smallTrainingTrace;

std::shared_ptr<const AnalysedRun> smallRun() {
  return std::make_shared<const AnalysedRun>(analysedRunOf(smallTrainingTrace()));
}

// True when the image holds more than one colour: something was drawn.
bool painted(const QImage& image) {
  if (image.isNull()) return false;
  const QRgb first = image.pixel(0, 0);
  for (int y = 0; y < image.height(); y += 3) {
    for (int x = 0; x < image.width(); x += 3) {
      if (image.pixel(x, y) != first) return true;
    }
  }
  return false;
}

TEST(DiagnosisPanel, ClickingAFindingRequestsItsEvents) {
  const auto run = smallRun();
  DiagnosisPanel panel;
  panel.resize(900, 800);
  panel.setRun(run, 0);
  panel.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
  QSignalSpy spy(&panel, &DiagnosisPanel::eventsRequested);
  QListView* view = panel.findingsView();
  ASSERT_GT(view->model()->rowCount(), 0);
  const QModelIndex first = view->model()->index(0, 0);
  QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(first).center());
  ASSERT_EQ(spy.count(), 1);
  EXPECT_EQ(spy.at(0).at(0).value<EventRefs>(),
            eventsOfFinding(run->run.ranks[0].findings.findings.front(), 0));
  EXPECT_TRUE(painted(panel.grab().toImage()));
  panel.setRun(nullptr, 0);
  EXPECT_EQ(view->model()->rowCount(), 0);
  EXPECT_TRUE(painted(panel.grab().toImage()));
}

TEST(StatisticsPanel, SelectingARowRequestsEveryInstanceAndFillsTheHistogram) {
  const auto run = smallRun();
  StatisticsPanel panel;
  panel.resize(900, 600);
  panel.setRun(run, 0);
  panel.setScope(FigureScope::kWholeTrace);
  QSignalSpy spy(&panel, &StatisticsPanel::eventsRequested);
  QTableView* view = panel.view(OperationKind::kKernels);
  panel.filter(OperationKind::kKernels)->setText(QStringLiteral("SGEMM"));
  ASSERT_EQ(view->model()->rowCount(), 1);
  view->selectionModel()->setCurrentIndex(view->model()->index(0, 0),
                                          QItemSelectionModel::ClearAndSelect |
                                              QItemSelectionModel::Rows);
  ASSERT_EQ(spy.count(), 1);
  EXPECT_EQ(spy.at(0).at(0).value<EventRefs>(), kernelsNamed(*run, 0, "volta_sgemm_128x64_nn"));
  const DurationBins& bins = panel.histogram(OperationKind::kKernels)->bins();
  ASSERT_EQ(bins.counts.size(), 1u);  // nine runs of the same duration
  EXPECT_EQ(bins.counts[0], 9);
  EXPECT_TRUE(painted(panel.grab().toImage()));
}

// The tables count what the diagnosis and the charts count unless told to
// count the whole trace, and say which (issue 31 §1: 135 runs in the chart,
// 162 in the statistics).
TEST(StatisticsPanel, CountsTheAnalysedStepsByDefaultAndTheWholeTraceOnRequest) {
  const auto run = smallRun();
  const RankResult& rank = run->run.ranks[0];
  StatisticsPanel panel;
  panel.resize(900, 600);
  panel.setRun(run, 0);
  EXPECT_EQ(panel.scope(), FigureScope::kAnalysedSteps);
  const QString analysed = scopeWords(rank, FigureScope::kAnalysedSteps);
  EXPECT_TRUE(panel.scopeLabel()->text().contains(analysed));
  const OperationStatsModel* kernels = panel.model(OperationKind::kKernels);
  EXPECT_EQ(kernels->scope(), analysed);
  // The diagnosis's kernel figures count the same runs.
  int64_t in_steps = 0;
  for (const OperationRow& row : kernels->rows()) in_steps += row.count;
  EXPECT_EQ(in_steps, rank.kernels.kernels);
  EXPECT_EQ(in_steps, 12) << "two analysed steps of six kernels";

  panel.scopeBox()->setCurrentIndex(panel.scopeBox()->findData(
      static_cast<int>(FigureScope::kWholeTrace)));
  emit panel.scopeBox()->activated(panel.scopeBox()->currentIndex());
  EXPECT_EQ(panel.scope(), FigureScope::kWholeTrace);
  int64_t all = 0;
  for (const OperationRow& row : kernels->rows()) all += row.count;
  EXPECT_EQ(all, 18);
  EXPECT_TRUE(panel.scopeLabel()->text().contains("the whole trace"));

  // A selected window replaces the scope until it is cleared.
  panel.setWindow(TimeWindow{rank.steps[0].ts, rank.steps[0].ts + rank.steps[0].dur});
  EXPECT_FALSE(panel.scopeBox()->isEnabled());
  EXPECT_TRUE(panel.scopeLabel()->text().contains("selected window"));
  panel.setWindow(std::nullopt);
  EXPECT_TRUE(panel.scopeBox()->isEnabled());
  EXPECT_TRUE(painted(panel.grab().toImage()));
}

// A run of many operations is summed on a worker: setRun returns at once and
// ready() brings the tables.
TEST(StatisticsPanel, ALargeRankIsSummedOffTheUiThread) {
  testing::TraceBuilder b;
  b.device(0, 80);
  const int kernels = static_cast<int>(StatisticsPanel::kWorkerEvents / 2);
  for (int i = 0; i < kernels; ++i) {
    b.launchKernel(i * 10.0, i * 10.0 + 2, 5, i % 2 ? "gemm_kernel" : "elementwise_kernel");
  }
  const auto run = std::make_shared<const AnalysedRun>(analysedRunOf(b.build()));
  StatisticsPanel panel;
  panel.setScope(FigureScope::kWholeTrace);
  QSignalSpy ready(&panel, &StatisticsPanel::ready);
  panel.setRun(run, 0);
  EXPECT_FALSE(panel.isReady()) << "computed on a worker, not before setRun returned";
  ASSERT_TRUE(ready.wait(60000));
  EXPECT_TRUE(panel.isReady());
  ASSERT_EQ(panel.model(OperationKind::kKernels)->rowCount(), 2);
  EXPECT_EQ(panel.model(OperationKind::kKernels)->rows().front().count, kernels / 2);
  // A newer request drops the older one's result.
  ready.clear();
  panel.setRun(run, 0);
  panel.setRun(nullptr, 0);
  EXPECT_TRUE(panel.isReady());
  QTest::qWait(300);
  EXPECT_EQ(panel.model(OperationKind::kKernels)->rowCount(), 0) << "the stale result dropped";
}

// Kernel names of a million characters must not freeze the window (7-26 s
// before): their tables are summed on a worker while the window answers, and
// shown, sorted and filtered clamped.
TEST(StatisticsPanel, MillionCharacterNamesDoNotFreezeTheWindow) {
  testing::TraceBuilder b;
  b.device(0, 80);
  for (int i = 0; i < 20; ++i) {
    b.launchKernel(i * 10.0, i * 10.0 + 2, 5,
                   "kernel_" + std::to_string(i) + "_" + std::string(1'000'000, 'a' + i % 26));
  }
  const auto run = std::make_shared<const AnalysedRun>(analysedRunOf(b.build()));
  StatisticsPanel panel;
  panel.resize(1200, 700);
  panel.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
  QSignalSpy ready(&panel, &StatisticsPanel::ready);
  panel.setScope(FigureScope::kWholeTrace);
  QElapsedTimer timer;
  timer.start();
  panel.setRun(run, 0);
  // Generous bounds: a few ms here, and seconds of classifying on the worker.
  EXPECT_LT(timer.elapsed(), 1000) << "setRun waited for the tables";
  // The event loop keeps turning while the worker sums.
  int ticks = 0;
  QTimer tick;
  QObject::connect(&tick, &QTimer::timeout, [&] { ++ticks; });
  tick.start(10);
  ASSERT_TRUE(ready.wait(120000));
  EXPECT_GT(ticks, 0);

  timer.restart();
  QTableView* view = panel.view(OperationKind::kKernels);
  view->sortByColumn(0, Qt::AscendingOrder);
  panel.filter(OperationKind::kKernels)->setText(QStringLiteral("kernel_1"));
  panel.filter(OperationKind::kKernels)->clear();
  view->selectRow(0);
  const QImage image = panel.grab().toImage();
  EXPECT_LT(timer.elapsed(), 3000) << "laying out, sorting and filtering the names";
  EXPECT_EQ(view->model()->rowCount(), 20);
  EXPECT_TRUE(painted(image));
}

// A click on an op selects the GPU work it launched.
TEST(StatisticsPanel, SelectingAnOpRequestsTheGpuWorkItLaunched) {
  const auto run = smallRun();
  StatisticsPanel panel;
  panel.resize(900, 600);
  panel.setRun(run, 0);
  panel.setScope(FigureScope::kWholeTrace);
  QSignalSpy spy(&panel, &StatisticsPanel::eventsRequested);
  QTableView* view = panel.view(OperationKind::kOps);
  ASSERT_EQ(view->model()->rowCount(), 1);
  view->selectionModel()->setCurrentIndex(view->model()->index(0, 0),
                                          QItemSelectionModel::ClearAndSelect |
                                              QItemSelectionModel::Rows);
  ASSERT_EQ(spy.count(), 1);
  const auto events = spy.at(0).at(0).value<EventRefs>();
  EXPECT_EQ(events, operationRows(*run, 0, OperationKind::kOps).front().events);
  EXPECT_EQ(events.size(), 21u);
  panel.tabs()->setCurrentIndex(3);
  EXPECT_TRUE(painted(panel.grab().toImage()));
}

TEST(DurationHistogram, BinsAreLogSpacedAndLoseNothing) {
  const DurationBins bins = durationBins({1'000, 10'000, 100'000, 100'000, 0}, 3);
  ASSERT_EQ(bins.counts.size(), 3u);
  EXPECT_DOUBLE_EQ(bins.min_ns, 1);  // a zero duration counts as 1 ns
  EXPECT_DOUBLE_EQ(bins.max_ns, 100'000);
  // Edges at 1, ~46, ~2154, 100000 ns (log-spaced).
  EXPECT_EQ(bins.counts, (std::vector<int64_t>{1, 1, 3}));
  EXPECT_TRUE(durationBins({}).counts.empty());
}

TEST(RanksPanel, ActivatingARowRequestsThatRank) {
  std::vector<TraceTables> ranks;
  ranks.push_back(smallTrainingTrace(0));
  ranks.push_back(smallTrainingTrace(1));
  const auto two = std::make_shared<const AnalysedRun>(analysedRunOf(std::move(ranks)));
  RanksPanel panel;
  panel.resize(900, 300);
  panel.setRun(two, 0);
  QSignalSpy spy(&panel, &RanksPanel::rankRequested);
  ASSERT_EQ(panel.view()->model()->rowCount(), 2);
  emit panel.view()->activated(panel.view()->model()->index(1, 0));
  ASSERT_EQ(spy.count(), 1);
  EXPECT_EQ(spy.at(0).at(0).toInt(), 1);
  EXPECT_TRUE(painted(panel.grab().toImage()));
}

TEST(EventDetailsPanel, ShowsTheLinesOfTheSelectedEvent) {
  const auto run = smallRun();
  EventDetailsPanel panel;
  panel.resize(400, 500);
  panel.setRun(run, 0);
  const EventRef kernel = kernelsNamed(*run, 0, "volta_sgemm_128x64_nn").front();
  panel.showEvent(kernel);
  EXPECT_EQ(panel.lines(), eventDetails(kernel, *run));
  EXPECT_TRUE(painted(panel.grab().toImage()));
  panel.setRun(nullptr, 0);
  EXPECT_TRUE(panel.lines().empty());
}

// Wide and short, as the Event dock under the timeline is: the lines flow
// into column groups and a kernel's launch call shows without scrolling.
TEST(EventDetailsPanel, AWideShortPanelShowsTheLaunchCallWithoutScrolling) {
  const auto run = smallRun();
  EventDetailsPanel panel;
  panel.resize(1040, 200);
  panel.setRun(run, 0);
  panel.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
  panel.showEvent(kernelsNamed(*run, 0, "volta_sgemm_128x64_nn").front());
  QApplication::processEvents();
  EXPECT_GT(panel.groups(), 1);
  QLabel* launch = panel.valueLabel(QStringLiteral("Launched by"));
  ASSERT_NE(launch, nullptr);
  EXPECT_TRUE(launch->text().contains("cudaLaunchKernel")) << launch->text().toStdString();
  const QRect in_panel(launch->mapTo(&panel, QPoint(0, 0)), launch->size());
  EXPECT_TRUE(panel.rect().contains(in_panel))
      << "launch call at y " << in_panel.top() << ".." << in_panel.bottom();
  ASSERT_NE(panel.valueLabel(QStringLiteral("Name")), nullptr);

  panel.resize(300, 600);  // narrow: one group, as a form
  QApplication::processEvents();
  EXPECT_EQ(panel.groups(), 1);
  EXPECT_NE(panel.valueLabel(QStringLiteral("Launched by")), nullptr);
}

// The scorecard says which steps its shares are of.
TEST(DiagnosisPanel, TheScorecardAndKeyFiguresNameTheirScope) {
  const auto run = smallRun();
  DiagnosisPanel panel;
  panel.resize(560, 800);
  panel.setRun(run, 0);
  const RankResult& rank = run->run.ranks[0];
  const QString steps = analysedStepsWords(rank);
  EXPECT_EQ(steps, QStringLiteral("the 2 analysed steps"));
  EXPECT_TRUE(panel.scorecardTitle()->text().contains(steps))
      << panel.scorecardTitle()->text().toStdString();
  EXPECT_EQ(panel.scorecardBar()->toolTip(), scorecardScope(rank));
  int with_scope = 0;
  for (const KeyFigure& f : keyFigures(rank, {})) {
    const QString scope = keyFigureScope(rank, f.label);
    for (QWidget* tile : panel.findChildren<QWidget*>()) {
      if (tile->toolTip() == scope) {
        ++with_scope;
        break;
      }
    }
  }
  EXPECT_EQ(with_scope, static_cast<int>(keyFigures(rank, {}).size()));
}

// A device name from the trace longer than the panel is cut with "…" (not
// clipped at the edge, where it would look whole), and the tooltip holds the
// whole line (issue 32 §6).
TEST(DiagnosisPanel, ALongContextLineEndsInAnEllipsis) {
  AnalysedRun copy = analysedRunOf(smallTrainingTrace());
  copy.run.ranks[0].device_name = std::string(300, 'D') + "-tail";
  const auto run = std::make_shared<const AnalysedRun>(std::move(copy));
  DiagnosisPanel panel;
  panel.resize(560, 800);
  panel.setRun(run, 0);
  panel.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
  auto* context = panel.findChild<QLabel*>(QStringLiteral("diagnosisContext"));
  ASSERT_NE(context, nullptr);
  EXPECT_TRUE(context->text().endsWith(QChar(0x2026))) << context->text().toStdString();
  EXPECT_LE(context->fontMetrics().horizontalAdvance(context->text()), context->width());
  EXPECT_TRUE(context->toolTip().contains(QStringLiteral("-tail")));
  EXPECT_LE(panel.width(), 560);

  panel.resize(5000, 800);
  QTest::qWait(10);
  EXPECT_FALSE(context->text().endsWith(QChar(0x2026))) << "room for the whole line";
  EXPECT_TRUE(context->text().contains(QStringLiteral("-tail")));
}

// Opens a real trace; skipped where ../shared/traces is not present.
TEST(DiagnosisPanel, PaintsTheDiagnosisOfResnet50) {
  const std::string trace = "../shared/traces/kineto/resnet50_workers0.pt.trace.json.gz";
  std::string path;
  for (const std::string& base : {std::string("."), std::string(".."), std::string("../.."),
                                  std::string("../../..")}) {
    if (std::filesystem::exists(base + "/" + trace)) path = base + "/" + trace;
  }
  if (path.empty()) GTEST_SKIP() << trace << " not found";
  PipelineOptions options;
  options.store = false;
  auto opened = openRun({path}, options, EventsNeeded::kEveryRank);
  ASSERT_TRUE(opened.ok()) << opened.error().message();
  const auto run = std::make_shared<const AnalysedRun>(std::move(opened.value()));
  DiagnosisPanel panel;
  panel.resize(960, 900);
  panel.setRun(run, 0);
  panel.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
  const QImage image = panel.grab().toImage();
  EXPECT_TRUE(painted(image));
  if (const char* out = std::getenv("DAMSCOPE_DIAGNOSIS_PNG")) {
    EXPECT_TRUE(image.save(out));
  }
}

}  // namespace
}  // namespace damscope
