// TimeScale: mapping, zoom at the cursor (at a 1e9 s epoch too), clamps and
// ruler ticks, without a window.
#include <gtest/gtest.h>

#include <limits>

#include "gui/timeline/time_scale.h"
#include "trace/tables.h"

namespace damscope {
namespace {

TEST(TimeScale, MapsTimeToPixelsAndBack) {
  TimeScale s;
  s.setWidth(1000);
  s.setView(5000, 10.0);
  EXPECT_DOUBLE_EQ(s.x(5000), 0);
  EXPECT_DOUBLE_EQ(s.x(6000), 100);
  EXPECT_EQ(s.ts(100), 6000);
  EXPECT_EQ(s.end(), 15000);
}

TEST(TimeScale, ZoomKeepsTheTimeUnderTheCursorAtA1e9SecondEpoch) {
  constexpr int64_t kEpoch = int64_t{1'000'000'000} * 1'000'000'000;  // 1e9 s in ns
  TimeScale s;
  s.setWidth(1200);
  s.setLimits(kEpoch, kEpoch + 2'000'000'000);
  s.fitAll();
  const double cursor = 437;
  const int64_t anchor = s.ts(cursor);
  for (int i = 0; i < 40; ++i) {
    s.zoom(1.5, cursor);
    // Within one pixel's time of where it was, at every zoom down to 1 ns/px.
    EXPECT_NEAR(static_cast<double>(s.ts(cursor) - anchor), 0.0, s.nsPerPx()) << "zoom " << i;
  }
  EXPECT_DOUBLE_EQ(s.nsPerPx(), TimeScale::kMinNsPerPx);
  // Adjacent nanoseconds land a whole pixel apart: no double rounding at 1e18.
  EXPECT_DOUBLE_EQ(s.x(anchor + 1) - s.x(anchor), 1.0);
}

TEST(TimeScale, ClampsZoomOutToTheTraceWithItsMargin) {
  TimeScale s;
  s.setWidth(1000);
  s.setLimits(0, 1'000'000);
  s.zoom(1e-6, 500);
  EXPECT_LE(s.nsPerPx(), 1'000'000 * (1 + 2 * TimeScale::kMarginFraction) / 1000 + 1);
  EXPECT_LE(s.start(), 0);
  EXPECT_GE(s.end(), 1'000'000);
}

// A trace across the whole trace range (±2^62 ns): its span plus margins
// overflowed int64 (a UBSan report, and a view stuck at 1 ns per pixel), and
// pointer positions and scales far out of range overflowed ts(x) (issue 32 §2).
// The view stays inside the trace range.
TEST(TimeScale, ATraceAcrossTheWholeTimeRangeFitsAndStaysInIt) {
  constexpr int64_t kLo = -kTimeLimitNs + 1;
  constexpr int64_t kHi = kTimeLimitNs - 1;
  TimeScale s;
  s.setWidth(1000);
  s.setLimits(kLo, kHi);
  s.fitAll();
  // Within a double's spacing near 2^63 (1024 ns) of the trace's edges.
  EXPECT_LE(s.start(), kLo + 1024);
  EXPECT_GE(s.end(), kHi - 1024);
  EXPECT_GE(s.nsPerPx(), static_cast<double>(kHi - kLo) / 1001);
  EXPECT_FALSE(s.ticks(kLo).empty());
  for (const double x : {-1e300, -1e12, 0.0, 1e12, 1e300}) {
    EXPECT_GE(s.ts(x), kLo) << x;
    EXPECT_LE(s.ts(x), kHi) << x;
  }
  s.zoom(1e-300, 1e300);
  s.pan(1e300);
  EXPECT_LE(s.end(), kHi);
  s.pan(-1e300);
  EXPECT_GE(s.start(), kLo);
  s.zoom(1e300, -1e300);
  EXPECT_DOUBLE_EQ(s.nsPerPx(), TimeScale::kMinNsPerPx);
  EXPECT_GE(s.start(), kLo);
  s.fit(std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max());
  EXPECT_LE(s.start(), kLo + 1024);
  EXPECT_GE(s.end(), kHi - 1024);
}

// Unlimited, the view is bounded by the trace range all the same.
TEST(TimeScale, AnUnlimitedViewStaysInsideTheTraceRange) {
  TimeScale s;
  s.setWidth(1000);
  s.setView(std::numeric_limits<int64_t>::max(), 1e300);
  EXPECT_LT(s.end(), kTimeLimitNs);
  EXPECT_GT(s.start(), -kTimeLimitNs);
  EXPECT_FALSE(s.ticks(0).empty());
}

TEST(TimeScale, PanStopsAtTheTraceEdge) {
  TimeScale s;
  s.setWidth(1000);
  s.setLimits(0, 1'000'000);
  s.fit(0, 100'000);
  s.pan(1e9);
  EXPECT_LE(s.end(), 1'000'000 + 1'000'000 * TimeScale::kMarginFraction + 100);
  s.pan(-1e9);
  EXPECT_GE(s.start(), -1'000'000 * TimeScale::kMarginFraction - 1);
}

TEST(TimeScale, FitShowsTheSpan) {
  TimeScale s;
  s.setWidth(800);
  s.setLimits(0, 10'000'000);
  s.fit(2'000'000, 2'800'000);
  EXPECT_EQ(s.start(), 2'000'000);
  EXPECT_DOUBLE_EQ(s.nsPerPx(), 1000.0);
}

TEST(TimeScale, TicksUseANiceStepAboutAHundredPixelsApart) {
  TimeScale s;
  s.setWidth(1000);
  s.setView(0, 37.0);  // 100 px = 3700 ns -> 5 µs
  EXPECT_EQ(s.tickStep(), 5000);
  const auto ticks = s.ticks(0);
  ASSERT_GE(ticks.size(), 2u);
  EXPECT_EQ(ticks[1].ts - ticks[0].ts, 5000);
  EXPECT_GE(ticks[1].x - ticks[0].x, TimeScale::kTickSpacingPx);
  EXPECT_EQ(ticks[1].label, "5 µs");
}

// A view of nearly the whole trace range (+-2^62 ns) at a pixel wide: the
// step went no further than 1e18 ns, so 4.65e18 ns took five ticks where
// the width allows one or two, and the last step could pass int64 (found by
// the gui_models fuzz target, issue 32 §2).
TEST(TimeScale, AViewOfTheWholeRangeGetsFewTicksAndNoOverflow) {
  for (const int width : {1, 50, 1000}) {
    TimeScale s;
    s.setWidth(width);
    s.setLimits(-2'300'000'000'000'000'000, 2'350'000'000'000'000'100);
    s.fitAll();
    const auto ticks = s.ticks(s.start());
    EXPECT_LE(ticks.size(), static_cast<size_t>(width) / 50 + 4) << width << " px";
    for (size_t i = 1; i < ticks.size(); ++i) EXPECT_GT(ticks[i].ts, ticks[i - 1].ts);
  }
  TimeScale s;
  s.setWidth(1);
  s.setView(-(int64_t{1} << 62), 1e19);
  EXPECT_EQ(s.tickStep(), 5'000'000'000'000'000'000);
}

TEST(TimeScale, TickLabelsAreRelativeToTheOrigin) {
  TimeScale s;
  s.setWidth(1000);
  s.setView(1'000'000'000, 20'000.0);  // 100 px = 2 ms
  const auto ticks = s.ticks(1'000'000'000);
  ASSERT_FALSE(ticks.empty());
  EXPECT_EQ(ticks[0].label, "0 ms");
  EXPECT_EQ(ticks[1].label, "2 ms");
}

TEST(TimeScale, TickLabelsSwitchToTheUnitTheOffsetReaches) {
  TimeScale s;
  s.setWidth(1000);
  // 757.2 ms into the trace at 200 µs a tick: milliseconds with one decimal,
  // not "757200 µs".
  s.setView(757'200'000, 1'500.0);  // 100 px = 150 µs -> 200 µs
  auto ticks = s.ticks(0);
  ASSERT_GE(ticks.size(), 2u);
  EXPECT_EQ(ticks[0].label, "757.2 ms");
  EXPECT_EQ(ticks[1].label, "757.4 ms");
  // 1.5 s in at 2 ms a tick: seconds with the three decimals the step needs.
  s.setView(1'500'000'000, 20'000.0);
  ticks = s.ticks(0);
  ASSERT_GE(ticks.size(), 2u);
  EXPECT_EQ(ticks[0].label, "1.500 s");
  EXPECT_EQ(ticks[1].label, "1.502 s");
  // Before the origin (the margin at fit), with a sign.
  s.setView(-300'000, 1'000.0);  // 100 px = 100 µs
  ticks = s.ticks(0);
  ASSERT_GE(ticks.size(), 2u);
  EXPECT_EQ(ticks[0].label, "-300 µs");
  EXPECT_EQ(ticks[3].label, "0 µs");
}

}  // namespace
}  // namespace damscope
