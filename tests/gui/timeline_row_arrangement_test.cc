// Rows collapsed, hidden and pinned: the order and the lanes' layout that
// follow, and the row header's context menu on the widget.
#include <gtest/gtest.h>

#include <QAction>
#include <QMenu>
#include <QScrollBar>

#include "gui/timeline/row_arrangement.h"
#include "gui/timeline/timeline_widget.h"
#include "tests/gui/gui_test_support.h"
#include "tests/trace_builder.h"

namespace damscope {
namespace {

TEST(RowArrangement, PinnedFirstInPinOrderHiddenLeftOut) {
  RowArrangement a;
  EXPECT_EQ(a.order(4), (std::vector<int>{0, 1, 2, 3}));
  a.setPinned(3, true);
  a.setPinned(1, true);
  a.setHidden(2, true);
  EXPECT_EQ(a.order(4), (std::vector<int>{3, 1, 0}));
  a.setPinned(3, false);
  a.showAll();
  EXPECT_EQ(a.order(4), (std::vector<int>{1, 0, 2, 3}));
  EXPECT_FALSE(a.anyHidden());
}

class RowLayoutTest : public ::testing::Test {
 protected:
  RowLayoutTest()
      : run_(std::make_shared<const AnalysedRun>(
            testing::analysedRunOf(testing::smallTrainingTrace()))),
        rows_(buildTimelineRows(*run_, 0)) {}
  // A row of several lanes, to fold.
  int thickRow() const {
    for (size_t r = 0; r < rows_.rows.size(); ++r)
      if (rows_.rows[r].lane_count > 1) return static_cast<int>(r);
    ADD_FAILURE() << "no row of several lanes";
    return 0;
  }
  std::shared_ptr<const AnalysedRun> run_;
  TimelineRows rows_;
};

TEST_F(RowLayoutTest, ACollapsedRowKeepsOnlyItsHeader) {
  const LaneLayout open = layoutLanes(rows_);
  const int row = thickRow();
  RowArrangement a;
  a.setCollapsed(row, true);
  const LaneLayout folded = layoutLanes(rows_, a);
  const TimelineRow& r = rows_.rows[static_cast<size_t>(row)];
  for (int l = r.first_lane; l < r.first_lane + r.lane_count; ++l)
    EXPECT_EQ(folded.lane_y[static_cast<size_t>(l)], -1);
  EXPECT_EQ(folded.row_y[static_cast<size_t>(row)], open.row_y[static_cast<size_t>(row)]);
  EXPECT_TRUE(folded.row_collapsed[static_cast<size_t>(row)]);
  EXPECT_LT(folded.content_height, open.content_height);
}

TEST_F(RowLayoutTest, AHiddenRowTakesNoSpaceAndAPinnedOneComesFirst) {
  ASSERT_GE(rows_.rows.size(), 3u);
  const int last = static_cast<int>(rows_.rows.size()) - 1;
  RowArrangement a;
  a.setHidden(0, true);
  a.setPinned(last, true);
  const LaneLayout l = layoutLanes(rows_, a);
  EXPECT_EQ(l.row_y[0], -1);
  EXPECT_EQ(l.lane_y[static_cast<size_t>(rows_.rows[0].first_lane)], -1);
  EXPECT_EQ(l.row_y[static_cast<size_t>(last)], 0) << "pinned to the top";
  EXPECT_GT(l.row_y[1], 0);
}

// Pinned rows stay at the top while the others scroll under them, as
// Perfetto's pinned tracks do (docs/gui.md, M13).
TEST_F(RowLayoutTest, PinnedRowsStayInPlaceWhileTheOthersScrollUnderThem) {
  const int last = static_cast<int>(rows_.rows.size()) - 1;
  RowArrangement a;
  a.setPinned(last, true);
  const LaneLayout l = layoutLanes(rows_, a);
  ASSERT_GT(l.pinned_height, 0);
  EXPECT_EQ(layoutLanes(rows_).pinned_height, 0) << "nothing pinned";
  for (size_t r = 0; r + 1 < rows_.rows.size(); ++r) {
    if (l.row_y[r] >= 0) {
      EXPECT_GE(l.row_y[r], l.pinned_height) << "row " << r;
    }
  }

  const int top = TimelineWidget::kRulerPx + TimelineWidget::kStepBandPx;
  TimelineWidget widget;
  widget.setMinimumSize(400, 50);  // shorter than the rows of this small trace
  widget.resize(1200, top + l.pinned_height + 3 * TimelineWidget::kLanePx +
                          TimelinePainter::kLegendPx);
  widget.setRun(run_, 0);
  widget.setRowArrangement(a);
  auto* bar = widget.findChild<QScrollBar*>();
  ASSERT_NE(bar, nullptr);
  ASSERT_GT(bar->maximum(), 0) << "the rows must not all fit: " << l.content_height << " px in "
                               << widget.height();
  bar->setValue(bar->maximum());
  EXPECT_EQ(widget.rowAt(top + 4), last) << "the pinned row stays at the top";
  const int below = top + l.pinned_height + 2;
  EXPECT_EQ(widget.contentY(below), l.pinned_height + 2 + bar->value());
  const std::optional<int> scrolled = widget.rowAt(below);
  ASSERT_TRUE(scrolled.has_value());
  EXPECT_NE(*scrolled, last);
  EXPECT_GT(l.row_y[static_cast<size_t>(*scrolled)] +
                TimelineWidget::kLanePx,
            l.pinned_height + bar->value())
      << "the row under the pinned block is the one scrolled to";
  // A scrolling row's event under the pinned block is out of view.
  const EventRef kernel{0, EventKind::kKernel, 0};
  const int kernel_row = rows_.lanes[static_cast<size_t>(rows_.laneOf(kernel))].row;
  const bool under_the_pin = l.row_y[static_cast<size_t>(kernel_row)] + TimelineWidget::kLanePx <=
                             l.pinned_height + bar->value();
  if (kernel_row != last && under_the_pin) {
    widget.zoomToSpan(rows_.start, rows_.start + testing::us(2000));
    EXPECT_TRUE(widget.eventRect(kernel).isEmpty());
  }
  EXPECT_FALSE(widget.grab().isNull());
}

TEST_F(RowLayoutTest, TheRowHeadersMenuCollapsesHidesPinsAndShowsAllAgain) {
  TimelineWidget widget;
  widget.resize(1200, 600);
  widget.setRun(run_, 0);
  const int row = thickRow();
  const int y = static_cast<int>(TimelineWidget::kRulerPx + TimelineWidget::kStepBandPx +
                                 layoutLanes(rows_).row_y[static_cast<size_t>(row)] + 4);
  ASSERT_EQ(widget.rowAt(y), row);
  auto trigger = [&](int on, const QString& text) {
    QMenu* menu = widget.rowMenu(on);
    bool found = false;
    for (QAction* a : menu->actions()) {
      if (a->text() != text) continue;
      found = true;
      ASSERT_TRUE(a->isEnabled()) << text.toStdString();
      a->trigger();
    }
    delete menu;
    EXPECT_TRUE(found) << text.toStdString();
  };
  trigger(row, "Collapse");
  EXPECT_TRUE(widget.rowArrangement().collapsed(row));
  trigger(row, "Expand");
  EXPECT_FALSE(widget.rowArrangement().collapsed(row));
  trigger(row, "Pin to the Top");
  EXPECT_EQ(widget.rowAt(TimelineWidget::kRulerPx + TimelineWidget::kStepBandPx + 4), row);
  trigger(row, "Unpin");
  // A kernel's row hidden: its kernels are drawn nowhere.
  const EventRef kernel{0, EventKind::kKernel, 0};
  const int kernel_row = rows_.lanes[static_cast<size_t>(rows_.laneOf(kernel))].row;
  widget.zoomToSpan(rows_.start, rows_.start + testing::us(2000));
  ASSERT_FALSE(widget.eventRect(kernel).isEmpty());
  trigger(kernel_row, "Hide");
  EXPECT_TRUE(widget.rowArrangement().hidden(kernel_row));
  EXPECT_TRUE(widget.eventRect(kernel).isEmpty());
  EXPECT_FALSE(widget.grab().isNull());
  trigger(-1, "Show All Rows");
  EXPECT_FALSE(widget.eventRect(kernel).isEmpty());
}

}  // namespace
}  // namespace damscope
