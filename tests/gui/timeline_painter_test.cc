// The timeline painted onto a QImage, no widget: a kernel is drawn in its
// class's colour where it runs, a bubble in its cause's colour, nothing lies
// beyond the trace's ends, and the items the painter reports are what it drew.
#include "gui/timeline/timeline_painter.h"

#include <gtest/gtest.h>

#include <QImage>
#include <QPainter>

#include "analyzer/analyses/kernel_categories.h"
#include "gui/models/palette.h"
#include "tests/gui/gui_test_support.h"

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
       y < std::min(TimelinePainter::rowsBottom(frame_.size),
                    TimelinePainter::rowsTop() + layout_.content_height);
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

}  // namespace
}  // namespace damscope
