// The chart widgets, offscreen: a click on a roofline disc or a bar asks for
// the events it stands for (and a click on empty space asks for nothing and
// does not crash, as QScatterSeries::clicked can in Qt 6.4), the empty states
// say why, MFU that is not computed is not drawn, and every chart paints with
// a run and without one. With ../shared/traces, ResNet-50's charts are drawn
// and, when DAMSCOPE_CHART_GRABS names a directory, saved there to be looked at.
#include <gtest/gtest.h>

#include <QBarSet>
#include <QChart>
#include <QGraphicsSimpleTextItem>
#include <QHelpEvent>
#include <QHorizontalStackedBarSeries>
#include <QImage>
#include <QLineSeries>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStackedBarSeries>
#include <QTest>
#include <QToolTip>
#include <map>
#include <set>

#include "gui/charts/charts_view.h"
#include "gui/charts/roofline_chart.h"
#include "gui/charts/roofline_points.h"
#include "gui/charts/step_breakdown_chart.h"
#include "gui/charts/step_time_chart.h"
#include "gui/charts/top_kernels_chart.h"
#include "gui/models/figure_scope.h"
#include "gui/models/operation_stats_model.h"
#include "gui/models/palette.h"
#include "gui/models/qt_text.h"
#include "tests/gui/gui_test_support.h"
#include "tests/test_support.h"

namespace damscope {
namespace {

// Distinct colours in a coarse sample: a blank image has one or two.
size_t coloursIn(const QImage& image) {
  std::set<QRgb> colours;
  for (int y = 0; y < image.height(); y += 5) {
    for (int x = 0; x < image.width(); x += 5) colours.insert(image.pixel(x, y));
  }
  return colours.size();
}

// Shown at a size, laid out, as a person would see it.
template <typename W>
void showAt(W& widget, QSize size = {1000, 700}) {
  widget.resize(size);
  widget.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&widget));
  QCoreApplication::processEvents();
}

EventRefs eventsOf(const QSignalSpy& spy, int i = 0) {
  return spy.at(i).at(0).value<EventRefs>();
}

