// Exact conversion of JSON decimal text to scaled integers.
//
// Chrome-trace timestamps are microseconds since the epoch written as JSON
// numbers, with up to three fractional digits in nanosecond-resolution traces
// ("1712195495505543.2", "4458676522690.655"). That is 16-19 significant
// digits: more than a double holds (about 15.9), so parsing through double
// would move events by up to ~125 ns. Reading the digits directly keeps every
// nanosecond the source wrote.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace damscope {

// Parses `text` (a JSON number, optionally surrounded by spaces) and returns
// value * 10^scale_digits rounded to the nearest integer, half away from zero.
// Exponent notation falls back to double arithmetic. std::nullopt if `text` is
// not a number or the result does not fit in int64.
bool parseScaledDecimal(std::string_view text, int scale_digits, int64_t& out);

// The same as an optional. Inline, so that the optional stays in registers:
// returned from the out-of-line function it went through memory, a byte
// stored and eight bytes loaded back, which stalls store-to-load forwarding
// (half of the function's time on every timestamp; perf annotate).
inline std::optional<int64_t> parseScaledDecimal(std::string_view text, int scale_digits) {
  int64_t value = 0;
  if (!parseScaledDecimal(text, scale_digits, value)) return std::nullopt;
  return value;
}

// Microseconds (as written in a Chrome trace) to integer nanoseconds.
inline std::optional<int64_t> microsToNanos(std::string_view text) {
  return parseScaledDecimal(text, 3);
}

}  // namespace damscope
