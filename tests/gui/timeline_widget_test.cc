// The timeline's rows built from a small training run, and the widget on
// them: showEvents, search, click-to-select and painting, offscreen.
#include <gtest/gtest.h>

#include <QHelpEvent>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>
#include <QToolTip>

#include "gui/timeline/timeline_view.h"
#include "gui/timeline/timeline_widget.h"
#include "tests/gui/gui_test_support.h"
#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::analysedRunOf;
using testing::smallTrainingTrace;
using testing::TraceBuilder;
using testing::us;

std::shared_ptr<const AnalysedRun> smallRun() {
  return std::make_shared<const AnalysedRun>(analysedRunOf(smallTrainingTrace()));
}

const Lane* laneOfKind(const TimelineRows& rows, RowKind row_kind, LaneKind lane_kind) {
  for (const TimelineRow& row : rows.rows) {
    if (row.kind != row_kind) continue;
    for (int l = 0; l < row.lane_count; ++l) {
      const Lane& lane = rows.lanes[static_cast<size_t>(row.first_lane) + static_cast<size_t>(l)];
      if (lane.kind == lane_kind) return &lane;
    }
  }
  return nullptr;
}

TEST(TimelineRows, SmallTrainingRunHasEveryRowKind) {
  const auto run = smallRun();
  const TimelineRows rows = buildTimelineRows(*run, 0);

  const Lane* work = laneOfKind(rows, RowKind::kStream, LaneKind::kDeviceWork);
  ASSERT_NE(work, nullptr);
  int kernels = 0;
  for (const LaneEvent& e : work->events) kernels += e.kind == EventKind::kKernel;
  EXPECT_EQ(kernels, 18);  // 6 per step, 3 steps
  for (size_t i = 1; i < work->events.size(); ++i) {
    EXPECT_LE(work->events[i - 1].start, work->events[i].start);
  }

  // The data-loading stalls show as bubbles, whole-device or per stream.
  int data_loading = 0;
  for (const Lane& lane : rows.lanes) {
    if (lane.kind != LaneKind::kBubbles) continue;
    for (const LaneEvent& e : lane.events) {
      data_loading +=
          run->run.ranks[0].gaps[static_cast<size_t>(e.id)].cause == GapCause::kDataLoading;
    }
  }
  EXPECT_GE(data_loading, 2);

  const Lane* ranges = laneOfKind(rows, RowKind::kThread, LaneKind::kRanges);
  const Lane* calls = laneOfKind(rows, RowKind::kThread, LaneKind::kApiCalls);
  ASSERT_NE(ranges, nullptr);
  ASSERT_NE(calls, nullptr);
  EXPECT_FALSE(ranges->events.empty());
  EXPECT_EQ(calls->events.front().kind, EventKind::kApiCall);
  // API calls never share a lane with ranges.
  for (const LaneEvent& e : ranges->events) EXPECT_EQ(e.kind, EventKind::kRange);

  ASSERT_EQ(rows.steps.size(), 3u);
  EXPECT_EQ(rows.steps[0].number, 1);
  EXPECT_EQ(rows.laneOf({0, EventKind::kKernel, 0}), static_cast<int>(work - rows.lanes.data()));
}

