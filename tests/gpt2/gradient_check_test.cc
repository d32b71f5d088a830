// The gradient checker's own tests: it must fail on the wrong gradients a
// broken backward produces, or its passes mean nothing.
#include <gtest/gtest.h>

#include "reference_workloads/gpt2/cpu/kernels.h"
#include "tests/gpt2/gradient_check.h"

namespace damscope::gpt2 {
namespace {

using testing::dot;
using testing::numericGradient;
using testing::randomVector;
using testing::worstMismatch;

// The GELU gradient of a small vector, and its numeric counterpart.
struct GeluCase {
  std::vector<float> analytic;
  std::vector<double> numeric;
};

GeluCase geluCase() {
  const size_t n = 16;
  auto inp = randomVector(n, 31, 3.0f);
  const auto r = randomVector(n, 32);
  std::vector<float> out(n);
  GeluCase c;
  c.analytic.resize(n);
  cpu::geluBackward(c.analytic.data(), inp.data(), r.data(), n);
  c.numeric = numericGradient(inp, [&] {
    cpu::geluForward(out.data(), inp.data(), n);
    return dot(out, r);
  });
  return c;
}

TEST(GradientCheckTest, AcceptsTheRightGradient) {
  const GeluCase c = geluCase();
  EXPECT_LE(worstMismatch(c.analytic, c.numeric).ratio, 1.0);
}

TEST(GradientCheckTest, RejectsAGradientTenPercentOff) {
  GeluCase c = geluCase();
  for (float& g : c.analytic) g *= 1.1f;
  EXPECT_GT(worstMismatch(c.analytic, c.numeric).ratio, 1.0);
}

TEST(GradientCheckTest, RejectsOneWrongElement) {
  GeluCase c = geluCase();
  c.analytic[5] = -c.analytic[5] + 0.05f;
  EXPECT_GT(worstMismatch(c.analytic, c.numeric).ratio, 1.0);
  EXPECT_EQ(worstMismatch(c.analytic, c.numeric).index, 5u);
}

}  // namespace
}  // namespace damscope::gpt2
