// Every CPU op's backward against central differences of its forward
// (gradient_check.h), on small odd shapes so that thread slices are uneven:
// the loss is L = sum(out * R) for a fixed random R, so dout = R.
#include <gtest/gtest.h>

#include <cmath>

#include "reference_workloads/gpt2/cpu/kernels.h"
#include "tests/gpt2/gradient_check.h"

namespace damscope::gpt2 {
namespace {

using testing::dot;
using testing::numericGradient;
using testing::randomVector;

TEST(OpGradientTest, EmbeddingScatterAddsRepeatedTokensAndSumsPositions) {
  const int B = 2, T = 3, C = 5, V = 4;
  const std::vector<int32_t> tokens = {1, 3, 1, 0, 1, 2};  // token 1 three times
  auto wte = randomVector(V * C, 1), wpe = randomVector(T * C, 2);
  const auto r = randomVector(B * T * C, 3);
  std::vector<float> out(B * T * C);
  auto loss = [&] {
    cpu::embeddingForward(out.data(), tokens.data(), wte.data(), wpe.data(), B, T, C);
    return dot(out, r);
  };
  // dwte accumulates: start from a known value and expect it kept.
  std::vector<float> dwte(V * C, 0.5f), dwpe(T * C, 7.0f);
  cpu::embeddingBackward(dwte.data(), dwpe.data(), r.data(), tokens.data(), B, T, C);
  for (float& g : dwte) g -= 0.5f;
  EXPECT_GRADIENT(dwte, numericGradient(wte, loss));
  EXPECT_GRADIENT(dwpe, numericGradient(wpe, loss));  // written, not added to 7
}

void checkLayernorm(bool accumulate) {
  const int rows = 5, C = 7;
  auto inp = randomVector(rows * C, 4, 2.0f);
  auto w = randomVector(C, 5), b = randomVector(C, 6);
  const auto r = randomVector(rows * C, 7);
  std::vector<float> out(rows * C), mean(rows), rstd(rows);
  auto loss = [&] {
    cpu::layernormForward(out.data(), mean.data(), rstd.data(), inp.data(), w.data(), b.data(),
                          rows, C);
    return dot(out, r);
  };
  loss();
  std::vector<float> dinp(rows * C, accumulate ? 0.25f : 99.0f), dw(C, 99.0f), db(C, 99.0f);
  cpu::layernormBackward(dinp.data(), dw.data(), db.data(), r.data(), inp.data(), w.data(),
                         mean.data(), rstd.data(), rows, C, accumulate);
  if (accumulate) {
    for (float& g : dinp) g -= 0.25f;
  }
  EXPECT_GRADIENT(dinp, numericGradient(inp, loss));
  EXPECT_GRADIENT(dw, numericGradient(w, loss));
  EXPECT_GRADIENT(db, numericGradient(b, loss));
}

TEST(OpGradientTest, LayernormAddsToTheResidualGradient) {
  checkLayernorm(true);
}

TEST(OpGradientTest, LayernormWritesTheFinalGradient) {
  checkLayernorm(false);
}

TEST(OpGradientTest, LayernormForwardNormalisesEachRow) {
  const int rows = 3, C = 64;
  const auto inp = randomVector(rows * C, 8, 3.0f);
  const std::vector<float> w(C, 1.0f), b(C, 0.0f);
  std::vector<float> out(rows * C), mean(rows), rstd(rows);
  cpu::layernormForward(out.data(), mean.data(), rstd.data(), inp.data(), w.data(), b.data(), rows,
                        C);
  for (int r = 0; r < rows; ++r) {
    double m = 0, v = 0;
    for (int c = 0; c < C; ++c) m += out[r * C + c];
    for (int c = 0; c < C; ++c) v += std::pow(out[r * C + c] - m / C, 2);
    EXPECT_NEAR(m / C, 0.0, 1e-5);
    EXPECT_NEAR(v / C, 1.0, 1e-3);
  }
}

void checkMatmul(bool bias) {
  const int rows = 7, C = 5, OC = 9;  // uneven slices for any thread count
  auto inp = randomVector(rows * C, 9), w = randomVector(OC * C, 10), b = randomVector(OC, 11);
  const auto r = randomVector(rows * OC, 12);
  std::vector<float> out(rows * OC);
  auto loss = [&] {
    cpu::matmulForward(out.data(), inp.data(), w.data(), bias ? b.data() : nullptr, rows, C, OC);
    return dot(out, r);
  };
  std::vector<float> dinp(rows * C, 99.0f), dw(OC * C, 99.0f), db(OC, 99.0f);
  cpu::matmulBackward(dinp.data(), dw.data(), bias ? db.data() : nullptr, r.data(), inp.data(),
                      w.data(), rows, C, OC);
  EXPECT_GRADIENT(dinp, numericGradient(inp, loss));
  EXPECT_GRADIENT(dw, numericGradient(w, loss));
  if (bias) EXPECT_GRADIENT(db, numericGradient(b, loss));
}

TEST(OpGradientTest, MatmulWithBias) {
  checkMatmul(true);
}

TEST(OpGradientTest, MatmulWithoutBiasAsTheLmHead) {
  checkMatmul(false);
}

TEST(OpGradientTest, MatmulForwardComputesInpTimesWeightTransposedPlusBias) {
  const int rows = 2, C = 3, OC = 2;
  const std::vector<float> inp = {1, 2, 3, 4, 5, 6}, w = {1, 0, -1, 2, 1, 0}, b = {10, 20};
  std::vector<float> out(rows * OC);
  cpu::matmulForward(out.data(), inp.data(), w.data(), b.data(), rows, C, OC);
  EXPECT_EQ(out, (std::vector<float>{1 - 3 + 10, 2 + 2 + 20, 4 - 6 + 10, 8 + 5 + 20}));
}

TEST(OpGradientTest, AttentionCausal) {
  const int B = 2, T = 5, C = 8, NH = 2;
  auto qkv = randomVector(B * T * 3 * C, 13);
  const auto r = randomVector(B * T * C, 14);
  std::vector<float> out(B * T * C), preatt(B * NH * T * T), att(B * NH * T * T);
  auto loss = [&] {
    cpu::attentionForward(out.data(), preatt.data(), att.data(), qkv.data(), B, T, C, NH);
    return dot(out, r);
  };
  loss();
  std::vector<float> dqkv(qkv.size(), 99.0f), dpreatt(preatt.size()), datt(att.size());
  cpu::attentionBackward(dqkv.data(), dpreatt.data(), datt.data(), r.data(), qkv.data(), att.data(),
                         B, T, C, NH);
  EXPECT_GRADIENT(dqkv, numericGradient(qkv, loss));
}

TEST(OpGradientTest, AttentionIsCausalAndRowsSumToOne) {
  const int B = 1, T = 6, C = 4, NH = 2;
  auto qkv = randomVector(B * T * 3 * C, 15);
  std::vector<float> out(B * T * C), preatt(B * NH * T * T), att(B * NH * T * T);
  cpu::attentionForward(out.data(), preatt.data(), att.data(), qkv.data(), B, T, C, NH);
  for (int row = 0; row < NH * T; ++row) {
    const int t = row % T;
    double sum = 0;
    for (int s = 0; s <= t; ++s) sum += att[row * T + s];
    EXPECT_NEAR(sum, 1.0, 1e-6);
  }
  // Changing a later token's key and value leaves earlier outputs alone.
  const std::vector<float> before = out;
  for (int i = C; i < 3 * C; ++i) qkv[(T - 1) * 3 * C + i] += 1.0f;
  cpu::attentionForward(out.data(), preatt.data(), att.data(), qkv.data(), B, T, C, NH);
  for (int i = 0; i < (T - 1) * C; ++i) EXPECT_EQ(out[i], before[i]) << i;
}

TEST(OpGradientTest, Gelu) {
  const size_t n = 37;
  auto inp = randomVector(n, 16, 3.0f);
  const auto r = randomVector(n, 17);
  std::vector<float> out(n);
  auto loss = [&] {
    cpu::geluForward(out.data(), inp.data(), n);
    return dot(out, r);
  };
  std::vector<float> dinp(n);
  cpu::geluBackward(dinp.data(), inp.data(), r.data(), n);
  EXPECT_GRADIENT(dinp, numericGradient(inp, loss));
}

TEST(OpGradientTest, GeluMatchesTheTanhApproximation) {
  const std::vector<float> x = {-3.0f, -1.0f, 0.0f, 0.5f, 2.0f};
  std::vector<float> out(x.size());
  cpu::geluForward(out.data(), x.data(), x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const double v = x[i];
    const double expected =
        0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v)));
    EXPECT_NEAR(out[i], expected, 1e-6);
  }
}