// One thread busy all along, one busy for a tenth of it (its own row: over
// 5 % of the busiest's CPU time), and three that barely ran, which share one
// row holding the sum of what each held at every sample.
TEST(TimelineRows, QuietThreadsOfACounterShareOneSummedRow) {
  TraceBuilder b;
  b.device(0, 80);
  b.kernel(0, 1000, "k", kNullInt);
  const StringId util = b.tables().strings.intern("cpu_thread_utilization_pct");
  auto sample = [&](int64_t thread, double t_us, double value) {
    CounterTable::Row row;
    row.ts = us(t_us), row.name = util, row.value = value, row.thread_id = thread;
    b.tables().counters.append(row);
  };
  // Threads 0 and 1 are the builder's (tids 100, 101); three more.
  for (int64_t tid : {102, 103, 104}) {
    b.tables().threads.append({0, tid, b.tables().strings.intern("pool")});
  }
  for (int i = 0; i <= 10; ++i) sample(0, 100.0 * i, 100);   // 1000 µs at 100 %
  sample(1, 0, 100), sample(1, 100, 0), sample(1, 1000, 0);  // 100 µs at 100 %
  sample(2, 0, 10), sample(2, 50, 0);                        // 50 µs at 10 %
  sample(3, 20, 20), sample(3, 60, 0);                       // 40 µs at 20 %
  sample(4, 50, 30), sample(4, 70, 0);                       // 20 µs at 30 %
  const auto run = std::make_shared<const AnalysedRun>(analysedRunOf(b.build()));
  const TimelineRows rows = buildTimelineRows(*run, 0);

  std::vector<const TimelineRow*> counters;
  for (const TimelineRow& row : rows.rows) {
    if (row.kind == RowKind::kCounter) counters.push_back(&row);
  }
  ASSERT_EQ(counters.size(), 3u);
  EXPECT_NE(counters[0]->label.find("thread 100"), std::string::npos) << counters[0]->label;
  EXPECT_NE(counters[1]->label.find("thread 101"), std::string::npos) << counters[1]->label;
  EXPECT_NE(counters[2]->label.find("3 quieter threads, summed"), std::string::npos);
  const Lane& summed = rows.lanes[static_cast<size_t>(counters[2]->first_lane)];
  // Samples at 0, 20, 50, 60, 70 µs: 10, 10 + 20, 20 + 30 (thread 3 ended),
  // 30 (thread 4 ended), 0.
  ASSERT_EQ(summed.values.size(), 5u);
  EXPECT_EQ(summed.values, (std::vector<double>{10, 30, 50, 30, 0}));
  EXPECT_EQ(summed.events[1].start, us(20));
  EXPECT_EQ(summed.events[1].end, us(50));
  EXPECT_DOUBLE_EQ(summed.max_value, 50);
}

TEST(TimelineRows, ACountersValueHoldsFromItsSampleToTheNext) {
  Lane lane;
  lane.kind = LaneKind::kCounter;
  lane.events = {{100, 200, 0, EventKind::kKernel}, {200, 300, 1, EventKind::kKernel}};
  lane.values = {5, 7};
  lane.max_value = 7;
  EXPECT_FALSE(counterValueAt(lane, 99)) << "before the first sample";
  EXPECT_EQ(counterValueAt(lane, 100), 5);
  EXPECT_EQ(counterValueAt(lane, 199), 5);
  EXPECT_EQ(counterValueAt(lane, 250), 7);
  EXPECT_FALSE(counterValueAt(lane, 301)) << "after the last sample ends";
  lane.kind = LaneKind::kDeviceWork;
  EXPECT_FALSE(counterValueAt(lane, 150));
}

TEST(TimelineRows, CounterValuesReadInThreeDigitsWithAPrefix) {
  EXPECT_EQ(counterValueText(812), "812");
  EXPECT_EQ(counterValueText(3470), "3.47 k");
  EXPECT_EQ(counterValueText(12.5e9), "12.5 G");
  EXPECT_EQ(counterValueText(0.25), "0.25");
  EXPECT_EQ(counterValueText(0.0041), "4.1 m");
  EXPECT_EQ(counterValueText(0), "0");
}

TEST(TimelineRows, OverlappingApiCallsArePackedOntoSeparateLanes) {
  TraceBuilder b;
  b.device(0, 80);
  b.call(0, 100, "cudaStreamSynchronize");
  b.call(10, 5, "cudaLaunchKernel");
  const auto run = std::make_shared<const AnalysedRun>(analysedRunOf(b.build()));
  const TimelineRows rows = buildTimelineRows(*run, 0);
  int call_lanes = 0;
  for (const Lane& lane : rows.lanes) call_lanes += lane.kind == LaneKind::kApiCalls;
  EXPECT_EQ(call_lanes, 2);
}

class TimelineWidgetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    run_ = smallRun();
    widget_.resize(1200, 600);
    widget_.setRun(run_, 0);
  }
  std::shared_ptr<const AnalysedRun> run_;
  TimelineWidget widget_;
};

