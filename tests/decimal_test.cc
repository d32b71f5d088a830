// Exact decimal parsing of Chrome-trace microsecond timestamps.
#include "analyzer/importers/kineto/decimal.h"

#include <gtest/gtest.h>

#include <clocale>
#include <string>

namespace damscope {
namespace {

TEST(Decimal, IntegerMicrosecondsBecomeNanoseconds) {
  EXPECT_EQ(microsToNanos("1669783687464181"), 1669783687464181000);
  EXPECT_EQ(microsToNanos("0"), 0);
  EXPECT_EQ(microsToNanos("-5"), -5000);
}

TEST(Decimal, FractionalDigitsAreKeptExactlyBeyondDoublePrecision) {
  // 17 significant digits: a double would land up to 125 ns away.
  EXPECT_EQ(microsToNanos("1712195495505543.2"), 1712195495505543200);
  EXPECT_EQ(microsToNanos("4458676522690.655"), 4458676522690655);
  EXPECT_EQ(microsToNanos("156.777"), 156777);
}

TEST(Decimal, DigitsBelowANanosecondRoundHalfAwayFromZero) {
  EXPECT_EQ(microsToNanos("1.0004"), 1000);
  EXPECT_EQ(microsToNanos("1.0005"), 1001);
  EXPECT_EQ(microsToNanos("-1.0005"), -1001);
  EXPECT_EQ(microsToNanos("0.99999"), 1000);
}

TEST(Decimal, ExponentNotationFallsBackToDouble) {
  EXPECT_EQ(microsToNanos("1.5e3"), 1500000);
  EXPECT_EQ(microsToNanos("2E-3"), 2);
  EXPECT_EQ(microsToNanos("-1.5e-1"), -150);
}

TEST(Decimal, ExponentsOutOfDoubleRange) {
  EXPECT_FALSE(microsToNanos("1e400"));   // too large for any time
  EXPECT_EQ(microsToNanos("1e-400"), 0);  // too small: rounds to 0 ns
  EXPECT_FALSE(microsToNanos("1e"));      // no exponent digits
  EXPECT_FALSE(microsToNanos("1e5x"));    // trailing text
  EXPECT_FALSE(microsToNanos("1e16"));    // 1e19 ns overflows int64
}

// strtod honours the C locale's decimal point; Qt front ends call setlocale().
TEST(Decimal, ExponentNotationIgnoresTheLocale) {
  const std::string previous = std::setlocale(LC_NUMERIC, nullptr);
  if (!std::setlocale(LC_NUMERIC, "de_DE.UTF-8")) GTEST_SKIP() << "no de_DE.UTF-8 locale";
  const auto parsed = microsToNanos("1.5e3");
  std::setlocale(LC_NUMERIC, previous.c_str());
  EXPECT_EQ(parsed, 1500000);
}

TEST(Decimal, SurroundingSpacesAreIgnored) {
  EXPECT_EQ(microsToNanos(" 12 \n"), 12000);
}

TEST(Decimal, RejectsNonNumbersAndOverflow) {
  EXPECT_FALSE(microsToNanos(""));
  EXPECT_FALSE(microsToNanos("abc"));
  EXPECT_FALSE(microsToNanos("12x"));
  EXPECT_FALSE(microsToNanos("."));
  EXPECT_FALSE(microsToNanos("-"));
  EXPECT_FALSE(microsToNanos("99999999999999999999"));
  EXPECT_FALSE(microsToNanos("9223372036854775.808"));  // one past INT64_MAX ns
  EXPECT_EQ(microsToNanos("9223372036854775.807"), INT64_MAX);
  EXPECT_FALSE(parseScaledDecimal("92233720368547758070", 0));  // past the last digit's cutoff
  EXPECT_FALSE(parseScaledDecimal("9223372036854775808", 0));
  EXPECT_EQ(parseScaledDecimal("-9223372036854775807", 0), -INT64_MAX);
}

TEST(Decimal, ScaleZeroParsesPlainIntegers) {
  EXPECT_EQ(parseScaledDecimal("73689", 0), 73689);
  EXPECT_EQ(parseScaledDecimal("2.6", 0), 3);
}

}  // namespace
// Digits are read eight at a time where eight follow: every length and every
// position of a non-digit around those blocks gives what one digit at a time
// gives.
TEST(Decimal, EightDigitBlocksAgreeWithDigitByDigit) {
  const std::string digits = "8765432109876543210";  // below INT64_MAX
  for (size_t n = 1; n <= digits.size(); ++n) {
    const std::string text = digits.substr(digits.size() - n);
    uint64_t expected = 0;
    for (char c : text) expected = expected * 10 + static_cast<uint64_t>(c - '0');
    SCOPED_TRACE(text);
    EXPECT_EQ(parseScaledDecimal(text, 0), static_cast<int64_t>(expected));
    EXPECT_EQ(parseScaledDecimal(text + ".5", 0), static_cast<int64_t>(expected + 1));
    for (size_t at = 0; at < n; ++at) {
      for (char bad : {'/', ':', 'a', ' ', '\0', '\x80'}) {
        std::string broken = text;
        broken[at] = bad;
        if (bad == ' ' && (at == 0 || at + 1 == n)) continue;  // surrounding spaces are fine
        EXPECT_FALSE(parseScaledDecimal(broken, 0)) << at << " " << int(bad);
      }
    }
  }
  EXPECT_EQ(parseScaledDecimal("00000000000000001", 0), 1);
  EXPECT_EQ(microsToNanos("12345678.5"), 12345678500);
  EXPECT_EQ(parseScaledDecimal("9223372036854775807", 0), INT64_MAX);
}

}  // namespace damscope
