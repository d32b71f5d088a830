// Finite-difference gradient checking for the GPT-2 trainer's ops: the
// analytic gradient of a scalar loss against central differences
//   dL/dx_i ~ (L(x + h e_i) - L(x - h e_i)) / 2h
// with the loss summed in double. The kernels are fp32, so the difference
// quotient carries a rounding error of about eps_fp32 |L| / h besides the
// O(h^2) truncation error. With h = 1e-2 the ops' worst elements differ by
// about 1e-5 (the whole model's by 1e-4), an order of magnitude inside the
// tolerance |a - n| <= 1e-4 + 1e-3 |n|, while a wrong gradient (a sign, a
// missing term, a factor) lands far outside it, as the checker's own test
// (gradient_check_test.cc) shows.
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace damscope::gpt2::testing {

inline constexpr double kStep = 1e-2;

// Deterministic test data in [-scale, scale).
inline std::vector<float> randomVector(size_t n, uint64_t seed, float scale = 1.0f) {
  std::vector<float> v(n);
  uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
  for (float& f : v) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    f = scale * (static_cast<float>(x >> 40) / static_cast<float>(1 << 24) * 2.0f - 1.0f);
  }
  return v;
}

// sum_i a[i] w[i] in double: the scalar loss through which an op's output is checked.
inline double dot(const std::vector<float>& a, const std::vector<float>& w) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += double(a[i]) * w[i];
  return s;
}

// Central differences of loss() with respect to every element of x (x is
// restored afterwards).
inline std::vector<double> numericGradient(std::vector<float>& x,
                                           const std::function<double()>& loss) {
  std::vector<double> g(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const float keep = x[i];
    x[i] = keep + float(kStep);
    const double up = loss();
    x[i] = keep - float(kStep);
    const double down = loss();
    x[i] = keep;
    g[i] = (up - down) / (2 * kStep);
  }
  return g;
}

struct GradientMismatch {
  size_t index = 0;
  double analytic = 0;
  double numeric = 0;
  double ratio = 0;  // |a - n| / (atol + rtol |n|); > 1 fails
};

// The worst element: |analytic - numeric| <= atol + rtol |numeric| passes.
inline GradientMismatch worstMismatch(const std::vector<float>& analytic,
                                      const std::vector<double>& numeric, double atol = 1e-4,
                                      double rtol = 1e-3) {
  GradientMismatch worst;
  for (size_t i = 0; i < numeric.size(); ++i) {
    const double ratio =
        std::fabs(analytic[i] - numeric[i]) / (atol + rtol * std::fabs(numeric[i]));
    if (ratio > worst.ratio) worst = {i, analytic[i], numeric[i], ratio};
  }
  return worst;
}

inline std::string describe(const GradientMismatch& m) {
  return "element " + std::to_string(m.index) + ": analytic " + std::to_string(m.analytic) +
         ", numeric " + std::to_string(m.numeric) + " (" + std::to_string(m.ratio) +
         "x the tolerance)";
}

}  // namespace damscope::gpt2::testing

// Fails the test when any element is outside the tolerance.
#define EXPECT_GRADIENT(analytic, numeric)                                               \
  do {                                                                                   \
    const auto gradient_mismatch_ =                                                      \
        ::damscope::gpt2::testing::worstMismatch((analytic), (numeric));                 \
    EXPECT_LE(gradient_mismatch_.ratio, 1.0)                                             \
        << #analytic << ": " << ::damscope::gpt2::testing::describe(gradient_mismatch_); \
  } while (0)
