// Legend rows and labels nudged apart (gui/models/text_layout.h).
#include "gui/models/text_layout.h"

#include <gtest/gtest.h>

namespace damscope {
namespace {

TEST(FlowRows, EntriesWrapToTheWidthAndNoneIsCut) {
  // 100 + 10 + 80 fits in 200; the third (120) starts the second row.
  const std::vector<QRect> rects = flowRows({100, 80, 120, 50}, 200, 14, 10, 6);
  ASSERT_EQ(rects.size(), 4u);
  EXPECT_EQ(rects[0], QRect(0, 0, 100, 14));
  EXPECT_EQ(rects[1], QRect(110, 0, 80, 14));
  EXPECT_EQ(rects[2], QRect(0, 20, 120, 14));
  EXPECT_EQ(rects[3], QRect(130, 20, 50, 14));
  EXPECT_EQ(flowHeight(rects), 34);
}

TEST(FlowRows, AnEntryWiderThanTheRowTakesARowOfItsOwn) {
  const std::vector<QRect> rects = flowRows({50, 300, 50}, 200, 10, 8, 4);
  EXPECT_EQ(rects[0].top(), 0);
  EXPECT_EQ(rects[1].top(), 14);
  EXPECT_EQ(rects[1].left(), 0);
  EXPECT_EQ(rects[2].top(), 28);
  EXPECT_EQ(flowHeight({}), 0);
}

TEST(SeparateLabels, TwoRidgeLabelsOnOneSpotStackUpwards) {
  // The V100's ridges at 8.7 and 17.4 FLOP/B put their labels 30 px apart,
  // each 110 px wide: the second goes one line up.
  const QRectF area(0, 0, 600, 400);
  const std::vector<std::optional<QRectF>> placed =
      separateLabels({{QRectF(300, 380, 110, 14), -1}, {QRectF(330, 380, 110, 14), -1}}, area);
  ASSERT_TRUE(placed[0] && placed[1]);
  EXPECT_EQ(*placed[0], QRectF(300, 380, 110, 14));
  EXPECT_EQ(placed[1]->top(), 380 - 16);
  EXPECT_FALSE(placed[0]->intersects(*placed[1]));
}

TEST(SeparateLabels, PeakLabelsMoveDownAndLabelsApartStayPut) {
  const QRectF area(0, 0, 600, 400);
  const std::vector<std::optional<QRectF>> placed = separateLabels({{QRectF(400, 40, 150, 14), +1},
                                                                    {QRectF(400, 46, 150, 14), +1},
                                                                    {QRectF(10, 46, 50, 14), +1}},
                                                                   area);
  ASSERT_TRUE(placed[0] && placed[1] && placed[2]);
  EXPECT_EQ(placed[1]->top(), 46 + 16);
  EXPECT_EQ(*placed[2], QRectF(10, 46, 50, 14));
}

TEST(SeparateLabels, ALabelWithNoRoomLeftIsLeftOutNotDrawnOver) {
  // An area one line high: the second label has nowhere to go.
  const QRectF area(0, 0, 600, 20);
  const std::vector<std::optional<QRectF>> placed =
      separateLabels({{QRectF(0, 2, 100, 14), -1}, {QRectF(50, 2, 100, 14), -1}}, area);
  EXPECT_TRUE(placed[0]);
  EXPECT_FALSE(placed[1]);
}

}  // namespace
}  // namespace damscope