// The small training run with roofline points on its two kernel names, one
// point that cannot sit on log axes, a device peak and a bandwidth.
std::shared_ptr<AnalysedRun> runWithRoofline(DeviceKind kind = DeviceKind::kGpu) {
  auto run = std::make_shared<AnalysedRun>(testing::analysedRunOf(testing::smallTrainingTrace()));
  RankResult& r = run->run.ranks.at(0);
  r.device_kind = kind;
  RooflineReport& roof = r.roofline;
  roof.bandwidth_bytes_per_s = 900e9;
  roof.ceilings = {{Precision::kFp32, 15.7e12, 15.7e12 / 900e9}};
  auto point = [](std::string name, KernelCategory cat, std::optional<double> ai, double rate,
                  int64_t time) {
    RooflinePoint p;
    p.name = std::move(name);
    p.category = cat;
    p.intensity = ai;
    p.achieved_flops_per_s = rate;
    p.time_ns = time;
    p.kernels = 9;
    p.ceiling_flops_per_s =
        ai ? std::optional<double>(std::min(15.7e12, 900e9 * *ai)) : std::nullopt;
    if (p.ceiling_flops_per_s) p.pct_of_ceiling = 100 * rate / *p.ceiling_flops_per_s;
    return p;
  };
  roof.kernels = {
      point("volta_sgemm_128x64_nn", KernelCategory::kGemm, 60.0, 9e12, 1'260'000),
      point("vectorized_elementwise_kernel", KernelCategory::kElementwise, 0.25, 1.5e11, 200'000),
      point("shapeless_kernel", KernelCategory::kOther, std::nullopt, 0, 100'000)};
  return run;
}

TEST(RooflineChart, ClickOnADiscSelectsEveryRunOfThatKernel) {
  auto run = runWithRoofline();
  RooflineChart chart;
  chart.setRun(run, 0);
  showAt(chart);
  ASSERT_TRUE(chart.showsChart());
  ASSERT_EQ(chart.plot().markers.size(), 2u);
  QSignalSpy spy(&chart, &RooflineChart::eventsRequested);
  for (size_t i = 0; i < 2; ++i) {
    const std::optional<QPointF> at = chart.markerPosition(i);
    ASSERT_TRUE(at.has_value());
    QTest::mouseMove(chart.viewport(), at->toPoint());  // the tooltip path
    QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, at->toPoint());
    ASSERT_EQ(spy.count(), static_cast<int>(i + 1));
    const std::string& name =
        run->run.ranks[0].roofline.kernels[chart.plot().markers[i].kernel].name;
    const EventRefs expected = kernelsNamed(*run, 0, name);
    EXPECT_EQ(expected.size(), 9u);  // three steps, three runs each
    EXPECT_EQ(eventsOf(spy, static_cast<int>(i)), expected) << name;
  }
}

// The tool-tip event of a mouse at rest (after ~0.7 s) used to reach the
// scene, which found no item with a tool tip and hid the disc's.
TEST(RooflineChart, ADiscsToolTipStaysWhileTheMouseRestsOnIt) {
  auto run = runWithRoofline();
  RooflineChart chart;
  chart.setRun(run, 0);
  showAt(chart);
  const std::optional<QPointF> at = chart.markerPosition(0);
  ASSERT_TRUE(at.has_value());
  QTest::mouseMove(chart.viewport(), at->toPoint());
  ASSERT_TRUE(QToolTip::isVisible());
  const QString text = QToolTip::text();
  EXPECT_FALSE(text.isEmpty());
  QHelpEvent rest(QEvent::ToolTip, at->toPoint(), chart.viewport()->mapToGlobal(at->toPoint()));
  QApplication::sendEvent(chart.viewport(), &rest);
  QTest::qWait(500);  // longer than a hidden tip's fade (300 ms)
  EXPECT_TRUE(QToolTip::isVisible());
  EXPECT_EQ(QToolTip::text(), text);
  QToolTip::hideText();
}

TEST(RooflineChart, ClickOnEmptySpaceAsksForNothing) {
  RooflineChart chart;
  chart.setRun(runWithRoofline(), 0);
  showAt(chart);
  const QString dir = qEnvironmentVariable("DAMSCOPE_CHART_GRABS");
  if (!dir.isEmpty()) chart.grab().save(dir + "/charts_roofline_fabricated.png");
  QSignalSpy spy(&chart, &RooflineChart::eventsRequested);
  const QPointF a = *chart.markerPosition(0), b = *chart.markerPosition(1);
  // Far from both discs, inside the plot; then outside the plot, on the axes.
  const QPoint empty(static_cast<int>(a.x()), static_cast<int>(b.y()));
  ASSERT_FALSE(chart.markerAt(empty).has_value());
  QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, empty);
  QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, QPoint(3, 3));
  QTest::mouseClick(chart.viewport(), Qt::RightButton, {}, a.toPoint());
  EXPECT_EQ(spy.count(), 0);
}

TEST(RooflineChart, SaysHowManyKernelsAreLeftOutAndNamesTheMemoryRoof) {
  for (DeviceKind kind : {DeviceKind::kGpu, DeviceKind::kCpu}) {
    RooflineChart chart;
    const auto run = runWithRoofline(kind);
    chart.setRun(run, 0);
    showAt(chart);
    EXPECT_NE(chart.caption().indexOf("1 kernel without FLOPs or bytes is not shown"), -1)
        << chart.caption().toStdString();
    EXPECT_EQ(chart.chart()->title(), qtString(rooflineTitle(run->run.ranks[0].roofline, 2)));
    QStringList labels;
    for (QGraphicsItem* item : chart.chart()->childItems()) {
      if (auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item)) labels << text->text();
    }
    const QString memory = kind == DeviceKind::kCpu ? "DRAM 900 GB/s" : "HBM 900 GB/s";
    EXPECT_TRUE(labels.contains(memory)) << labels.join(" | ").toStdString();
    EXPECT_TRUE(labels.contains("fp32 peak 15.7 TFLOP/s")) << labels.join(" | ").toStdString();
  }
}