TEST_F(TimelineWidgetTest, ShowEventsZoomsToTheFirstEvent) {
  const EventRef kernel{0, EventKind::kKernel, 7};
  const auto span = spanOf(kernel, *run_);
  ASSERT_TRUE(span);
  widget_.showEvents({kernel, {0, EventKind::kKernel, 8}});
  EXPECT_LE(widget_.scale().start(), span->ts);
  EXPECT_GE(widget_.scale().end(), span->end());
  // Zoomed in: the kernel fills a good part of the view.
  EXPECT_GT(widget_.scale().x(span->end()) - widget_.scale().x(span->ts),
            0.3 * widget_.scale().width());
  EXPECT_EQ(widget_.highlighted().size(), 2u);
  EXPECT_FALSE(widget_.eventRect(kernel).isEmpty());
}

TEST_F(TimelineWidgetTest, SearchFindsNextAndPreviousInTimeOrder) {
  // Zoomed into the second step, so the match can be centred without the
  // view leaving the trace; the search starts at the view's start.
  const int64_t origin = widget_.data()->rows.start;
  widget_.zoomToSpan(origin + testing::us(2000), origin + testing::us(2400));
  QSignalSpy spy(&widget_, &TimelineWidget::eventSelected);
  ASSERT_TRUE(widget_.findNext("SGEMM"));
  const EventRef first = *widget_.selected();
  EXPECT_GE(spanOf(first, *run_)->ts, origin + testing::us(2000));
  // The match is centred in the view.
  const auto span = spanOf(first, *run_);
  EXPECT_NEAR(widget_.scale().x(span->ts + span->dur / 2), widget_.scale().width() / 2.0, 2.0);
  EXPECT_EQ(first.kind, EventKind::kKernel);
  EXPECT_NE(nameOf(first, *run_).find("sgemm"), std::string::npos);
  ASSERT_TRUE(widget_.findNext("sgemm"));
  const EventRef second = *widget_.selected();
  EXPECT_GT(spanOf(second, *run_)->ts, spanOf(first, *run_)->ts);
  ASSERT_TRUE(widget_.findPrevious("sgemm"));
  EXPECT_EQ(*widget_.selected(), first);
  EXPECT_EQ(spy.count(), 3);
  EXPECT_FALSE(widget_.findNext("no such kernel"));
}

TEST_F(TimelineWidgetTest, AClickOnAnEventSelectsIt) {
  const EventRef kernel{0, EventKind::kKernel, 4};
  const auto span = spanOf(kernel, *run_);
  widget_.zoomToSpan(span->ts - span->dur, span->end() + span->dur);
  const QRectF r = widget_.eventRect(kernel);
  ASSERT_FALSE(r.isEmpty());
  QSignalSpy spy(&widget_, &TimelineWidget::eventSelected);
  QTest::mouseClick(&widget_, Qt::LeftButton, Qt::NoModifier, r.center().toPoint());
  ASSERT_EQ(spy.count(), 1);
  EXPECT_EQ(spy.at(0).at(0).value<EventRef>(), kernel);
  EXPECT_EQ(widget_.selected(), kernel);
}

// A drag from x0 to x1 at y 100 with `button` and `modifiers` held.
void drag(QWidget& widget, Qt::MouseButton button, Qt::KeyboardModifiers modifiers, int x0,
          int x1) {
  QTest::mousePress(&widget, button, modifiers, QPoint(x0, 100));
  QMouseEvent move(QEvent::MouseMove, QPointF(x1, 100), widget.mapToGlobal(QPointF(x1, 100)),
                   Qt::NoButton, button, modifiers);
  QApplication::sendEvent(&widget, &move);
  QTest::mouseRelease(&widget, button, modifiers, QPoint(x1, 100));
}

TEST_F(TimelineWidgetTest, RightOrCtrlDragZoomsToTheRange) {
  for (const auto& [button, modifiers] :
       {std::pair{Qt::RightButton, Qt::KeyboardModifiers(Qt::NoModifier)},
        std::pair{Qt::LeftButton, Qt::KeyboardModifiers(Qt::ControlModifier)}}) {
    widget_.fit();
    const double before = widget_.scale().nsPerPx();
    const int64_t t0 = widget_.scale().ts(100);
    QSignalSpy selected(&widget_, &TimelineWidget::windowSelected);
    drag(widget_, button, modifiers, TimelineWidget::kGutterPx + 100,
         TimelineWidget::kGutterPx + 300);
    EXPECT_LT(widget_.scale().nsPerPx(), before / 4);
    EXPECT_NEAR(static_cast<double>(widget_.scale().start()), static_cast<double>(t0), before);
    EXPECT_EQ(selected.count(), 0) << "a zoom selects no window";
  }
}

