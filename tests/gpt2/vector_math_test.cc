// The vectorisable exp and tanh (cpu/vector_math.h) against libm, over a
// dense sweep of their ranges, at the error bounds the header states.
#include "reference_workloads/gpt2/cpu/vector_math.h"

#include <gtest/gtest.h>

#include <cmath>

namespace damscope::gpt2 {
namespace {

TEST(VectorMathTest, ExpApproxIsWithinTwoTenMillionthsRelative) {
  double worst = 0;
  for (double x = -87.0; x <= 88.0; x += 1e-3) {
    const float xf = float(x);  // against exp of the float actually passed
    const double exact = std::exp(double(xf));
    worst = std::max(worst, std::fabs(cpu::expApprox(xf) - exact) / exact);
  }
  EXPECT_LT(worst, 2e-7);
}

TEST(VectorMathTest, ExpApproxClampsInsteadOfOverflowing) {
  EXPECT_TRUE(std::isfinite(cpu::expApprox(1000.0f)));
  EXPECT_GT(cpu::expApprox(-1000.0f), 0.0f);
  EXPECT_LT(cpu::expApprox(-1000.0f), 1e-37f);
  EXPECT_EQ(cpu::expApprox(0.0f), 1.0f);
}

TEST(VectorMathTest, TanhApproxIsWithinThreeTenMillionthsAbsolute) {
  double worst = 0;
  for (double u = -12.0; u <= 12.0; u += 1e-4) {
    const float uf = float(u);
    worst = std::max(worst, std::fabs(cpu::tanhApprox(uf) - std::tanh(double(uf))));
  }
  EXPECT_LT(worst, 3e-7);
}

}  // namespace
}  // namespace damscope::gpt2