TEST(RooflineChart, RidgeAndPeakLabelsNeverOverlap) {
  // The V100's fp32 and fp64 peaks (15.7 and 7.8 TFLOP/s, ridges 17.4 and
  // 8.7 FLOP/B) put both pairs of labels on top of each other; the A100's
  // fp64 and fp32 share 19.5 TFLOP/s and are named on one roof.
  for (const bool a100 : {false, true}) {
    auto run = runWithRoofline();
    RooflineReport& roof = run->run.ranks.at(0).roofline;
    const double bw = a100 ? 1555e9 : 900e9;
    roof.bandwidth_bytes_per_s = bw;
    roof.ceilings = a100 ? std::vector<RooflineCeiling>{{Precision::kFp64, 19.5e12, 19.5e12 / bw},
                                                        {Precision::kFp32, 19.5e12, 19.5e12 / bw},
                                                        {Precision::kTf32, 156e12, 156e12 / bw}}
                         : std::vector<RooflineCeiling>{{Precision::kFp32, 15.7e12, 15.7e12 / bw},
                                                        {Precision::kFp64, 7.8e12, 7.8e12 / bw}};
    RooflineChart chart;
    chart.setRun(run, 0);
    for (const QSize size : {QSize(700, 480), QSize(1200, 800)}) {
      showAt(chart, size);
      QStringList texts;
      std::vector<QRectF> boxes;
      for (QGraphicsItem* item : chart.chart()->childItems()) {
        auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item);
        if (!text || !text->isVisible()) continue;
        texts << text->text();
        if (text->rotation() == 0) boxes.push_back(text->sceneBoundingRect());
      }
      const std::string shown = texts.join(" | ").toStdString();
      if (a100) {
        EXPECT_TRUE(texts.contains("fp64/fp32 peak 19.5 TFLOP/s")) << shown;
        EXPECT_TRUE(texts.contains("tf32 peak 156.0 TFLOP/s")) << shown;
      } else {
        EXPECT_TRUE(texts.contains("fp32 peak 15.7 TFLOP/s")) << shown;
        EXPECT_TRUE(texts.contains("fp64 peak 7.8 TFLOP/s")) << shown;
      }
      EXPECT_EQ(texts.filter("ridge").size(), 2) << shown;
      for (size_t i = 0; i < boxes.size(); ++i) {
        for (size_t j = i + 1; j < boxes.size(); ++j) {
          EXPECT_FALSE(boxes[i].intersects(boxes[j])) << shown << " at " << size.width();
        }
      }
    }
  }
}

TEST(RooflineChart, WithoutKernelWorkSaysWhyInsteadOfEmptyAxes) {
  auto run = std::make_shared<AnalysedRun>(testing::analysedRunOf(testing::smallTrainingTrace()));
  ASSERT_TRUE(run->run.ranks[0].roofline.kernels.empty());
  RooflineChart chart;
  chart.setRun(run, 0);
  showAt(chart);
  EXPECT_FALSE(chart.showsChart());
  EXPECT_NE(chart.emptyText().indexOf("no kernel has FLOP and byte counts"), -1);
  QSignalSpy spy(&chart, &RooflineChart::eventsRequested);
  QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, QPoint(100, 100));
  EXPECT_EQ(spy.count(), 0);
}

TEST(StepBreakdownChart, OneSetPerAxisAndAClickSelectsTheStep) {
  auto run = std::make_shared<AnalysedRun>(testing::analysedRunOf(testing::smallTrainingTrace()));
  const RankResult& r = run->run.ranks[0];
  StepBreakdownChart chart;
  chart.setRun(run, 0);
  showAt(chart);
  ASSERT_NE(chart.barSeries(), nullptr);
  ASSERT_EQ(chart.barSeries()->count(), static_cast<int>(kAxisCount));
  for (QBarSet* set : chart.barSeries()->barSets()) {
    EXPECT_EQ(set->count(), static_cast<int>(r.scorecard->steps.size()));
  }
  EXPECT_EQ(chart.barSeries()->barSets()[0]->label(), "data stall");
  QSignalSpy spy(&chart, &StepBreakdownChart::eventsRequested);
  const size_t step = 1;
  ASSERT_TRUE(r.steps[step].range_id.has_value());
  QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, chart.barCentre(step)->toPoint());
  ASSERT_EQ(spy.count(), 1);
  EXPECT_EQ(eventsOf(spy), (EventRefs{{0, EventKind::kRange, *r.steps[step].range_id}}));
  // Between two bars: nothing.
  const QPointF gap = (*chart.barCentre(0) + *chart.barCentre(1)) / 2;
  QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, gap.toPoint());
  EXPECT_EQ(spy.count(), 1);
}

