// Duration sums saturate at the int64 limits instead of wrapping, and stay
// monotone, so a part's share of its total stays within [0, 100] % (issue 32 §2).
#include "base/duration_sum.h"

#include <gtest/gtest.h>

#include <limits>

namespace damscope {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

TEST(DurationSum, AddsExactlyInRange) {
  EXPECT_EQ(addDurations(2, 3), 5);
  EXPECT_EQ(addDurations(kMax - 1, 1), kMax);
  EXPECT_EQ(addDurations(-5, 3), -2);
}

TEST(DurationSum, SaturatesAtEitherLimit) {
  constexpr int64_t kNear2To63 = (int64_t{1} << 62) - 1 + ((int64_t{1} << 62) - 1);
  EXPECT_EQ(addDurations(kNear2To63, kNear2To63), kMax);
  EXPECT_EQ(addDurations(kMax, 1), kMax);
  EXPECT_EQ(addDurations(kMin, -1), kMin);
  EXPECT_EQ(addDurations(-kNear2To63, -kNear2To63), kMin);
  // Subtracting from a saturated sum moves it back down.
  EXPECT_EQ(addDurations(kMax, -kMax), 0);
}

TEST(DurationSum, APartNeverExceedsItsTotal) {
  int64_t part = 0;
  int64_t total = 0;
  for (const int64_t dur : {kMax / 2, kMax / 2, int64_t{7}, kMax / 3, int64_t{1}}) {
    accumulateDuration(total, dur);
    if (dur != 7) accumulateDuration(part, dur);
    EXPECT_LE(part, total);
  }
  EXPECT_EQ(total, kMax);
  EXPECT_EQ(part, kMax);
}

}  // namespace
}  // namespace damscope
