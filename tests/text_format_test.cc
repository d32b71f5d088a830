// The one duration and size formatter that the CLI, the reports and the GUI
// share (analyzer/report/text_format.h): the same figure reads the same in
// every output.
#include "analyzer/report/text_format.h"

#include <gtest/gtest.h>

#include <limits>
#include <string_view>

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

// What a kernel name can hold to forge or reorder a line: each shown as a
// visible escape, in a name and in a block of damscope's own lines.
TEST(TerminalText, LineBreaksInANameAreShownNotTaken) {
  EXPECT_EQ(terminalName("sgemm\nVERDICT  COMPUTE-BOUND"), "sgemm\\nVERDICT  COMPUTE-BOUND");
  EXPECT_EQ(terminalName("a\rb"), "a\\rb");
  EXPECT_EQ(terminalName("a\tb"), "a\\tb");
  EXPECT_EQ(terminalName("a\x1b[31mb"), "a\\x1b[31mb");
}

TEST(TerminalText, ABlockKeepsItsLayoutButNotCarriageReturns) {
  EXPECT_EQ(terminalSafe("line one\n\tline two\n"), "line one\n\tline two\n");
  // CR would let a later part of the line overwrite the start.
  EXPECT_EQ(terminalSafe("VERDICT  X\rforged\n"), "VERDICT  X\\rforged\n");
}

TEST(TerminalText, BidiAndOtherFormatControlsAreEscaped) {
  // U+202E RIGHT-TO-LEFT OVERRIDE, U+2066 LEFT-TO-RIGHT ISOLATE, U+2069 POP
  // DIRECTIONAL ISOLATE: the Trojan Source reorderings.
  EXPECT_EQ(terminalName("a\u202Eb"), "a\\u202eb");
  EXPECT_EQ(terminalName("a\u2066b\u2069c"), "a\\u2066b\\u2069c");
  EXPECT_EQ(terminalName("zero\u200Bwidth"), "zero\\u200bwidth");
  EXPECT_EQ(terminalName("\uFEFFbom"), "\\ufeffbom");
  EXPECT_EQ(terminalName("soft\u00ADhyphen"), "soft\\u00adhyphen");
  EXPECT_EQ(terminalName("line\u2028separator"), "line\\u2028separator");
  // Four-byte format controls: LANGUAGE TAG and a musical symbol format control.
  EXPECT_EQ(terminalName("tag\U000E0001"), "tag\\U000e0001");
  EXPECT_EQ(terminalName("tag\U000E007F"), "tag\\U000e007f");
  EXPECT_EQ(terminalName("\U0001D173"), "\\U0001d173");
  // The same in a block.
  EXPECT_EQ(terminalSafe("a\u202Eb\n"), "a\\u202eb\n");
  // C1 controls, as before: CSI.
  EXPECT_EQ(terminalSafe("a\u009B31m"), "a\\u009b31m");
}

TEST(TerminalText, OrdinaryTextOutsideAsciiPassesUnchanged) {
  // U+202F is a space (Zs) and U+E0100 a variation selector (Mn), neighbours
  // of format controls that are not ones.
  for (const char* text :
       {"é", "日本", "\U0001F600", "µs", "D\u00b7A\u00b7M", "\u2588\u2588", "\u202F", "\U000E0100"}) {
    EXPECT_EQ(terminalName(text), text);
    EXPECT_EQ(terminalSafe(text), text);
  }
  // Not UTF-8: U+FFFD, one per byte.
  EXPECT_EQ(terminalName("a\xff" "b"), "a\uFFFDb");
}

}  // namespace
}  // namespace damscope