TEST(StepTimeChart, MfuNotComputedIsSaidNotDrawnAsZeros) {
  auto run = std::make_shared<AnalysedRun>(testing::analysedRunOf(testing::smallTrainingTrace()));
  StepTimeChart chart;
  chart.setRun(run, 0);
  showAt(chart);
  ASSERT_TRUE(chart.showsChart());
  EXPECT_EQ(chart.mfuSeries(), nullptr);
  EXPECT_TRUE(chart.caption().startsWith("MFU not computed: ")) << chart.caption().toStdString();
  QSignalSpy spy(&chart, &StepTimeChart::eventsRequested);
  QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, chart.barCentre(0)->toPoint());
  ASSERT_EQ(spy.count(), 1);
  EXPECT_EQ(eventsOf(spy)[0].kind, EventKind::kRange);
}

TEST(StepTimeChart, MfuPerStepOnItsOwnAxis) {
  auto run = std::make_shared<AnalysedRun>(testing::analysedRunOf(testing::smallTrainingTrace()));
  RankResult& r = run->run.ranks[0];
  r.mfu.mfu_pct = 40;
  r.mfu.steps.assign(r.steps.size(), StepMfu{});
  for (StepMfu& s : r.mfu.steps) s.mfu_pct = 40;
  StepTimeChart chart;
  chart.setRun(run, 0);
  showAt(chart);
  ASSERT_NE(chart.mfuSeries(), nullptr);
  EXPECT_EQ(chart.mfuSeries()->count(), static_cast<int>(r.steps.size()));
  EXPECT_EQ(chart.mfuSeries()->attachedAxes().size(), 2);
}

// A bar counts the runs of the analysed steps; its click selects those runs,
// not the cut step's too, and the title says which steps (issue 31 §1).
TEST(TopKernelsChart, ClickOnABarSelectsTheRunsItCounts) {
  auto run = std::make_shared<AnalysedRun>(testing::analysedRunOf(testing::smallTrainingTrace()));
  const RankResult& r = run->run.ranks[0];
  TopKernelsChart chart;
  chart.setRun(run, 0);
  showAt(chart);
  ASSERT_EQ(chart.bars().size(), 2u);
  EXPECT_TRUE(chart.chart()->title().contains(analysedStepsWords(r)))
      << chart.chart()->title().toStdString();
  QSignalSpy spy(&chart, &TopKernelsChart::eventsRequested);
  for (size_t i = 0; i < 2; ++i) {
    QTest::mouseMove(chart.viewport(), chart.barCentre(i)->toPoint());
    QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, chart.barCentre(i)->toPoint());
    ASSERT_EQ(spy.count(), static_cast<int>(i + 1));
    const EventRefs selected = eventsOf(spy, static_cast<int>(i));
    EXPECT_EQ(static_cast<int64_t>(selected.size()), chart.bars()[i].kernels);
    EXPECT_EQ(selected.size(), 6u) << "two analysed steps of three runs";
    const EventRefs all = kernelsNamed(*run, 0, chart.bars()[i].name);
    EXPECT_EQ(all.size(), 9u);
    for (const EventRef& e : selected) EXPECT_NE(std::find(all.begin(), all.end(), e), all.end());
  }
}

// resnet50_workers0 opened and analysed, not stored; null (with a failure)
// when it cannot be read.
std::shared_ptr<const AnalysedRun> resnet50Run() {
  PipelineOptions options;
  options.store = false;
  auto opened = openRun({testing::sharedTrace("kineto/resnet50_workers0.pt.trace.json.gz")},
                        options, EventsNeeded::kEveryRank);
  EXPECT_TRUE(opened.ok()) << opened.error().message();
  if (!opened.ok()) return nullptr;
  return std::make_shared<const AnalysedRun>(std::move(opened.value()));
}