TEST(OpGradientTest, Residual) {
  const size_t n = 11;
  auto a = randomVector(n, 18), b = randomVector(n, 19);
  const auto r = randomVector(n, 20);
  std::vector<float> out(n);
  auto loss = [&] {
    cpu::residualForward(out.data(), a.data(), b.data(), n);
    return dot(out, r);
  };
  std::vector<float> da(n, 99.0f), db(n, 99.0f);
  cpu::residualBackward(da.data(), db.data(), r.data(), n);
  EXPECT_GRADIENT(da, numericGradient(a, loss));
  EXPECT_GRADIENT(db, numericGradient(b, loss));
}

TEST(OpGradientTest, CrossentropyIgnoresPaddedLogits) {
  const int rows = 4, V = 6, Vp = 8;
  auto logits = randomVector(rows * Vp, 21, 3.0f);
  const std::vector<int32_t> targets = {0, 5, 2, 5};
  std::vector<float> losses(rows), probs(rows * Vp);
  const float dloss = 1.0f / rows;
  auto loss = [&] {
    cpu::crossentropyForward(losses.data(), probs.data(), logits.data(), targets.data(), rows, V,
                             Vp);
    double mean = 0;
    for (float l : losses) mean += double(l) * dloss;
    return mean;
  };
  loss();
  std::vector<float> dlogits(rows * Vp, 99.0f);
  cpu::crossentropyBackward(dlogits.data(), probs.data(), targets.data(), dloss, rows, V, Vp);
  EXPECT_GRADIENT(dlogits, numericGradient(logits, loss));
  for (int r = 0; r < rows; ++r) {
    for (int i = V; i < Vp; ++i) {
      EXPECT_EQ(probs[r * Vp + i], 0.0f);
      EXPECT_EQ(dlogits[r * Vp + i], 0.0f);
    }
  }
}

