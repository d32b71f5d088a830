// The main window puts the parts together: a finding's click lands on the
// timeline with its evidence highlighted, a table row selects its kernels,
// and a file that cannot be opened leaves the window as it was.
#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QTabWidget>

#include "gui/app/main_window.h"
#include "gui/panels/diagnosis_panel.h"
#include "gui/panels/statistics_panel.h"
#include "gui/timeline/timeline_view.h"
#include "gui/timeline/timeline_widget.h"
#include "tests/test_support.h"

namespace damscope {
namespace {

using testing::TempDir;

struct OpenWindow {
  TempDir dir;
  MainWindow window{/*remember=*/false};
  std::string trace = dir.file("rank0.json");
  OpenWindow() {
    testing::writeFile(trace, testing::dataBoundKinetoTrace(0, 400, 6));
    window.resize(1400, 900);
    window.show();
    QSignalSpy shown(&window, &MainWindow::runShown);
    window.open({QString::fromStdString(trace)});
    EXPECT_TRUE(shown.wait(30000));
  }
};

TEST(MainWindow, AFindingsClickShowsItsEvidenceOnTheTimeline) {
  OpenWindow w;
  ASSERT_NE(w.window.run(), nullptr);
  const RankResult& rank = w.window.run()->run.ranks[0];
  ASSERT_FALSE(rank.findings.findings.empty());
  const EventRefs evidence = eventsOfFinding(rank.findings.findings.front(), 0);
  ASSERT_FALSE(evidence.empty());
  w.window.showView(MainWindow::View::kCharts);
  auto* diagnosis = w.window.findChild<DiagnosisPanel*>();
  ASSERT_NE(diagnosis, nullptr);
  emit diagnosis->eventsRequested(evidence);
  auto* timeline = w.window.findChild<TimelineView*>();
  ASSERT_NE(timeline, nullptr);
  EXPECT_TRUE(timeline->isVisible()) << "the timeline tab is brought forward";
  EXPECT_EQ(timeline->timeline()->highlighted(), evidence);
  const auto span = spanOf(evidence.front(), *w.window.run());
  ASSERT_TRUE(span);
  const TimeScale& scale = timeline->timeline()->scale();
  EXPECT_LE(scale.start(), span->ts);
  EXPECT_GE(scale.end(), span->end());
  EXPECT_LT(scale.end() - scale.start(), 20 * std::max<int64_t>(span->dur, 1000))
      << "zoomed in on it, not left at the whole run";
}

TEST(MainWindow, AStatisticsRowSelectsEveryRunOfItsKernel) {
  OpenWindow w;
  auto* statistics = w.window.findChild<StatisticsPanel*>();
  ASSERT_NE(statistics, nullptr);
  const EventRefs gemms = kernelsNamed(*w.window.run(), 0, "volta_sgemm_128x64_nn");
  ASSERT_EQ(gemms.size(), 6u);
  emit statistics->eventsRequested(gemms);
  EXPECT_EQ(w.window.findChild<TimelineView*>()->timeline()->highlighted(), gemms);
}

TEST(MainWindow, AFileThatCannotBeOpenedLeavesTheRunShown) {
  OpenWindow w;
  const AnalysedRun* before = w.window.run();
  const std::string bad = w.dir.file("broken.json");
  testing::writeFile(bad, "not a trace at all");
  w.window.hide();  // no modal dialog in a test
  QSignalSpy failed(&w.window, &MainWindow::openFailed);
  w.window.open({QString::fromStdString(bad)});
  ASSERT_TRUE(failed.wait(30000));
  EXPECT_TRUE(failed.front().at(0).toString().contains("broken.json"));
  EXPECT_EQ(w.window.run(), before);
  EXPECT_FALSE(w.window.grabView(MainWindow::View::kTimeline).isNull());
}

}  // namespace
}  // namespace damscope