// "Chart kernel names are the same as the table's" (issue 31): the bars'
// labels are the Statistics table's names of the same kernels.
TEST(TopKernelsChart, BarsAreNamedAsTheStatisticsTableNamesThem) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  const std::shared_ptr<const AnalysedRun> run = resnet50Run();
  ASSERT_TRUE(run);
  TopKernelsChart chart;
  chart.setRun(run, 0);
  showAt(chart, {1400, 900});
  OperationStatsModel table(OperationKind::kKernels);
  const RankResult& r = run->run.ranks[0];
  table.setTable(
      operationTable(*run, 0, OperationKind::kKernels, scopeWindow(r, FigureScope::kAnalysedSteps)),
      analysedStepsWords(r));
  std::map<std::string, QString> table_names;
  for (int row = 0; row < table.rowCount(); ++row) {
    table_names[table.rows()[static_cast<size_t>(row)].name] =
        table.index(row, 0).data().toString();
  }
  ASSERT_GE(chart.bars().size(), 5u);
  for (const KernelBar& bar : chart.bars()) {
    ASSERT_TRUE(table_names.count(bar.name)) << bar.name;
    const QString label = qtString(bar.label), name = table_names[bar.name];
    // The same name, or the same shortened to fit the axis: its head and
    // tail around the "…" (kernelLabel drops leading namespaces, then the middle).
    const qsizetype cut = label.indexOf(QStringLiteral("…"));
    if (label == name || cut < 0) {
      EXPECT_EQ(label, name) << bar.name;
    } else {
      EXPECT_TRUE(name.startsWith(label.left(cut)) || label.startsWith(QStringLiteral("…")))
          << label.toStdString() << " vs " << name.toStdString();
      EXPECT_TRUE(name.endsWith(label.mid(cut + 1)))
          << label.toStdString() << " vs " << name.toStdString();
    }
  }
}

TEST(ChartsView, EveryChartPaintsWithARunAndWithout) {
  ChartsView view;
  QSignalSpy spy(&view, &ChartsView::eventsRequested);
  showAt(view, {1400, 900});
  for (const auto& run : {std::shared_ptr<AnalysedRun>{}, runWithRoofline()}) {
    view.setRun(run, 0);
    QCoreApplication::processEvents();
    for (QWidget* w : std::initializer_list<QWidget*>{view.stepBreakdown(), view.stepTime(),
                                                      view.topKernels()}) {
      const QImage image = w->grab().toImage();
      ASSERT_FALSE(image.isNull());
      EXPECT_GT(coloursIn(image), run ? 20u : 1u) << w->metaObject()->className();
    }
  }
  // A rank the run does not have clears the charts too.
  view.setRun(runWithRoofline(), 5);
  EXPECT_FALSE(view.topKernels()->showsChart());
  view.setRun(runWithRoofline(), 0);
  QCoreApplication::processEvents();
  QTest::mouseClick(view.topKernels()->viewport(), Qt::LeftButton, {},
                    view.topKernels()->barCentre(0)->toPoint());
  EXPECT_EQ(spy.count(), 1);  // forwarded
}

TEST(ChartsView, ChartsKeepAReadableSizeAndTheViewScrolls) {
  ChartsView view;
  view.setRun(runWithRoofline(), 0);
  showAt(view, {1400, 900});
  EXPECT_EQ(view.columns(), 2);
  // The window of a 1280 x 800 screen with the diagnosis docked: about 700 px.
  showAt(view, {700, 480});
  EXPECT_EQ(view.columns(), 1);
  for (QWidget* w :
       std::initializer_list<QWidget*>{view.stepBreakdown(), view.stepTime(), view.topKernels()}) {
    EXPECT_GE(w->width(), ChartsView::kChartMinimum.width()) << w->metaObject()->className();
    EXPECT_GE(w->height(), ChartsView::kChartMinimum.height()) << w->metaObject()->className();
  }
  EXPECT_GT(view.verticalScrollBar()->maximum(), 0);  // three charts do not fit 480 px
}

