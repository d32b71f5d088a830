// exp and tanh for float written so that the compiler vectorises the loops
// that call them (plain arithmetic and bit operations, no library call, no
// branch): libm's expf/tanhf are scalar calls and left the softmax and GELU
// loops unvectorised, GELU alone then taking ~15% of a `wide` step
// (bench/gpt2_op_profile).
//
// expApprox: Cody & Waite range reduction x = n ln2 + r, |r| <= ln2 / 2
// (Cody & Waite, "Software Manual for the Elementary Functions", 1980), e^r
// by the degree-7 polynomial of Cephes' expf (Moshier), 2^n by building the
// exponent bits. Relative error below 2e-7 over the clamped range; inputs
// below -87.3 give e^-87.3 (1e-38) rather than 0 or a denormal, inputs above
// 88.3 give e^88.3.
// tanhApprox: 1 - 2 / (e^{2u} + 1), u clamped to [-9, 9] where tanh is +-1
// in float. Absolute error below 3e-7 (the relative error grows near 0,
// where tanh u ~ u: GELU uses 1 + tanh u and 1 - tanh^2 u, where only the
// absolute error counts).
#pragma once

#include <bit>
#include <cstdint>

namespace damscope::gpt2::cpu {

inline float expApprox(float x) {
  constexpr float kLog2e = 1.44269504088896341f;
  constexpr float kLn2Hi = 0.693359375f;  // ln 2 split so that n * kLn2Hi is exact
  constexpr float kLn2Lo = -2.12194440e-4f;
  constexpr float kRound = 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer
  x = x < -87.3f ? -87.3f : x;
  x = x > 88.3f ? 88.3f : x;
  const float n = (x * kLog2e + kRound) - kRound;
  const float r = (x - n * kLn2Hi) - n * kLn2Lo;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * (r * r) + r + 1.0f;
  const int32_t e = (static_cast<int32_t>(n) + 127) << 23;
  return p * std::bit_cast<float>(e);
}

inline float tanhApprox(float u) {
  u = u < -9.0f ? -9.0f : u;
  u = u > 9.0f ? 9.0f : u;
  return 1.0f - 2.0f / (expApprox(2.0f * u) + 1.0f);
}

}  // namespace damscope::gpt2::cpu
