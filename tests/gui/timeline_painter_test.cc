// The timeline painted onto a QImage, no widget: a kernel is drawn in its
// class's colour where it runs, a bubble in its cause's colour, nothing lies
// beyond the trace's ends, and the items the painter reports are what it drew.
#include "gui/timeline/timeline_painter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <vector>

#include <QImage>
#include <QPainter>

#include "analyzer/analyses/kernel_categories.h"
#include "gui/models/palette.h"
#include "tests/gui/gui_test_support.h"
#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::analysedRunOf;
using testing::smallTrainingTrace;

constexpr int kWidth = 1200;
constexpr int kHeight = 600;

class TimelinePainterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    run_ = std::make_shared<const AnalysedRun>(analysedRunOf(smallTrainingTrace()));
    data_ = buildTimelineData(*run_, 0);
    layout_ = layoutLanes(data_->rows);
    frame_.run = run_.get();
    frame_.data = data_.get();
    frame_.size = QSize(kWidth, kHeight);
    frame_.lane_y = layout_.lane_y;
    frame_.scale.setWidth(kWidth - TimelinePainter::kGutterPx);
    frame_.scale.setLimits(data_->rows.start, data_->rows.end);
    frame_.scale.fitAll();
  }

  QImage paint() {
    QImage image(kWidth, kHeight, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::magenta);  // anything left unpainted shows
    items_.clear();
    QPainter p(&image);
    painter_.paint(p, frame_, &items_);
    return image;
  }

  // The share of the pixels inside `rect` that are `colour`.
  static double shareOf(const QImage& image, const QRectF& rect, const QColor& colour) {
    const QRect r = rect.toAlignedRect().intersected(image.rect());
    int n = 0;
    int same = 0;
    for (int y = r.top(); y <= r.bottom(); ++y) {
      for (int x = r.left(); x <= r.right(); ++x) {
        ++n;
        same += QColor(image.pixel(x, y)) == colour;
      }
    }
    return n ? static_cast<double>(same) / n : 0;
  }

  const TimelineItem* itemOf(const EventRef& ref) const {
    for (const TimelineItem& item : items_) {
      if (item.item.kind == ref.kind && item.item.id == ref.id) return &item;
    }
    return nullptr;
  }

  std::shared_ptr<const AnalysedRun> run_;
  std::shared_ptr<const TimelineData> data_;
  LaneLayout layout_;
  TimelineFrame frame_;
  TimelinePainter painter_;
  std::vector<TimelineItem> items_;
};

TEST_F(TimelinePainterTest, AKernelIsDrawnInItsClassColourWhereItRuns) {
  const EventRef kernel{0, EventKind::kKernel, 4};
  const auto span = spanOf(kernel, *run_);
  ASSERT_TRUE(span);
  frame_.scale.fit(span->ts - span->dur, span->end() + span->dur);
  const QImage image = paint();
  const TimelineItem* drawn = itemOf(kernel);
  ASSERT_NE(drawn, nullptr);
  // A third of the plot, where the scale puts it.
  EXPECT_NEAR(drawn->rect.left(), TimelinePainter::kGutterPx + frame_.scale.x(span->ts), 1.0);
  EXPECT_NEAR(drawn->rect.width(), frame_.scale.width() / 3.0, 2.0);
  EXPECT_EQ(drawn->rect.top(), TimelinePainter::laneTop(frame_, data_->rows.laneOf(kernel)) + 1);
  const TraceTables& t = run_->tables[0];
  const KernelCategory category =
      data_->rows.kernel_categories[static_cast<size_t>(t.kernels.name[4].value)];
  // Most of the box is the fill; its name is written over the rest.
  EXPECT_GT(shareOf(image, drawn->rect.adjusted(1, 1, -1, -1), categoryColor(category)), 0.6);
}

