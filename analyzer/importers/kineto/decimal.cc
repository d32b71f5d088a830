// Exact decimal parsing: see decimal.h.
#include "analyzer/importers/kineto/decimal.h"

#include <bit>
#include <charconv>
#include <cstring>
#include <cmath>
#include <limits>

namespace damscope {

namespace {

// Exponent notation goes through a double. std::from_chars reads the text in
// place, where strtod needed a NUL-terminated copy of a token as long as the
// input makes it, and it ignores the C locale: under a locale with a decimal
// comma (a GUI calls setlocale()) strtod stops at the '.'.
std::optional<int64_t> parseWithExponent(std::string_view text, int scale_digits) {
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, ec] = std::from_chars(text.data(), end, value);
  if (stop != end) return std::nullopt;
  if (ec == std::errc::result_out_of_range) {
    // The integer part fits in int64 (the caller checked), so with a negative
    // exponent the value can only be too small: it rounds to 0, as strtod's
    // underflow did. Otherwise it is too large.
    const size_t e = text.find_last_of("eE");
    if (e + 1 < text.size() && text[e + 1] == '-') return 0;
    return std::nullopt;
  }
  if (ec != std::errc() || !std::isfinite(value)) return std::nullopt;
  const double scaled = std::round(value * std::pow(10.0, scale_digits));
  if (std::fabs(scaled) >= 9.2e18) return std::nullopt;
  return static_cast<int64_t>(scaled);
}

bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// Reads eight ASCII digits at `p` into `out` with a few multiplications
// instead of eight multiply-adds; false if any byte is not a digit. SWAR
// ("SIMD within a register"), as in simdjson's parse_eight_digits_unrolled
// (D. Lemire, "Quickly parsing eight digits", 2018; Langdale & Lemire,
// "Parsing gigabytes of JSON per second", VLDB Journal 2019). A Kineto
// timestamp has 16 integer digits: two steps instead of sixteen.
bool eightDigits(const char* p, uint64_t& out) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  if constexpr (std::endian::native != std::endian::little) v = __builtin_bswap64(v);
  // Every byte is 0x30..0x39: its high nibble is 3, and adding 6 keeps it 3.
  if ((((v & 0xF0F0F0F0F0F0F0F0) | (((v + 0x0606060606060606) & 0xF0F0F0F0F0F0F0F0) >> 4)) !=
       0x3333333333333333)) {
    return false;
  }
  v = (v & 0x0F0F0F0F0F0F0F0F) * 2561 >> 8;             // pairs: 10 * a + b
  v = (v & 0x00FF00FF00FF00FF) * 6553601 >> 16;         // quads: 100 * ab + cd
  out = (v & 0x0000FFFF0000FFFF) * 42949672960001 >> 32;  // 10000 * abcd + efgh
  return true;
}

}  // namespace

bool parseScaledDecimal(std::string_view text, int scale_digits, int64_t& out) {
  while (!text.empty() && isSpace(text.front())) text.remove_prefix(1);
  while (!text.empty() && isSpace(text.back())) text.remove_suffix(1);
  if (text.empty()) return false;

  size_t i = 0;
  const bool negative = text[0] == '-';
  if (negative) ++i;
  // Accumulate as unsigned to detect overflow precisely.
  constexpr uint64_t kLimit = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  uint64_t value = 0;
  bool any_digit = false;
  // value * 10 + digit <= kLimit, tested without a division (it runs for
  // every digit of every timestamp).
  constexpr uint64_t kCutoff = kLimit / 10;
  constexpr int kLastDigit = static_cast<int>(kLimit % 10);
  auto push_digit = [&](int digit) -> bool {
    if (value >= kCutoff && (value > kCutoff || digit > kLastDigit)) return false;
    value = value * 10 + static_cast<uint64_t>(digit);
    return true;
  };
  // Eight digits at a time while the value cannot overflow: below 10^10,
  // value * 10^8 + 99,999,999 stays under 2^63.
  for (uint64_t eight = 0; i + 8 <= text.size() && value < 10'000'000'000 &&
                           eightDigits(text.data() + i, eight);
       i += 8) {
    value = value * 100'000'000 + eight;
    any_digit = true;
  }
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    if (!push_digit(text[i] - '0')) return false;
    any_digit = true;
  }
  int fraction_digits = 0;
  bool round_up = false;
  if (i < text.size() && text[i] == '.') {
    ++i;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
      any_digit = true;
      if (fraction_digits < scale_digits) {
        if (!push_digit(text[i] - '0')) return false;
        ++fraction_digits;
      } else if (fraction_digits == scale_digits) {
        round_up = text[i] >= '5';  // first dropped digit decides; half rounds away from zero
        ++fraction_digits;
      }
    }
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    const std::optional<int64_t> scaled = parseWithExponent(text, scale_digits);
    if (scaled) out = *scaled;
    return scaled.has_value();
  }
  if (i != text.size() || !any_digit) return false;
  for (; fraction_digits < scale_digits; ++fraction_digits) {
    if (!push_digit(0)) return false;
  }
  if (round_up) {
    if (value == kLimit) return false;
    ++value;
  }
  const auto result = static_cast<int64_t>(value);
  out = negative ? -result : result;
  return true;
}

}  // namespace damscope
