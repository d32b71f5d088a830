// A time window as a person reads it: relative to the trace's start, one unit,
// the decimals its length needs.
#include "gui/models/time_window.h"

#include <gtest/gtest.h>

namespace damscope {
namespace {

TEST(TimeWindow, TextIsRelativeToTheOriginInTheEndsUnit) {
  const int64_t origin = 1'700'000'000'000'000'000;  // a trace stamped on the epoch clock
  EXPECT_EQ(windowText({origin + 1'200'000'000, origin + 1'450'000'000}, origin), "1.20–1.45 s");
  EXPECT_EQ(windowText({origin + 2'000'000, origin + 3'500'000}, origin), "2.0–3.5 ms");
  EXPECT_EQ(windowText({origin + 10'000'000'000, origin + 12'500'000'000}, origin), "10.0–12.5 s");
  EXPECT_EQ(windowText({origin + 1'200'000'000, origin + 1'203'000'000}, origin), "1.2000–1.2030 s")
      << "a short window far from the start keeps its length readable";
  EXPECT_EQ(windowText({origin + 100, origin + 900}, origin), "100–900 ns");
}

TEST(TimeWindow, ContainsItsStartNotItsEnd) {
  const TimeWindow w{10, 20};
  EXPECT_TRUE(w.contains(10));
  EXPECT_TRUE(w.contains(19));
  EXPECT_FALSE(w.contains(20));
  EXPECT_EQ(w.duration(), 10);
}

}  // namespace
}  // namespace damscope
