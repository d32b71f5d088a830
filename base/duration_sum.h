// Sums of durations that cannot wrap. Every time in a trace lies inside
// ±2^62 ns (trace/tables.h, kTimeLimitNs), so one duration, a difference of two
// times, fits int64 — but a sum of durations need not: two kernels of ~2^63 ns
// (each from near -2^62 to near +2^62, on two streams) already pass INT64_MAX,
// and a wrapped sum turned an all-GEMM trace into "gemm 0.0 %" (issue 32 §2).
//
// So sums saturate at the int64 limits instead of wrapping. Saturating
// addition of non-negative terms is monotone: a saturated total is still at
// least each of its parts' saturated sums, so a part's share of its total
// stays within [0, 100] %; and a figure of INT64_MAX ns (292 years) reads as
// what it is, a trace far outside any real run, not as a plausible small one.
#pragma once

#include <cstdint>
#include <limits>

namespace damscope {

// a + b, or the int64 limit on the side it overflowed.
constexpr int64_t addDurations(int64_t a, int64_t b) {
  int64_t sum = 0;
  if (!__builtin_add_overflow(a, b, &sum)) return sum;
  return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
}

// Adds `dur` to `sum` in place: the form the analyses' accumulators use.
constexpr void accumulateDuration(int64_t& sum, int64_t dur) {
  sum = addDurations(sum, dur);
}

}  // namespace damscope
