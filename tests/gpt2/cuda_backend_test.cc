// The CUDA backend against the CPU backend, op by op, on random inputs
// (label "gpu"; every case skips where probeCudaDevice finds no device).
//
// Tolerances, as max |cuda - cpu| / (1 + |cpu|) over the output:
//   fp32 ops 1e-4: the same math in another order (warp and block
//   reductions, cuBLASLt's split of K, expf and tanhf against the CPU's
//   polynomial approximations, cpu/vector_math.h, 2e-7 relative).
//   tf32 GEMMs 1e-2: inputs rounded to a 10-bit mantissa (relative error
//   2^-11 each), so a K-term product of unit inputs errs by about
//   sqrt(K) 2^-11 |x||w|, ~5e-3 for the K <= 96 used here.
//   bf16 GEMMs 3e-2: a 7-bit mantissa (2^-8 relative per input), four times
//   tf32's error.
// Each case also starts its outputs at a sentinel so that an element the op
// should write but does not is caught, and checks the "+=" outputs keep what
// they held.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "reference_workloads/gpt2/cpu/cpu_backend.h"
#include "reference_workloads/gpt2/cuda/cuda_backend.h"
#include "reference_workloads/gpt2/cuda/kernels.h"
#include "tests/gpt2/gradient_check.h"

namespace damscope::gpt2 {
namespace {

using testing::randomVector;

constexpr double kFp32Tolerance = 1e-4;

double tolerance(Precision p) {
  switch (p) {
    case Precision::kFp32:
      return kFp32Tolerance;
    case Precision::kTf32:
      return 1e-2;
    case Precision::kBf16:
      return 3e-2;
  }
  return kFp32Tolerance;
}

void expectClose(const std::vector<float>& actual, const std::vector<float>& expected, double tol,
                 const std::string& what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  double worst = 0;
  size_t at = 0;
  for (size_t i = 0; i < actual.size(); ++i) {
    const double err = std::abs(double(actual[i]) - expected[i]) / (1.0 + std::abs(expected[i]));
    if (!(err <= worst)) worst = err, at = i;  // NaN counts as the worst
  }
  EXPECT_LE(worst, tol) << what << ": element " << at << " is " << actual[at] << ", expected "
                        << expected[at];
}

// A CUDA backend and the buffers a case puts on it.
class Device {
 public:
  explicit Device(std::unique_ptr<CudaBackend> backend) : b_(std::move(backend)) {}
  ~Device() {
    for (void* p : buffers_) b_->release(p);
  }
  CudaBackend& backend() { return *b_; }

  template <typename T>
  T* put(const std::vector<T>& host) {
    void* p = b_->allocate(host.size() * sizeof(T));
    EXPECT_NE(p, nullptr);
    b_->upload(p, host.data(), host.size() * sizeof(T));
    buffers_.push_back(p);
    return static_cast<T*>(p);
  }
  float* zeros(size_t n) { return put(std::vector<float>(n, 0.0f)); }
  template <typename T>
  std::vector<T> get(const T* p, size_t n) {
    std::vector<T> host(n);
    b_->download(host.data(), p, n * sizeof(T));
    EXPECT_TRUE(b_->status().ok()) << b_->status().error().message();
    return host;
  }