TEST(ChartLegend, EntriesWrapAndNoNameIsCut) {
  // The seven D·A·M axes are wider than one chart: Qt's one-row legend cut
  // them to "exposed commu…"; this one takes more rows.
  ChartLegend legend;
  std::vector<LegendEntry> entries;
  for (size_t a = 0; a < kAxisCount; ++a) {
    entries.push_back({axisColor(static_cast<Axis>(a)), qtString(axisLabel(static_cast<Axis>(a)))});
  }
  legend.setEntries(entries);
  const int line = legend.fontMetrics().height();
  EXPECT_GT(legend.heightForWidth(460), 2 * line);
  EXPECT_LT(legend.heightForWidth(4000), 2 * line);
  legend.resize(460, legend.heightForWidth(460));
  legend.show();
  const QImage image = legend.grab().toImage();
  EXPECT_GT(coloursIn(image), static_cast<size_t>(kAxisCount));  // every swatch drawn
  legend.setEntries({});
  EXPECT_TRUE(legend.isHidden());
}

TEST(ChartsOfSharedTraces, ResNet50) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  const std::shared_ptr<const AnalysedRun> run = resnet50Run();
  ASSERT_TRUE(run);
  const RankResult& r = run->run.ranks.at(0);
  const QSize size(1200, 800);
  const QString dir = qEnvironmentVariable("DAMSCOPE_CHART_GRABS");
  auto grab = [&](QWidget& w, const char* name) {
    showAt(w, size);
    const QImage image = w.grab().toImage();
    EXPECT_GT(coloursIn(image), 20u) << name;
    if (!dir.isEmpty()) image.save(dir + "/charts_" + name + ".png");
  };

  RooflineChart roofline;
  roofline.setRun(run, 0);
  ASSERT_TRUE(roofline.showsChart());
  EXPECT_EQ(roofline.plot().markers.size() + static_cast<size_t>(roofline.plot().left_out),
            r.roofline.kernels.size());
  ASSERT_FALSE(roofline.plot().markers.empty());
  grab(roofline, "roofline");
  // Every disc of the real run, clicked: each asks for its kernel's runs.
  QSignalSpy spy(&roofline, &RooflineChart::eventsRequested);
  for (size_t i = 0; i < roofline.plot().markers.size(); ++i) {
    const QPoint at = roofline.markerPosition(i)->toPoint();
    QTest::mouseClick(roofline.viewport(), Qt::LeftButton, {}, at);
    ASSERT_EQ(spy.count(), static_cast<int>(i + 1));
    EXPECT_FALSE(eventsOf(spy, static_cast<int>(i)).empty());
  }

  StepBreakdownChart breakdown;
  breakdown.setRun(run, 0);
  EXPECT_EQ(breakdown.bars().labels.size(), r.steps.size());
  grab(breakdown, "step_breakdown");
  StepTimeChart step_time;
  step_time.setRun(run, 0);
  // ResNet-50's model FLOPs come from its recorded op shapes.
  EXPECT_FALSE(step_time.caption().startsWith("MFU not computed"))
      << step_time.caption().toStdString();
  grab(step_time, "step_time");
  TopKernelsChart top;
  top.setRun(run, 0);
  grab(top, "top_kernels");
  EXPECT_EQ(top.bars().size(),
            std::min<size_t>(15, r.kernels.top.size()));  // all fit at 1200 x 800
  // Small: fewer rows and shorter names, rather than labels Qt drops.
  top.resize(560, 340);
  QCoreApplication::processEvents();
  EXPECT_LT(top.bars().size(), 15u);
  EXPECT_GE(top.bars().size(), 5u);
  for (const KernelBar& b : top.bars()) EXPECT_LT(b.label.size(), 44u) << b.label;
  if (!dir.isEmpty()) top.grab().save(dir + "/charts_top_kernels_small.png");

  ChartsView view;
  view.setRun(run, 0);
  view.resize(1600, 1000);
  grab(view, "view");
  for (const ChartFrame* chart : std::initializer_list<const ChartFrame*>{
           view.stepBreakdown(), view.stepTime(), view.topKernels()}) {
    EXPECT_FALSE(chart->legend()->entries().empty()) << chart->metaObject()->className();
  }
}

}  // namespace
}  // namespace damscope