TEST_F(TimelineWidgetTest, ShiftDragSelectsAWindowWithoutZooming) {
  const double before = widget_.scale().nsPerPx();
  const int64_t t0 = widget_.scale().ts(100);
  const int64_t t1 = widget_.scale().ts(300);
  QSignalSpy selected(&widget_, &TimelineWidget::windowSelected);
  drag(widget_, Qt::LeftButton, Qt::ShiftModifier, TimelineWidget::kGutterPx + 100,
       TimelineWidget::kGutterPx + 300);
  ASSERT_EQ(selected.count(), 1);
  const auto window = selected.front().at(0).value<TimeWindow>();
  EXPECT_NEAR(static_cast<double>(window.start), static_cast<double>(t0), before);
  EXPECT_NEAR(static_cast<double>(window.end), static_cast<double>(t1), before);
  EXPECT_EQ(widget_.window(), window);
  EXPECT_DOUBLE_EQ(widget_.scale().nsPerPx(), before) << "the view stays";

  // Outside the window the plot is dimmed; inside it is not.
  const QImage image = widget_.grab().toImage();
  const QColor inside(image.pixel(TimelineWidget::kGutterPx + 200, image.height() - 30));
  const QColor outside(image.pixel(TimelineWidget::kGutterPx + 500, image.height() - 30));
  EXPECT_LT(outside.lightness(), inside.lightness());

  QSignalSpy cleared(&widget_, &TimelineWidget::windowCleared);
  QTest::keyClick(&widget_, Qt::Key_Escape);
  EXPECT_EQ(cleared.count(), 1);
  EXPECT_FALSE(widget_.window());
}

TEST_F(TimelineWidgetTest, KeysZoomAndFit) {
  const double fit = widget_.scale().nsPerPx();
  QTest::keyClick(&widget_, Qt::Key_W);
  EXPECT_LT(widget_.scale().nsPerPx(), fit);
  QTest::keyClick(&widget_, Qt::Key_F);
  EXPECT_DOUBLE_EQ(widget_.scale().nsPerPx(), fit);
}

TEST_F(TimelineWidgetTest, F12TogglesTheFrameTimesOfTheLastPaint) {
  EXPECT_FALSE(widget_.frameTimesShown());
  const QImage without = widget_.grab().toImage();
  QTest::keyClick(&widget_, Qt::Key_F12);
  EXPECT_TRUE(widget_.frameTimesShown());
  const QImage with = widget_.grab().toImage();
  // The painter's counts of the last repaint of the view.
  const FrameTimes& times = widget_.frameTimes();
  EXPECT_GT(times.stats.items, 0);
  EXPECT_GT(times.paint_ms, 0.0);
  const QString text = frameTimesText(times);
  EXPECT_TRUE(text.contains(QString::number(times.stats.items) + " items drawn"))
      << text.toStdString();
  EXPECT_TRUE(text.contains(QString::number(times.stats.folded) + " folded"));
  // The overlay sits top right of the plot, under the ruler.
  int differing = 0;
  for (int x = with.width() - 200; x < with.width() - 30; ++x) {
    differing += with.pixel(x, TimelineWidget::kRulerPx + TimelineWidget::kStepBandPx + 10) !=
                 without.pixel(x, TimelineWidget::kRulerPx + TimelineWidget::kStepBandPx + 10);
  }
  EXPECT_GT(differing, 20);
  QTest::keyClick(&widget_, Qt::Key_F12);
  EXPECT_FALSE(widget_.frameTimesShown());
}

// 50 bursts, 1 ms apart, of 100 kernels of 100 ns, 200 ns apart: at
// fit-all each burst (20 µs) is a fold narrower than a pixel.
std::shared_ptr<const AnalysedRun> burstRun() {
  TraceBuilder b;
  b.device(0, 80);
  for (int burst = 0; burst < 50; ++burst) {
    for (int i = 0; i < 100; ++i) b.kernel(burst * 1000.0 + i * 0.2, 0.1, "k", kNullInt);
  }
  return std::make_shared<const AnalysedRun>(analysedRunOf(b.build()));
}

