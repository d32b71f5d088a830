// The one duration and size formatter that the CLI, the reports and the GUI
// share (analyzer/report/text_format.h): the same figure reads the same in
// every output.
#include "analyzer/report/text_format.h"

#include <gtest/gtest.h>

#include <limits>

namespace damscope {
namespace {

TEST(TextFormat, DurationsInTheLargestUnitThatKeepsThemAboveOne) {
  EXPECT_EQ(formatDuration(0), "0 ns");
  EXPECT_EQ(formatDuration(350), "350 ns");
  EXPECT_EQ(formatDuration(999.4), "999 ns");
  EXPECT_EQ(formatDuration(1'000), "1.0 µs");
  EXPECT_EQ(formatDuration(12'500), "12.5 µs");
  EXPECT_EQ(formatDuration(3'200'000), "3.2 ms");
  EXPECT_EQ(formatDuration(1'050'000'000), "1.050 s");
  EXPECT_EQ(formatDuration(-61'200'000), "-61.2 ms");
  EXPECT_EQ(formatDuration(std::numeric_limits<double>::quiet_NaN()), "n/a");
  EXPECT_EQ(formatDuration(std::numeric_limits<double>::infinity()), "n/a");
}

TEST(TextFormat, SizesInBinaryUnits) {
  EXPECT_EQ(formatBytes(0), "0 B");
  EXPECT_EQ(formatBytes(512), "512 B");
  EXPECT_EQ(formatBytes(1'536), "1.5 KiB");
  EXPECT_EQ(formatBytes(34'359'738'368.0), "32.0 GiB");
  EXPECT_EQ(formatBytes(-2'097'152), "-2.0 MiB");
  EXPECT_EQ(formatBytes(5.0 * 1024 * 1024 * 1024 * 1024 * 1024), "5120.0 TiB");
}

TEST(TextFormat, CountsWithThousandsSeparators) {
  EXPECT_EQ(withThousands(0), "0");
  EXPECT_EQ(withThousands(999), "999");
  EXPECT_EQ(withThousands(19'370), "19,370");
  EXPECT_EQ(withThousands(-1'234'567), "-1,234,567");
}

}  // namespace
}  // namespace damscope