TEST_F(TimelinePainterTest, ABubbleIsDrawnInItsCausesColour) {
  const RankResult& r = run_->run.ranks[0];
  std::optional<EventRef> loading;
  for (size_t g = 0; g < r.gaps.size() && !loading; ++g) {
    if (r.gaps[g].cause == GapCause::kDataLoading && !r.gaps[g].stream) {
      loading = EventRef{0, EventKind::kGap, static_cast<int64_t>(g)};
    }
  }
  ASSERT_TRUE(loading) << "the loader stall is a whole-device bubble";
  const auto span = spanOf(*loading, *run_);
  frame_.scale.fit(span->ts, span->end());
  const QImage image = paint();
  const TimelineItem* drawn = itemOf(*loading);
  ASSERT_NE(drawn, nullptr);
  EXPECT_GT(shareOf(image, drawn->rect.adjusted(1, 1, -1, -1), causeColor(GapCause::kDataLoading)),
            0.6);
}

TEST_F(TimelinePainterTest, NothingIsDrawnBeyondTheTracesEnds) {
  const QImage image = paint();  // the whole trace, with the fit's margin each side
  const QPalette palette;
  const QColor backgrounds[] = {palette.color(QPalette::Base),
                                palette.color(QPalette::AlternateBase)};
  const double first = TimelinePainter::kGutterPx + frame_.scale.x(data_->rows.start);
  const double last = TimelinePainter::kGutterPx + frame_.scale.x(data_->rows.end);
  ASSERT_GT(first, TimelinePainter::kGutterPx + 4.0) << "the fit leaves a margin";
  int checked = 0;
  for (int y = TimelinePainter::rowsTop();
       y <
       std::min(painter_.rowsBottom(frame_), TimelinePainter::rowsTop() + layout_.content_height);
       ++y) {
    for (int x : {TimelinePainter::kGutterPx + 2, static_cast<int>(first) - 2,
                  static_cast<int>(last) + 3, kWidth - 2}) {
      const QColor pixel(image.pixel(x, y));
      EXPECT_TRUE(pixel == backgrounds[0] || pixel == backgrounds[1])
          << "(" << x << ", " << y << ") " << pixel.name().toStdString();
      ++checked;
    }
  }
  EXPECT_GT(checked, 100);
  // The whole frame is painted: no pixel is left as it was.
  EXPECT_EQ(shareOf(image, QRectF(0, 0, kWidth, kHeight), Qt::magenta), 0.0);
}

TEST_F(TimelinePainterTest, TheItemsReportedAreEveryEventInView) {
  paint();
  size_t events = 0;
  for (const Lane& lane : data_->rows.lanes) {
    if (lane.kind != LaneKind::kCounter) events += lane.events.size();
  }
  size_t counted = 0;
  for (const TimelineItem& item : items_) {
    counted += item.item.count;
    EXPECT_GE(item.rect.left(), TimelinePainter::kGutterPx - 1);
    EXPECT_LE(item.rect.right(), kWidth + 1);
  }
  EXPECT_EQ(counted, events) << "at fit-all every event is in view, folded or not";
}

TEST_F(TimelinePainterTest, ItCountsTheItemsAndFoldsItDrew) {
  paint();
  int folded = 0;
  for (const TimelineItem& item : items_) folded += item.item.summary();
  EXPECT_EQ(painter_.stats().items, static_cast<int>(items_.size()));
  EXPECT_EQ(painter_.stats().folded, folded);
}

// The legend wraps rather than cutting its last entries ("folded eve…" at
// 1280 x 800 with the diagnosis docked): one row where the view is wide,
// more where it is narrow, and the rows end where it starts.
TEST_F(TimelinePainterTest, TheLegendWrapsToTheWidthInsteadOfCuttingEntries) {
  const int wide = painter_.legendHeight(run_.get(), 0, 2400);
  const int narrow = painter_.legendHeight(run_.get(), 0, 700);
  EXPECT_EQ(wide, TimelinePainter::kLegendPx);
  EXPECT_GE(narrow, 2 * TimelinePainter::kLegendPx);
  EXPECT_EQ(narrow % TimelinePainter::kLegendPx, 0);
  frame_.size = QSize(700, kHeight);
  EXPECT_EQ(painter_.rowsBottom(frame_), kHeight - narrow);
  const QImage image = paint();
  // The legend's band is painted in the window colour from where the rows end.
  const QColor window = QPalette().color(QPalette::Window);
  EXPECT_EQ(QColor(image.pixel(699, kHeight - narrow + 1)), window);
}