 private:
  std::unique_ptr<CudaBackend> b_;
  std::vector<void*> buffers_;
};

class CudaBackendTest : public ::testing::Test {
 protected:
  std::unique_ptr<Device> device(CudaOptions options = {}) {
    auto backend = CudaBackend::create(options);
    EXPECT_TRUE(backend.ok()) << backend.error().message();
    if (!backend.ok()) return nullptr;
    return std::make_unique<Device>(std::move(backend).value());
  }
  void SetUp() override {
    auto probe = probeCudaDevice(0, Precision::kFp32);
    if (!probe.ok()) GTEST_SKIP() << probe.error().message();
  }
  CpuBackend cpu_{2};
};

TEST_F(CudaBackendTest, EmbeddingAddsToTheTokenTableAndWritesThePositionTable) {
  auto d = device();
  ASSERT_TRUE(d);
  const int B = 3, T = 5, C = 40, V = 7;
  std::vector<int32_t> tokens = {1, 3, 1, 0, 6, 1, 1, 2, 5, 3, 4, 1, 0, 0, 6};
  const auto wte = randomVector(V * C, 1), wpe = randomVector(T * C, 2);
  const auto dout = randomVector(B * T * C, 3);
  std::vector<float> out(B * T * C), dwte(V * C, 0.5f), dwpe(T * C, 7.0f);
  cpu_.embeddingForward(out.data(), tokens.data(), wte.data(), wpe.data(), B, T, C);
  cpu_.embeddingBackward(dwte.data(), dwpe.data(), dout.data(), tokens.data(), B, T, C);

  float* g_out = d->zeros(out.size());
  float* g_dwte = d->put(std::vector<float>(V * C, 0.5f));
  float* g_dwpe = d->put(std::vector<float>(T * C, 7.0f));
  const int32_t* g_tokens = d->put(tokens);
  d->backend().embeddingForward(g_out, g_tokens, d->put(wte), d->put(wpe), B, T, C);
  d->backend().embeddingBackward(g_dwte, g_dwpe, d->put(dout), g_tokens, B, T, C);
  expectClose(d->get(g_out, out.size()), out, kFp32Tolerance, "out");
  expectClose(d->get(g_dwte, dwte.size()), dwte, kFp32Tolerance, "dwte");
  expectClose(d->get(g_dwpe, dwpe.size()), dwpe, kFp32Tolerance, "dwpe");
}

TEST_F(CudaBackendTest, LayernormForwardAndBackwardBothGradientModes) {
  auto d = device();
  ASSERT_TRUE(d);
  // 600 rows: three chunks of the two-pass column sums, the last one short.
  for (const int rows : {19, 600}) {
    SCOPED_TRACE("rows " + std::to_string(rows));
    const int C = 72;  // C not a multiple of the warp
    const auto inp = randomVector(rows * C, 4, 2.0f), w = randomVector(C, 5),
               b = randomVector(C, 6);
    const auto dout = randomVector(rows * C, 7);
    std::vector<float> out(rows * C), mean(rows), rstd(rows);
    cpu_.layernormForward(out.data(), mean.data(), rstd.data(), inp.data(), w.data(), b.data(),
                          rows, C);
    float *g_out = d->zeros(out.size()), *g_mean = d->zeros(rows), *g_rstd = d->zeros(rows);
    float *g_inp = d->put(inp), *g_w = d->put(w);
    d->backend().layernormForward(g_out, g_mean, g_rstd, g_inp, g_w, d->put(b), rows, C);
    expectClose(d->get(g_out, out.size()), out, kFp32Tolerance, "out");
    expectClose(d->get(g_mean, rows), mean, kFp32Tolerance, "mean");
    expectClose(d->get(g_rstd, rows), rstd, kFp32Tolerance, "rstd");
    for (bool accumulate : {true, false}) {
      std::vector<float> dinp(rows * C, 0.25f), dw(C, 99.0f), db(C, 99.0f);
      cpu_.layernormBackward(dinp.data(), dw.data(), db.data(), dout.data(), inp.data(), w.data(),
                             mean.data(), rstd.data(), rows, C, accumulate);
      float* g_dinp = d->put(std::vector<float>(rows * C, 0.25f));
      float *g_dw = d->put(std::vector<float>(C, 99.0f)),
            *g_db = d->put(std::vector<float>(C, 99.0f));
      d->backend().layernormBackward(g_dinp, g_dw, g_db, d->put(dout), g_inp, g_w, g_mean, g_rstd,
                                     rows, C, accumulate);
      const std::string mode = accumulate ? " (+=)" : " (=)";
      expectClose(d->get(g_dinp, dinp.size()), dinp, kFp32Tolerance, "dinp" + mode);
      expectClose(d->get(g_dw, C), dw, kFp32Tolerance, "dweight" + mode);
      expectClose(d->get(g_db, C), db, kFp32Tolerance, "dbias" + mode);
    }
  }
}

// bf16 of an fp32 value, rounded to nearest even: the upper 16 bits after
// adding 0x7fff plus the lowest kept bit (no NaNs here).
uint16_t bf16Bits(float x) {
  uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return static_cast<uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

TEST_F(CudaBackendTest, Bf16ConversionRoundsToNearestEvenAlignedOrNot) {
  auto d = device();
  ASSERT_TRUE(d);
  // 1027 elements: quads and a tail; from offset 1 the source is not
  // 16-byte aligned and takes the one-per-thread path throughout.
  const size_t n = 1027;
  const auto src = randomVector(n + 1, 12, 3.0f);
  const float* g_src = d->put(src);
  uint16_t* g_dst = reinterpret_cast<uint16_t*>(d->zeros(n));
  for (const size_t offset : {size_t{0}, size_t{1}}) {
    SCOPED_TRACE("source offset " + std::to_string(offset));
    ASSERT_EQ(cuda::castToBf16(g_dst, g_src + offset, n,
                               static_cast<cudaStream_t>(d->backend().computeStream())),
              cudaSuccess);
    const std::vector<uint16_t> got = d->get(g_dst, n);
    size_t wrong = 0;
    for (size_t i = 0; i < n; ++i) wrong += got[i] != bf16Bits(src[offset + i]);
    EXPECT_EQ(wrong, 0u);
  }
}

class CudaMatmulTest : public CudaBackendTest, public ::testing::WithParamInterface<Precision> {};

TEST_P(CudaMatmulTest, ForwardWithAndWithoutBiasAndBackward) {
  CudaOptions options;
  options.precision = GetParam();
  auto d = device(options);
  ASSERT_TRUE(d);
  // 600 rows: three chunks of the two-pass bias gradient, the last one short.
  for (const int rows : {37, 600}) {
    SCOPED_TRACE("rows " + std::to_string(rows));
    // A K-term dot product of rounded operands errs by about u sqrt(K) times
    // its terms' size (Higham, "Accuracy and Stability of Numerical
    // Algorithms", 2nd ed., section 3.5, the probabilistic bound), so the
    // tolerance grows with the rows that dweight sums over.
    const double tol = tolerance(GetParam()) * std::max(1.0, std::sqrt(rows / 64.0));
    const int C = 48, OC = 80;
    const auto inp = randomVector(rows * C, 8), w = randomVector(OC * C, 9),
               bias = randomVector(OC, 10);
    const auto dout = randomVector(rows * OC, 11);
    float *g_inp = d->put(inp), *g_w = d->put(w), *g_dout = d->put(dout);
    for (bool with_bias : {true, false}) {
      std::vector<float> out(rows * OC);
      cpu_.matmulForward(out.data(), inp.data(), w.data(), with_bias ? bias.data() : nullptr, rows,
                         C, OC);
      float* g_out = d->put(std::vector<float>(rows * OC, 99.0f));
      d->backend().matmulForward(g_out, g_inp, g_w, with_bias ? d->put(bias) : nullptr, rows, C,
                                 OC);
      expectClose(d->get(g_out, out.size()), out, tol, with_bias ? "out with bias" : "out");
    }
    std::vector<float> dinp(rows * C), dw(OC * C), db(OC);
    cpu_.matmulBackward(dinp.data(), dw.data(), db.data(), dout.data(), inp.data(), w.data(), rows,
                        C, OC);
    float* g_dinp = d->put(std::vector<float>(rows * C, 99.0f));
    float* g_dw = d->put(std::vector<float>(OC * C, 99.0f));
    float* g_db = d->put(std::vector<float>(OC, 99.0f));
    d->backend().matmulBackward(g_dinp, g_dw, g_db, g_dout, g_inp, g_w, rows, C, OC);
    expectClose(d->get(g_dinp, dinp.size()), dinp, tol, "dinp");
    expectClose(d->get(g_dw, dw.size()), dw, tol, "dweight");
    expectClose(d->get(g_db, OC), db, kFp32Tolerance, "dbias");  // an fp32 column sum
  }
}

INSTANTIATE_TEST_SUITE_P(Precisions, CudaMatmulTest,
                         ::testing::Values(Precision::kFp32, Precision::kTf32, Precision::kBf16),
                         [](const auto& info) { return std::string(precisionName(info.param)); });

struct AttentionShape {
  int B, T, C, NH;
};

class CudaAttentionTest : public CudaBackendTest,
                          public ::testing::WithParamInterface<AttentionKind> {};

TEST_P(CudaAttentionTest, ForwardAndBackwardEqualTheCpu) {
  CudaOptions options;
  options.attention = GetParam();
  auto d = device(options);
  ASSERT_TRUE(d);
  // hs 32 with T past one tile and not a multiple of it; hs 64; hs 4.
  for (const AttentionShape s :
       {AttentionShape{2, 37, 64, 2}, AttentionShape{1, 70, 128, 2}, AttentionShape{2, 9, 16, 4}}) {
    SCOPED_TRACE("T " + std::to_string(s.T) + " hs " + std::to_string(s.C / s.NH));
    const size_t btc = size_t(s.B) * s.T * s.C, tt = size_t(s.B) * s.NH * s.T * s.T;
    const auto qkv = randomVector(3 * btc, 12, 1.5f), dout = randomVector(btc, 13);
    std::vector<float> out(btc), preatt(tt), att(tt), dqkv(3 * btc), dpreatt(tt), datt(tt);
    cpu_.attentionForward(out.data(), preatt.data(), att.data(), qkv.data(), s.B, s.T, s.C, s.NH);
    cpu_.attentionBackward(dqkv.data(), dpreatt.data(), datt.data(), dout.data(), qkv.data(),
                           att.data(), s.B, s.T, s.C, s.NH);
    float *g_out = d->put(std::vector<float>(btc, 99.0f)), *g_preatt = d->zeros(tt),
          *g_att = d->zeros(tt);
    float* g_qkv = d->put(qkv);
    d->backend().attentionForward(g_out, g_preatt, g_att, g_qkv, s.B, s.T, s.C, s.NH);
    float *g_dqkv = d->put(std::vector<float>(3 * btc, 99.0f)), *g_dpreatt = d->zeros(tt),
          *g_datt = d->zeros(tt);
    d->backend().attentionBackward(g_dqkv, g_dpreatt, g_datt, d->put(dout), g_qkv, g_att, s.B, s.T,
                                   s.C, s.NH);
    expectClose(d->get(g_out, btc), out, kFp32Tolerance, "out");
    expectClose(d->get(g_dqkv, 3 * btc), dqkv, kFp32Tolerance, "dqkv");
    if (GetParam() == AttentionKind::kNaive) {
      // The naive form keeps the probabilities, with zeros past the diagonal
      // (the CPU leaves those untouched: zero from allocation here).
      expectClose(d->get(g_att, tt), att, kFp32Tolerance, "att");
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Kinds, CudaAttentionTest,
                         ::testing::Values(AttentionKind::kNaive, AttentionKind::kFused),
                         [](const auto& info) { return std::string(attentionName(info.param)); });

TEST_F(CudaBackendTest, TensorCoreAttentionEqualsTheCpuWithinBf16) {
  // --precision bf16 with head size 64 runs tensor_core_attention.cu: T of
  // one exact tile, of a part tile, and of three tiles with the last short.
  CudaOptions options;
  options.attention = AttentionKind::kFused;
  options.precision = Precision::kBf16;
  auto d = device(options);
  ASSERT_TRUE(d);
  for (const AttentionShape s : {AttentionShape{1, 64, 64, 1}, AttentionShape{2, 5, 128, 2},
                                 AttentionShape{2, 150, 128, 2}}) {
    SCOPED_TRACE("B " + std::to_string(s.B) + " T " + std::to_string(s.T) + " heads " +
                 std::to_string(s.NH));
    const size_t btc = size_t(s.B) * s.T * s.C, tt = size_t(s.B) * s.NH * s.T * s.T;
    const auto qkv = randomVector(3 * btc, 16), dout = randomVector(btc, 17);
    std::vector<float> out(btc), preatt(tt), att(tt), dqkv(3 * btc), dpreatt(tt), datt(tt);
    cpu_.attentionForward(out.data(), preatt.data(), att.data(), qkv.data(), s.B, s.T, s.C, s.NH);
    cpu_.attentionBackward(dqkv.data(), dpreatt.data(), datt.data(), dout.data(), qkv.data(),
                           att.data(), s.B, s.T, s.C, s.NH);
    float *g_out = d->put(std::vector<float>(btc, 99.0f)), *g_att = d->zeros(tt);
    float* g_qkv = d->put(qkv);
    d->backend().attentionForward(g_out, d->zeros(tt), g_att, g_qkv, s.B, s.T, s.C, s.NH);
    float* g_dqkv = d->put(std::vector<float>(3 * btc, 99.0f));
    d->backend().attentionBackward(g_dqkv, d->zeros(tt), d->zeros(tt), d->put(dout), g_qkv, g_att,
                                   s.B, s.T, s.C, s.NH);
    expectClose(d->get(g_out, btc), out, tolerance(Precision::kBf16), "out");
    expectClose(d->get(g_dqkv, 3 * btc), dqkv, tolerance(Precision::kBf16), "dqkv");
  }
}

TEST_F(CudaBackendTest, NaiveAndFusedAttentionAgreeOnAWideHead) {
  const int B = 1, T = 130, C = 256, NH = 2;  // hs 128: the fused kernels' smallest tiles
  const size_t btc = size_t(B) * T * C, tt = size_t(B) * NH * T * T;
  const auto qkv = randomVector(3 * btc, 14), dout = randomVector(btc, 15);
  std::vector<std::vector<float>> outs, grads;
  for (AttentionKind kind : {AttentionKind::kNaive, AttentionKind::kFused}) {
    CudaOptions options;
    options.attention = kind;
    auto d = device(options);
    ASSERT_TRUE(d);
    float *out = d->zeros(btc), *preatt = d->zeros(tt), *att = d->zeros(tt), *qkv_d = d->put(qkv);
    float *dqkv = d->zeros(3 * btc), *dpreatt = d->zeros(tt), *datt = d->zeros(tt);
    d->backend().attentionForward(out, preatt, att, qkv_d, B, T, C, NH);
    d->backend().attentionBackward(dqkv, dpreatt, datt, d->put(dout), qkv_d, att, B, T, C, NH);
    outs.push_back(d->get(out, btc));
    grads.push_back(d->get(dqkv, 3 * btc));
  }
  expectClose(outs[1], outs[0], kFp32Tolerance, "out");
  expectClose(grads[1], grads[0], kFp32Tolerance, "dqkv");
}

TEST_F(CudaBackendTest, GeluResidualAndCrossEntropyEqualTheCpu) {
  auto d = device();
  ASSERT_TRUE(d);
  const size_t n = 1000;
  const auto x = randomVector(n, 16, 4.0f), y = randomVector(n, 17), g = randomVector(n, 18);
  std::vector<float> gelu(n), dgelu(n), sum(n), da(n), db(n);
  cpu_.geluForward(gelu.data(), x.data(), n);
  cpu_.geluBackward(dgelu.data(), x.data(), g.data(), n);
  cpu_.residualForward(sum.data(), x.data(), y.data(), n);
  cpu_.residualBackward(da.data(), db.data(), g.data(), n);
  float *gx = d->put(x), *gy = d->put(y), *gg = d->put(g);
  float *g_gelu = d->zeros(n), *g_dgelu = d->zeros(n), *g_sum = d->zeros(n), *g_da = d->zeros(n),
        *g_db = d->zeros(n);
  d->backend().geluForward(g_gelu, gx, n);
  d->backend().geluBackward(g_dgelu, gx, gg, n);
  d->backend().residualForward(g_sum, gx, gy, n);
  d->backend().residualBackward(g_da, g_db, gg, n);
  expectClose(d->get(g_gelu, n), gelu, kFp32Tolerance, "gelu");
  expectClose(d->get(g_dgelu, n), dgelu, kFp32Tolerance, "gelu backward");
  expectClose(d->get(g_sum, n), sum, kFp32Tolerance, "residual");
  expectClose(d->get(g_da, n), da, kFp32Tolerance, "residual da");
  expectClose(d->get(g_db, n), db, kFp32Tolerance, "residual db");

  const int rows = 6, V = 300, Vp = 384;  // the padding must come out 0
  const auto logits = randomVector(size_t(rows) * Vp, 19, 6.0f);
  const std::vector<int32_t> targets = {0, 299, 5, 150, 5, 7};
  std::vector<float> losses(rows), probs(size_t(rows) * Vp, 99.0f), dlogits(size_t(rows) * Vp);
  cpu_.crossentropyForward(losses.data(), probs.data(), logits.data(), targets.data(), rows, V, Vp);
  cpu_.crossentropyBackward(dlogits.data(), probs.data(), targets.data(), 1.0f / rows, rows, V, Vp);
  float *g_losses = d->zeros(rows), *g_probs = d->put(std::vector<float>(probs.size(), 99.0f)),
        *g_dlogits = d->put(std::vector<float>(probs.size(), 99.0f));
  const int32_t* g_targets = d->put(targets);
  d->backend().crossentropyForward(g_losses, g_probs, d->put(logits), g_targets, rows, V, Vp);
  d->backend().crossentropyBackward(g_dlogits, g_probs, g_targets, 1.0f / rows, rows, V, Vp);
  expectClose(d->get(g_losses, rows), losses, kFp32Tolerance, "losses");
  expectClose(d->get(g_probs, probs.size()), probs, kFp32Tolerance, "probs");
  expectClose(d->get(g_dlogits, probs.size()), dlogits, kFp32Tolerance, "dlogits");
}

TEST_F(CudaBackendTest, GradNormAndAdamWOverSegmentsEqualTheCpu) {
  auto d = device();
  ASSERT_TRUE(d);
  // Segments with a gap between them (left untouched), one with decay, one
  // of several AdamW blocks.
  const size_t n = 9000;
  const std::vector<AdamWSegment> segments = {
      {0, 100, 0.1f}, {150, 5000, 0.0f}, {5200, 3800, 0.1f}};
  auto params = randomVector(n, 20), m = std::vector<float>(n, 0.0f), v = m;
  const auto grads = randomVector(n, 21, 3.0f);
  float *g_params = d->put(params), *g_grads = d->put(grads), *g_m = d->put(m), *g_v = d->put(v);
  const double norm = cpu_.gradNormSquared(grads.data(), n);
  EXPECT_NEAR(d->backend().gradNormSquared(g_grads, n), norm, 1e-9 * norm);
  for (int64_t step = 1; step <= 3; ++step) {
    AdamWArgs args;
    args.lr = 1e-2f;
    args.step = step;
    args.grad_scale = 0.5f;
    cpu_.adamw(params.data(), grads.data(), m.data(), v.data(), segments.data(),
               int(segments.size()), args);
    d->backend().adamw(g_params, g_grads, g_m, g_v, segments.data(), int(segments.size()), args);
  }
  expectClose(d->get(g_params, n), params, kFp32Tolerance, "params");
  expectClose(d->get(g_m, n), m, kFp32Tolerance, "m");
  expectClose(d->get(g_v, n), v, kFp32Tolerance, "v");
}

TEST_F(CudaBackendTest, ACapturedGraphReplaysWhatTheOpsComputeEagerly) {
  const int rows = 16, C = 64, OC = 96;
  const auto inp = randomVector(rows * C, 22), w = randomVector(OC * C, 23),
             bias = randomVector(OC, 24), lw = randomVector(C, 25), lb = randomVector(C, 26);
  auto run = [&](bool graph, std::vector<float>& result) {
    auto d = device();
    ASSERT_TRUE(d);
    float *x = d->put(inp), *ln = d->zeros(rows * C), *mean = d->zeros(rows),
          *rstd = d->zeros(rows), *h = d->zeros(rows * OC), *y = d->zeros(rows * OC);
    float *gw = d->put(w), *gb = d->put(bias), *glw = d->put(lw), *glb = d->put(lb);
    auto ops = [&] {
      d->backend().layernormForward(ln, mean, rstd, x, glw, glb, rows, C);
      d->backend().matmulForward(h, ln, gw, gb, rows, C, OC);
      d->backend().geluForward(y, h, size_t(rows) * OC);
    };
    if (graph) {
      ASSERT_TRUE(d->backend().beginCapture().ok());
      ops();
      const Status ended = d->backend().endCapture();
      ASSERT_TRUE(ended.ok()) << ended.error().message();
      ASSERT_TRUE(d->backend().hasGraph());
      // Nothing ran yet: the output is still the allocation's zeros.
      EXPECT_EQ(d->get(y, 1)[0], 0.0f);
      ASSERT_TRUE(d->backend().replay().ok());
      ASSERT_TRUE(d->backend().replay().ok());
    } else {
      ops();
    }
    result = d->get(y, size_t(rows) * OC);
  };
  std::vector<float> eager, replayed;
  run(false, eager);
  run(true, replayed);
  expectClose(replayed, eager, 0.0, "graph vs eager");
}

TEST_F(CudaBackendTest, AHostWaitInsideACaptureIsAnError) {
  auto d = device();
  ASSERT_TRUE(d);
  float* x = d->zeros(16);
  ASSERT_TRUE(d->backend().beginCapture().ok());
  std::vector<float> host(16);
  d->backend().download(host.data(), x, sizeof(float) * 16);
  const Status ended = d->backend().endCapture();
  ASSERT_FALSE(ended.ok());
  EXPECT_NE(ended.error().message().find("download during CUDA graph capture"), std::string::npos)
      << ended.error().message();
  EXPECT_FALSE(d->backend().hasGraph());
}

TEST_F(CudaBackendTest, PinnedUploadsLargerThanTheStagingAndPageableUploadsRoundTrip) {
  for (bool pinned : {true, false}) {
    CudaOptions options;
    options.pinned_copies = pinned;
    auto d = device(options);
    ASSERT_TRUE(d);
    const auto data = randomVector(size_t(5) << 20, 27);  // 20 MiB: five staging chunks
    float* p = d->put(data);
    float* q = d->zeros(data.size());
    d->backend().copy(q, p, data.size() * sizeof(float));
    EXPECT_EQ(d->get(q, data.size()), data) << (pinned ? "pinned" : "pageable");
  }
}

TEST_F(CudaBackendTest, SyncEveryOpGivesTheSameResults) {
  CudaOptions options;
  options.sync_every_op = true;
  auto d = device(options);
  ASSERT_TRUE(d);
  const auto x = randomVector(500, 28);
  std::vector<float> expected(500);
  cpu_.geluForward(expected.data(), x.data(), x.size());
  float* out = d->zeros(x.size());
  d->backend().geluForward(out, d->put(x), x.size());
  expectClose(d->get(out, x.size()), expected, kFp32Tolerance, "gelu");
}

TEST_F(CudaBackendTest, ProbeDescribesTheDevice) {
  auto info = probeCudaDevice(0, Precision::kBf16);
  ASSERT_TRUE(info.ok());
  EXPECT_FALSE(info->name.empty());
  EXPECT_GE(info->cc_major, 7);
  EXPECT_GT(info->sms, 0);
  EXPECT_GT(info->total_memory_bytes, info->free_memory_bytes / 2);
  EXPECT_GT(info->bandwidth_bytes_per_s, 1e11);  // any datacenter GPU has > 100 GB/s
}

}  // namespace
}  // namespace damscope::gpt2