TEST(TimelineWidget, ADoubleOrMiddleClickOnAFoldZoomsIntoIt) {
  for (const bool middle : {false, true}) {
    TimelineWidget widget;
    widget.resize(1200, 600);
    widget.setRun(burstRun(), 0);
    const int64_t burst = widget.data()->rows.start + us(25'000.0);
    const int y =
        TimelineWidget::kRulerPx + TimelineWidget::kStepBandPx + TimelineWidget::kLanePx / 2;
    const QPoint at(qRound(widget.xOf(burst) + 0.5), y);
    const double before = widget.scale().nsPerPx();
    if (middle) {
      QTest::mouseClick(&widget, Qt::MiddleButton, Qt::NoModifier, at);
    } else {
      QTest::mouseDClick(&widget, Qt::LeftButton, Qt::NoModifier, at);
    }
    // The burst, a pixel of the fit, now fills the view.
    EXPECT_LT(widget.scale().nsPerPx(), before / 100) << (middle ? "middle" : "double");
    EXPECT_LE(widget.scale().start(), burst);
    EXPECT_GE(widget.scale().end(), burst + us(19.0));
  }
}

TEST(TimelineWidget, HoveringALostBandSaysHowManyEventsWereLostThere) {
  TraceTables tables = testing::smallTrainingTrace();
  const int64_t origin = buildTimelineRows(analysedRunOf(testing::smallTrainingTrace()), 0).start;
  const int64_t from = origin + us(2'000.0), to = origin + us(2'400.0);
  tables.lost_spans.append({from, to - from, "collector.nvtx_ring_overflow", 4'321});
  TimelineWidget widget;
  widget.resize(1200, 600);
  widget.setRun(std::make_shared<const AnalysedRun>(analysedRunOf(std::move(tables))), 0);
  widget.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&widget));
  auto tipAt = [&](int64_t ts) {
    const QPoint at(qRound(widget.xOf(ts)), TimelineWidget::kRulerPx - 2);  // the ruler's foot
    QHelpEvent help(QEvent::ToolTip, at, widget.mapToGlobal(at));
    QApplication::sendEvent(&widget, &help);
    const QString text = QToolTip::isVisible() ? QToolTip::text() : QString();
    QToolTip::hideText();
    return text.toStdString();
  };
  // Outside first: a hidden tip fades out, and stays "visible" meanwhile.
  EXPECT_EQ(tipAt(to + us(300.0)), "");
  const std::string inside = tipAt((from + to) / 2);
  EXPECT_EQ(inside.rfind("⚠ 4,321 events lost between ", 0), 0u) << inside;
  EXPECT_NE(inside.find("collector.nvtx_ring_overflow"), std::string::npos) << inside;
}

// A key press as the platform sends it, scan code included.
void press(QWidget& widget, int key, uint32_t scan_code,
           Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
  QKeyEvent event(QEvent::KeyPress, key, modifiers, scan_code, 0, 0);
  QApplication::sendEvent(&widget, &event);
}

TEST_F(TimelineWidgetTest, WAndSZoomAtTheMousePointer) {
  const int x = TimelineWidget::kGutterPx + 200;  // far from the centre
  QMouseEvent move(QEvent::MouseMove, QPointF(x, 100), widget_.mapToGlobal(QPointF(x, 100)),
                   Qt::NoButton, Qt::NoButton, Qt::NoModifier);
  QApplication::sendEvent(&widget_, &move);
  const int64_t under = widget_.scale().ts(x - TimelineWidget::kGutterPx);
  const double before = widget_.scale().nsPerPx();
  QTest::keyClick(&widget_, Qt::Key_W);
  EXPECT_LT(widget_.scale().nsPerPx(), before);
  EXPECT_NEAR(static_cast<double>(widget_.scale().ts(x - TimelineWidget::kGutterPx)),
              static_cast<double>(under), widget_.scale().nsPerPx());
  QTest::keyClick(&widget_, Qt::Key_Plus);
  QTest::keyClick(&widget_, Qt::Key_S);
  EXPECT_NEAR(static_cast<double>(widget_.scale().ts(x - TimelineWidget::kGutterPx)),
              static_cast<double>(under), widget_.scale().nsPerPx());
}

TEST_F(TimelineWidgetTest, WasdByPositionOnAzerty) {
  // Under X11 an AZERTY keyboard sends Z at the W position (keycode 25) and
  // Q at the A position (38); its W (at QWERTY's Z, keycode 52) does nothing.
  widget_.setScanCodes(ScanCodes::kXkb);
  QTest::keyClick(&widget_, Qt::Key_W);  // zoom in, so there is room to pan
  const double zoomed = widget_.scale().nsPerPx();
  press(widget_, Qt::Key_Z, 25);
  EXPECT_LT(widget_.scale().nsPerPx(), zoomed);
  const double after_z = widget_.scale().nsPerPx();
  press(widget_, Qt::Key_W, 52);
  EXPECT_DOUBLE_EQ(widget_.scale().nsPerPx(), after_z);
  const int64_t start = widget_.scale().start();
  press(widget_, Qt::Key_Q, 38);
  EXPECT_LT(widget_.scale().start(), start);
  press(widget_, Qt::Key_D, 40);
  EXPECT_NEAR(static_cast<double>(widget_.scale().start()), static_cast<double>(start),
              widget_.scale().nsPerPx());
}

TEST_F(TimelineWidgetTest, ArrowsPanAndScrollHomeFits) {
  const double fit = widget_.scale().nsPerPx();
  QTest::keyClick(&widget_, Qt::Key_W);
  QTest::keyClick(&widget_, Qt::Key_W);
  const int64_t start = widget_.scale().start();
  QTest::keyClick(&widget_, Qt::Key_Right);
  EXPECT_GT(widget_.scale().start(), start);
  QTest::keyClick(&widget_, Qt::Key_Left);
  EXPECT_NEAR(static_cast<double>(widget_.scale().start()), static_cast<double>(start),
              widget_.scale().nsPerPx());
  QTest::keyClick(&widget_, Qt::Key_Minus);
  EXPECT_GT(widget_.scale().nsPerPx(), fit / 2.25);
  QTest::keyClick(&widget_, Qt::Key_Home);
  EXPECT_DOUBLE_EQ(widget_.scale().nsPerPx(), fit);
}

TEST_F(TimelineWidgetTest, AltLeftAndAltRightWalkTheZoomHistory) {
  const int64_t fit_start = widget_.scale().start();
  const double fit = widget_.scale().nsPerPx();
  widget_.showEvents({{0, EventKind::kKernel, 7}});
  const int64_t shown_start = widget_.scale().start();
  const double shown = widget_.scale().nsPerPx();
  // Three wheel notches: one step of history.
  for (int i = 0; i < 3; ++i) {
    QWheelEvent wheel(QPointF(300, 100), widget_.mapToGlobal(QPointF(300, 100)), QPoint(),
                      QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(&widget_, &wheel);
  }
  ASSERT_LT(widget_.scale().nsPerPx(), shown);
  QTest::keyClick(&widget_, Qt::Key_Left, Qt::AltModifier);
  EXPECT_NEAR(widget_.scale().nsPerPx(), shown, shown * 1e-3);
  EXPECT_NEAR(static_cast<double>(widget_.scale().start()), static_cast<double>(shown_start),
              shown);
  QTest::keyClick(&widget_, Qt::Key_Left, Qt::AltModifier);
  EXPECT_NEAR(widget_.scale().nsPerPx(), fit, fit * 1e-3);
  EXPECT_NEAR(static_cast<double>(widget_.scale().start()), static_cast<double>(fit_start), fit);
  QTest::keyClick(&widget_, Qt::Key_Right, Qt::AltModifier);
  EXPECT_NEAR(widget_.scale().nsPerPx(), shown, shown * 1e-3);
}

TEST_F(TimelineWidgetTest, EscClearsTheSelectionAndHighlights) {
  widget_.showEvents({{0, EventKind::kKernel, 7}, {0, EventKind::kKernel, 8}});
  ASSERT_TRUE(widget_.selected());
  QSignalSpy cleared(&widget_, &TimelineWidget::windowCleared);
  QTest::keyClick(&widget_, Qt::Key_Escape);
  EXPECT_FALSE(widget_.selected());
  EXPECT_TRUE(widget_.highlighted().empty());
  EXPECT_EQ(cleared.count(), 0) << "no window was selected";
}

TEST(TimelineView, FindZoomsToTheMatchAndSaysWhichOfHowMany) {
  auto run = smallRun();
  TimelineView view;
  view.resize(1200, 600);
  view.setRun(run, 0);
  auto* search = view.findChild<QLineEdit*>();
  ASSERT_NE(search, nullptr);
  search->setText("sgemm");
  QTest::keyClick(search, Qt::Key_Return);
  const TimelineWidget& timeline = *view.timeline();
  const size_t matches = timeline.search().matches().size();
  ASSERT_GT(matches, 2u);
  EXPECT_EQ(view.searchStatus(), QString("1 of %1").arg(matches));
  const auto span = spanOf(*timeline.selected(), *run);
  EXPECT_GE(timeline.scale().x(span->end()) - timeline.scale().x(span->ts), 8.0)
      << "zoomed in far enough to see the match";
  QTest::keyClick(search, Qt::Key_Return);
  EXPECT_EQ(view.searchStatus(), QString("2 of %1").arg(matches));
  search->setText("no such kernel");
  QTest::keyClick(search, Qt::Key_Return);
  EXPECT_TRUE(view.searchStatus().startsWith("no event named"));
}

TEST(TimelineWidget, PaintsWithNoOneOrManyEvents) {
  TimelineWidget widget;
  widget.resize(1200, 600);
  EXPECT_FALSE(widget.grab().isNull());  // no run

  TraceBuilder one;
  one.device(0, 80);
  one.kernel(10, 5, "only_kernel", kNullInt);
  widget.setRun(std::make_shared<const AnalysedRun>(analysedRunOf(one.build())), 0);
  const QImage single = widget.grab().toImage();
  EXPECT_EQ(single.size(), QSize(1200, 600));

  TraceBuilder many;
  many.device(0, 80);
  for (int i = 0; i < 20'000; ++i)
    many.kernel(i * 3.0, 2.0, "k" + std::to_string(i % 50), kNullInt);
  for (int i = 0; i < 2; ++i) {
    CounterTable::Row counter;
    counter.ts = us(i * 30'000.0);
    counter.name = many.tables().strings.intern("memory");
    counter.value = 1.0 + 2 * i;
    many.tables().counters.append(counter);
  }
  widget.setRun(std::make_shared<const AnalysedRun>(analysedRunOf(many.build())), 0);
  const QImage image = widget.grab().toImage();
  // Over the counter's lane, a tooltip with its value: 1 until 30 ms, then 3.
  const TimelineRows& rows = widget.data()->rows;
  int counter = -1;
  for (size_t l = 0; l < rows.lanes.size(); ++l) {
    if (rows.lanes[l].kind == LaneKind::kCounter) counter = static_cast<int>(l);
  }
  ASSERT_GE(counter, 0);
  const LaneLayout layout = layoutLanes(rows);
  const int counter_y =
      TimelinePainter::rowsTop() + layout.lane_y[static_cast<size_t>(counter)] + 20;
  const QString tip =
      widget.counterTip(QPoint(static_cast<int>(widget.xOf(rows.start + us(10'000.0))), counter_y));
  EXPECT_TRUE(tip.startsWith("memory")) << tip.toStdString();
  EXPECT_TRUE(tip.contains("\n1 at ")) << tip.toStdString();
  EXPECT_TRUE(tip.contains("(max 3)")) << tip.toStdString();
  EXPECT_TRUE(widget.counterTip(QPoint(TimelineWidget::kGutterPx + 10, 5)).isEmpty());
  // Something was drawn in the lane area: not every pixel is the background.
  const QRgb background = image.pixel(TimelineWidget::kGutterPx + 5, image.height() - 40);
  int differing = 0;
  const int y =
      TimelineWidget::kRulerPx + TimelineWidget::kStepBandPx + TimelineWidget::kLanePx / 2;
  for (int x = TimelineWidget::kGutterPx + 30; x < 1100; ++x)
    differing += image.pixel(x, y) != background;
  EXPECT_GT(differing, 500);

  widget.setRun(nullptr, 0);
  EXPECT_FALSE(widget.grab().isNull());
}

}  // namespace
}  // namespace damscope