// How far, on average over `rect`, the pixels lie from `background`, as a
// share of how far `fill` lies from it (0: background, 1: solid fill).
double inkOf(const QImage& image, const QRectF& rect, const QColor& fill,
             const QColor& background) {
  const QRect r = rect.toAlignedRect().intersected(image.rect());
  const auto distance = [](const QColor& a, const QColor& b) {
    return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) +
           std::abs(a.blue() - b.blue());
  };
  double sum = 0;
  int n = 0;
  for (int y = r.top(); y <= r.bottom(); ++y) {
    for (int x = r.left(); x <= r.right(); ++x) {
      sum += distance(QColor(image.pixel(x, y)), background);
      ++n;
    }
  }
  return n ? sum / n / distance(fill, background) : 0;
}

// 20 000 GEMM kernels 300 ns apart, each `dur_ns` long, at fit-all: about
// twenty to a pixel, so the lane is drawn as folds (one across the whole
// run, as no gap is a pixel wide); the ink they lay down.
double foldInk(double dur_ns) {
  testing::TraceBuilder b;
  b.device(0, 80);
  for (int i = 0; i < 20'000; ++i) b.kernel(i * 0.3, dur_ns / 1000, "sgemm_128x64", kNullInt);
  const auto run = std::make_shared<const AnalysedRun>(analysedRunOf(b.build()));
  const auto data = buildTimelineData(*run, 0);
  const LaneLayout layout = layoutLanes(data->rows);
  TimelineFrame frame;
  frame.run = run.get();
  frame.data = data.get();
  frame.size = QSize(kWidth, kHeight);
  frame.lane_y = layout.lane_y;
  frame.scale.setWidth(kWidth - TimelinePainter::kGutterPx);
  frame.scale.setLimits(data->rows.start, data->rows.end);
  frame.scale.fitAll();
  QImage image(kWidth, kHeight, QImage::Format_ARGB32_Premultiplied);
  std::vector<TimelineItem> items;
  TimelinePainter painter;
  QPainter p(&image);
  painter.paint(p, frame, &items);
  p.end();
  const QColor fill = categoryColor(KernelCategory::kGemm);
  const QColor background = QPalette().color(QPalette::Base);
  double ink = 0;
  int folds = 0;
  for (const TimelineItem& item : items) {
    if (!item.item.summary() ||
        data->rows.lanes[static_cast<size_t>(item.lane)].kind != LaneKind::kDeviceWork) {
      continue;
    }
    ink += inkOf(image, item.rect, fill, background);
    ++folds;
  }
  EXPECT_GE(folds, 1);
  return folds ? ink / folds : 0;
}

TEST(TimelinePainter, AFoldsInkFollowsItsBusyFraction) {
  // 1 ns in every 300: 0.3 % busy, drawn at the floor opacity (15 %) and
  // the hatch at it too, so it must not look solid.
  EXPECT_LT(foldInk(1), 0.3);
  // 290 ns in every 300: nearly solid.
  EXPECT_GT(foldInk(290), 0.7);
}

// An outline (`paint`) over a box of `fill`: the most contrast any pixel
// near the box's left edge has against the fill (WCAG ratio). Eight rows,
// one period of the evidence outline's dashes.
double outlineContrast(const QColor& fill, void (*paint)(QPainter&, const QRectF&)) {
  QImage image(100, 60, QImage::Format_ARGB32_Premultiplied);
  image.fill(fill);
  QPainter p(&image);
  paint(p, QRectF(30, 20, 40, 16));
  p.end();
  const auto luminance = [](const QColor& c) {
    const auto linear = [](double v) {
      return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * linear(c.redF()) + 0.7152 * linear(c.greenF()) + 0.0722 * linear(c.blueF());
  };
  double best = 1;
  for (int y = 24; y < 32; ++y) {
    for (int x = 24; x <= 34; ++x) {
      const double a = luminance(QColor(image.pixel(x, y)));
      const double b = luminance(fill);
      best = std::max(best, (std::max(a, b) + 0.05) / (std::min(a, b) + 0.05));
    }
  }
  return best;
}

double selectionContrast(const QColor& fill) {
  return outlineContrast(fill, &TimelinePainter::paintSelection);
}

// Evidence is outlined around bubbles and kernels of every colour: the
// outline shows on each (an orange one vanished around host-stall bubbles).
TEST(TimelinePainter, TheEvidenceOutlineShowsOnEveryFill) {
  std::vector<QColor> fills = {QColor(Qt::white), QColor(Qt::black)};
  for (size_t a = 0; a < kAxisCount; ++a) fills.push_back(axisColor(static_cast<Axis>(a)));
  for (size_t c = 0; c < kKernelCategoryCount; ++c) {
    fills.push_back(categoryColor(static_cast<KernelCategory>(c)));
  }
  for (const QColor& fill : fills) {
    EXPECT_GE(outlineContrast(fill, &TimelinePainter::paintEvidence), 3.0)
        << fill.name().toStdString();
  }
}

TEST(TimelinePainter, TheSelectionShowsOnALightAndOnADarkFill) {
  // WCAG 2.1's 3:1 for graphical objects (success criterion 1.4.11).
  for (const QColor& fill : {QColor(Qt::white), axisColor(Axis::kSyncStall),
                             categoryColor(KernelCategory::kCommunication), QColor(Qt::black),
                             QColor(0x10, 0x10, 0x10)}) {
    EXPECT_GE(selectionContrast(fill), 3.0) << fill.name().toStdString();
  }
}

TEST(TimelinePainter, WithoutARunItSaysSo) {
  TimelineFrame frame;
  frame.size = QSize(400, 200);
  frame.scale.setWidth(200);
  QImage image(400, 200, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::magenta);
  TimelinePainter painter;
  QPainter p(&image);
  painter.paint(p, frame);
  p.end();
  const QColor base = QPalette().color(QPalette::Base);
  int text = 0;
  for (int x = 100; x < 300; ++x) text += QColor(image.pixel(x, 100)) != base;
  EXPECT_GT(text, 0) << "\"No run open\" across the middle";
  EXPECT_NE(QColor(image.pixel(5, 190)), QColor(Qt::magenta));
}

// The trace painted at fit-all, with the frame it was painted in.
struct Painted {
  std::shared_ptr<const AnalysedRun> run;
  std::shared_ptr<const TimelineData> data;
  LaneLayout layout;
  TimelineFrame frame;
  QImage image;
};
Painted paintAll(TraceTables tables) {
  Painted out;
  out.run = std::make_shared<const AnalysedRun>(analysedRunOf(std::move(tables)));
  out.data = buildTimelineData(*out.run, 0);
  out.layout = layoutLanes(out.data->rows);
  out.frame.run = out.run.get();
  out.frame.data = out.data.get();
  out.frame.size = QSize(kWidth, kHeight);
  out.frame.lane_y = out.layout.lane_y;
  out.frame.scale.setWidth(kWidth - TimelinePainter::kGutterPx);
  out.frame.scale.setLimits(out.data->rows.start, out.data->rows.end);
  out.frame.scale.fitAll();
  out.image = QImage(kWidth, kHeight, QImage::Format_ARGB32_Premultiplied);
  TimelinePainter painter;
  QPainter p(&out.image);
  painter.paint(p, out.frame);
  return out;
}

TEST(TimelineLostBands, WhereRecordsWereLostTheRowsAreCrosshatchedAndTheRulerMarked) {
  const Painted before = paintAll(smallTrainingTrace());
  // Step 2 (2,000-4,000 µs of the trace) lost records in its first 400 µs.
  const int64_t origin = before.data->rows.start;
  const int64_t from = origin + 2'000'000, to = origin + 2'400'000;
  TraceTables tables = smallTrainingTrace();
  tables.lost_spans.append({from, to - from, "collector.cupti_dropped_records", 12});
  tables.addStat("collector.cupti_dropped_records", 12, "GPU activity records CUPTI dropped");
  const Painted after = paintAll(std::move(tables));
  ASSERT_EQ(after.data->rows.lost.size(), 1u);
  EXPECT_EQ(after.data->rows.lost[0].description, "GPU activity records CUPTI dropped");
  ASSERT_EQ(after.frame.scale.start(), before.frame.scale.start()) << "the band lies inside";

  const double x0 = TimelinePainter::kGutterPx + after.frame.scale.x(from);
  const double x1 = TimelinePainter::kGutterPx + after.frame.scale.x(to);
  ASSERT_GT(x1 - x0, 20);
  const int middle = static_cast<int>((x0 + x1) / 2);
  // The ruler's foot, solid.
  EXPECT_EQ(QColor(after.image.pixel(middle, TimelinePainter::kRulerPx - 2)), lostRecordsColor());
  EXPECT_NE(QColor(after.image.pixel(static_cast<int>(x0) - 10, TimelinePainter::kRulerPx - 2)),
            lostRecordsColor());
  // The rows: inside the band some pixels change in every row; outside it
  // (and the legend, whose text says how much is placed) nothing changes.
  TimelinePainter painter;
  const int rows_bottom = painter.rowsBottom(after.frame);
  const int content_bottom =
      std::min(rows_bottom, TimelinePainter::rowsTop() + after.layout.content_height);
  int changed_inside = 0, changed_outside = 0;
  for (int y = TimelinePainter::rowsTop(); y < content_bottom; ++y) {
    for (int x = TimelinePainter::kGutterPx + 1; x < kWidth; ++x) {
      const bool differs = after.image.pixel(x, y) != before.image.pixel(x, y);
      const bool inside = x >= static_cast<int>(x0) - 1 && x <= static_cast<int>(x1) + 1;
      (inside ? changed_inside : changed_outside) += differs;
    }
  }
  EXPECT_EQ(changed_outside, 0);
  EXPECT_GT(changed_inside, (content_bottom - TimelinePainter::rowsTop()) * (x1 - x0) / 10);
}

TEST(TimelineLostBands, ALossWithinOnePixelIsStillDrawnAndFoundUnderThePointer) {
  const int64_t origin = paintAll(smallTrainingTrace()).data->rows.start;
  const int64_t at = origin + 3'000'000;
  TraceTables tables = smallTrainingTrace();
  tables.lost_spans.append({at, 10, "collector.nvtx_ring_overflow", 3});
  const Painted after = paintAll(std::move(tables));
  const double x = TimelinePainter::kGutterPx + after.frame.scale.x(at);
  int marked = 0;
  for (int dx = -3; dx <= 3; ++dx) {
    marked += QColor(after.image.pixel(static_cast<int>(x) + dx, TimelinePainter::kRulerPx - 2)) ==
              lostRecordsColor();
  }
  EXPECT_GE(marked, TimelinePainter::kMinLostBandPx - 1);
  const TimelineRows& rows = after.data->rows;
  const int64_t pixel = after.frame.scale.ts(1) - after.frame.scale.ts(0);
  EXPECT_NE(lostBandAt(rows, at + pixel, pixel * 2), nullptr);
  EXPECT_EQ(lostBandAt(rows, at + 20 * pixel, pixel * 2), nullptr);
}

TEST(TimelineLostBands, ABandAfterTheLastEventWidensTheTimeline) {
  const TimelineRows rows = buildTimelineRows(analysedRunOf(smallTrainingTrace()), 0);
  TraceTables tables = smallTrainingTrace();
  tables.lost_spans.append({rows.end + 1'000, 5'000'000, "collector.dropped_after_max_size", 900});
  const TimelineRows wider = buildTimelineRows(analysedRunOf(std::move(tables)), 0);
  EXPECT_EQ(wider.start, rows.start);
  EXPECT_EQ(wider.end, rows.end + 1'000 + 5'000'000);
}

}  // namespace
}  // namespace damscope
