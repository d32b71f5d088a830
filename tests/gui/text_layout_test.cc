// Legend rows (gui/models/text_layout.h).
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

}  // namespace
}  // namespace damscope
