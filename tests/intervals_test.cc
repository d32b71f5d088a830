// Interval arithmetic: merging, set operations and O(log n) coverage.
#include "analyzer/analyses/intervals.h"

#include <gtest/gtest.h>

namespace damscope {
namespace {

TEST(Intervals, MergeSortsJoinsTouchingAndDropsEmptyOnes) {
  Intervals v = {{10, 20}, {0, 5}, {5, 8}, {15, 30}, {40, 40}, {50, 45}};
  mergeIntervals(v);
  EXPECT_EQ(v, (Intervals{{0, 8}, {10, 30}}));
  EXPECT_EQ(totalLength(v), 28);
}

TEST(Intervals, IntersectSubtractUnite) {
  const Intervals a = {{0, 10}, {20, 30}};
  const Intervals b = {{5, 25}};
  EXPECT_EQ(intersectIntervals(a, b), (Intervals{{5, 10}, {20, 25}}));
  EXPECT_EQ(subtractIntervals(a, b), (Intervals{{0, 5}, {25, 30}}));
  EXPECT_EQ(subtractIntervals(b, a), (Intervals{{10, 20}}));
  EXPECT_EQ(uniteIntervals(a, b), (Intervals{{0, 30}}));
  EXPECT_TRUE(intersectIntervals(a, {}).empty());
  EXPECT_EQ(subtractIntervals(a, {}), a);
}

TEST(Intervals, ClipKeepsOnlyTheRange) {
  const Intervals a = {{0, 10}, {20, 30}, {40, 50}};
  EXPECT_EQ(clipIntervals(a, 5, 25), (Intervals{{5, 10}, {20, 25}}));
  EXPECT_TRUE(clipIntervals(a, 10, 20).empty());
}

TEST(Intervals, CoverageIndexAnswersPartialOverlaps) {
  const CoverageIndex index({{0, 10}, {20, 30}, {40, 50}});
  EXPECT_EQ(index.total(), 30);
  EXPECT_EQ(index.covered(-5, 100), 30);
  EXPECT_EQ(index.covered(5, 25), 10);
  EXPECT_EQ(index.covered(10, 20), 0);
  EXPECT_EQ(index.covered(45, 45), 0);
  EXPECT_EQ(index.covered(25, 21), 0);  // inverted range
  EXPECT_EQ(CoverageIndex().covered(0, 10), 0);
}

}  // namespace
}  // namespace damscope
