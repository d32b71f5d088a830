// The panels, offscreen: a finding click asks for its events, a statistics
// row for all its instances, a ranks row for its rank, and every panel paints
// something. DAMSCOPE_DIAGNOSIS_PNG=file saves the diagnosis panel of
// ../shared/traces' resnet50_workers0 for a person to look at.
#include <filesystem>

#include <QImage>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QListView>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

#include <gtest/gtest.h>

#include "gui/models/findings_model.h"
#include "gui/models/ranks_model.h"
#include "gui/panels/diagnosis_panel.h"
#include "gui/panels/duration_histogram.h"
#include "gui/panels/event_details_panel.h"
#include "gui/panels/ranks_panel.h"
#include "gui/panels/statistics_panel.h"
#include "tests/gui/gui_test_support.h"

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

// A click on an op selects the GPU work it launched.
TEST(StatisticsPanel, SelectingAnOpRequestsTheGpuWorkItLaunched) {
  const auto run = smallRun();
  StatisticsPanel panel;
  panel.resize(900, 600);
  panel.setRun(run, 0);
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