TEST(OpGradientTest, CrossentropyStaysFiniteWhenTheTargetUnderflows) {
  const int V = 3;
  const std::vector<float> logits = {200.0f, 0.0f, -200.0f};
  const std::vector<int32_t> target = {2};
  std::vector<float> loss(1), probs(V);
  cpu::crossentropyForward(loss.data(), probs.data(), logits.data(), target.data(), 1, V, V);
  EXPECT_NEAR(loss[0], 400.0f, 1e-3);
}

TEST(OpGradientTest, GradNormSquaredSumsEverySquare) {
  const auto g = randomVector(1001, 22);
  double expected = 0;
  for (float x : g) expected += double(x) * x;
  EXPECT_NEAR(cpu::gradNormSquared(g.data(), g.size()), expected, 1e-9 * expected);
}

TEST(OpGradientTest, AdamwFollowsLoshchilovAndHutter) {
  // Two steps over two segments, one decaying and one not, against the
  // algorithm written out in double.
  const size_t n = 13;
  auto p = randomVector(n, 23), g = randomVector(n, 24);
  std::vector<float> m(n, 0.0f), v(n, 0.0f);
  std::vector<double> pd(p.begin(), p.end()), md(n, 0.0), vd(n, 0.0);
  const AdamWSegment segments[] = {{0, 9, 0.1f}, {9, 4, 0.0f}};
  AdamWArgs a;
  a.lr = 1e-2f;
  a.grad_scale = 0.5f;
  for (int t = 1; t <= 2; ++t) {
    a.step = t;
    cpu::adamw(p.data(), g.data(), m.data(), v.data(), segments, 2, a);
    for (size_t i = 0; i < n; ++i) {
      const double wd = i < 9 ? 0.1 : 0.0;
      const double gi = double(g[i]) * a.grad_scale;
      md[i] = a.beta1 * md[i] + (1 - double(a.beta1)) * gi;
      vd[i] = a.beta2 * vd[i] + (1 - double(a.beta2)) * gi * gi;
      const double mh = md[i] / (1 - std::pow(double(a.beta1), t));
      const double vh = vd[i] / (1 - std::pow(double(a.beta2), t));
      pd[i] -= a.lr * (mh / (std::sqrt(vh) + a.eps) + wd * pd[i]);
    }
  }
  for (size_t i = 0; i < n; ++i) EXPECT_NEAR(p[i], pd[i], 1e-6) << i;
}

}  // namespace
}  // namespace damscope::gpt2
