// The CUDA backend's host-side math, without a device: the online softmax
// and tile bounds of the fused attention (cuda/flash_tile.h), run here by a
// host reference that walks the tiles as the kernels do and is compared with
// the CPU backend's attention; the shared-memory tile choice; AdamW's block
// table; the datasheet peaks; the flag parsing; and that a missing device
// is an error.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "reference_workloads/gpt2/cpu/kernels.h"
#include "reference_workloads/gpt2/cuda/cuda_backend.h"
#include "reference_workloads/gpt2/cuda/device_peaks.h"
#include "reference_workloads/gpt2/cuda/flash_tile.h"
#include "reference_workloads/gpt2/cuda/kernels.h"
#include "tests/gpt2/gradient_check.h"

namespace damscope::gpt2 {
namespace {

using testing::randomVector;

// Softmax of `scores` taken a tile at a time through flash::raiseMax and
// flash::addScore, the weights rescaled by alpha as the kernel rescales its
// output accumulator; returns the probabilities and sets lse.
std::vector<float> tiledSoftmax(const std::vector<float>& scores, int tile, float& lse) {
  flash::RowState row;
  std::vector<float> w(scores.size(), 0.0f);
  for (size_t t0 = 0; t0 < scores.size(); t0 += tile) {
    const size_t t1 = std::min(scores.size(), t0 + tile);
    float tile_max = -INFINITY;
    for (size_t j = t0; j < t1; ++j) tile_max = std::max(tile_max, scores[j]);
    const float alpha = flash::raiseMax(row, tile_max);
    for (size_t j = 0; j < t0; ++j) w[j] *= alpha;
    for (size_t j = t0; j < t1; ++j) w[j] = flash::addScore(row, scores[j]);
  }
  lse = flash::logSumExp(row);
  for (float& x : w) x /= row.sum;
  return w;
}

TEST(FlashTileTest, OnlineSoftmaxOverTilesEqualsTheDirectSoftmax) {
  // Scores rising along the row, so that later tiles raise the max and the
  // earlier weights must be rescaled; and a spread of 30, so that an
  // unrescaled weight would be off by far more than the tolerance.
  std::vector<float> scores = randomVector(100, 11, 5.0f);
  for (size_t j = 0; j < scores.size(); ++j) scores[j] += 0.25f * j;
  double max = -INFINITY, sum = 0;
  for (float s : scores) max = std::max(max, double(s));
  for (float s : scores) sum += std::exp(s - max);
  for (int tile : {1, 7, 32, 100}) {
    float lse = 0;
    const std::vector<float> p = tiledSoftmax(scores, tile, lse);
    EXPECT_NEAR(lse, max + std::log(sum), 1e-4) << "tile " << tile;
    for (size_t j = 0; j < scores.size(); ++j) {
      const double direct = std::exp(scores[j] - max) / sum;
      EXPECT_NEAR(p[j], direct, 1e-6 + 1e-4 * direct) << "tile " << tile << " score " << j;
      EXPECT_NEAR(flash::probability(scores[j], lse), direct, 1e-6 + 1e-4 * direct);
    }
  }
}

TEST(FlashTileTest, AMaskedTileLeavesTheRowAndTheFirstVisibleTileRescalesNothing) {
  flash::RowState row;
  EXPECT_EQ(flash::raiseMax(row, -INFINITY), 1.0f);
  EXPECT_EQ(row.max, -INFINITY);
  EXPECT_EQ(row.sum, 0.0f);
  EXPECT_EQ(flash::raiseMax(row, 2.0f), 0.0f);
  EXPECT_FLOAT_EQ(flash::addScore(row, 2.0f), 1.0f);
  EXPECT_EQ(flash::raiseMax(row, 1.0f), 1.0f);  // a lower tile max keeps the state
  EXPECT_FLOAT_EQ(row.sum, 1.0f);
}

TEST(FlashTileTest, CausalTileBoundsCoverExactlyTheVisiblePairs) {
  for (int T : {1, 31, 32, 33, 100}) {
    for (int tile : {8, 16, 32}) {
      const int tiles = flash::tileCount(T, tile);
      EXPECT_GE(tiles * tile, T);
      EXPECT_LT((tiles - 1) * tile, T);
      std::vector<int> seen(size_t(T) * T, 0);
      for (int qt = 0; qt < tiles; ++qt) {
        for (int kt = 0; kt < flash::keyTilesSeenBy(qt); ++kt) {
          EXPECT_GE(qt, flash::firstQueryTileSeeing(kt));
          for (int q = qt * tile; q < std::min(T, (qt + 1) * tile); ++q) {
            for (int k = kt * tile; k < std::min(T, (kt + 1) * tile); ++k) {
              if (flash::visible(q, k)) ++seen[size_t(q) * T + k];
            }
          }
        }
      }
      for (int q = 0; q < T; ++q) {
        for (int k = 0; k < T; ++k) EXPECT_EQ(seen[size_t(q) * T + k], k <= q ? 1 : 0);
      }
    }
  }
}

TEST(FlashTileTest, TilesFitTheDefaultSharedMemoryAndShrinkWithTheHeadSize) {
  EXPECT_EQ(flash::forwardTile(32), 32);
  EXPECT_EQ(flash::forwardTile(64), 32);
  EXPECT_EQ(flash::forwardTile(128), 16);
  EXPECT_EQ(flash::backwardTile(4), 64);
  EXPECT_EQ(flash::backwardTile(64), 16);
  EXPECT_EQ(flash::backwardTile(128), 8);
  EXPECT_EQ(flash::backwardTile(512), 0);  // too large: the backend refuses it
  for (int hs : {4, 32, 64, 128}) {
    EXPECT_LE(flash::sharedBytes(flash::forwardTile(hs), hs, flash::kForwardHsTiles,
                                 flash::kForwardSquareTiles, flash::kForwardVectors),
              flash::kDefaultSharedBytes);
    EXPECT_LE(flash::sharedBytes(flash::backwardTile(hs), hs, flash::kBackwardHsTiles,
                                 flash::kBackwardSquareTiles, flash::kBackwardVectors),
              flash::kDefaultSharedBytes);
    EXPECT_TRUE(cuda::fusedAttentionSupports(hs));
  }
  EXPECT_FALSE(cuda::fusedAttentionSupports(512));
}

// The fused attention walked on the host as flash_attention.cu's kernels
// walk it: the same tile sizes, bounds, masks and online-softmax steps, in
// sequential loops instead of threads.
struct TiledAttention {
  int B, T, C, NH, hs;
  float scale;

  const float* row(const float* qkv, int b, int t, int part, int h) const {
    return qkv + (size_t(b) * T + t) * 3 * C + size_t(part) * C + size_t(h) * hs;
  }
  static float dot(const float* a, const float* b, int n) {
    float s = 0;
    for (int i = 0; i < n; ++i) s += a[i] * b[i];
    return s;
  }

  // out (B, T, C) and lse (B, NH, T); with dout, delta = dout . O instead.
  void forward(float* out, float* lse, float* delta, const float* dout, const float* qkv) const {
    const int tile = flash::forwardTile(hs);
    for (int b = 0; b < B; ++b) {
      for (int h = 0; h < NH; ++h) {
        for (int qt = 0; qt < flash::tileCount(T, tile); ++qt) {
          for (int q = qt * tile; q < std::min(T, (qt + 1) * tile); ++q) {
            flash::RowState st;
            std::vector<float> o(hs, 0.0f);
            for (int kt = 0; kt < flash::keyTilesSeenBy(qt); ++kt) {
              std::vector<float> s(tile, -INFINITY);
              float tile_max = -INFINITY;
              for (int c = 0; c < tile; ++c) {
                const int k = kt * tile + c;
                if (k < T && flash::visible(q, k)) {
                  s[c] = dot(row(qkv, b, q, 0, h), row(qkv, b, k, 1, h), hs) * scale;
                }
                tile_max = std::max(tile_max, s[c]);
              }
              const float alpha = flash::raiseMax(st, tile_max);
              for (float& x : o) x *= alpha;
              for (int c = 0; c < tile; ++c) {
                if (s[c] == -INFINITY) continue;
                const float p = flash::addScore(st, s[c]);
                const float* v = row(qkv, b, kt * tile + c, 2, h);
                for (int d = 0; d < hs; ++d) o[d] += p * v[d];
              }
            }
            const size_t bht = (size_t(b) * NH + h) * T + q;
            if (delta == nullptr) {
              lse[bht] = flash::logSumExp(st);
              for (int d = 0; d < hs; ++d)
                out[(size_t(b) * T + q) * C + h * hs + d] = o[d] / st.sum;
            } else {
              const float* g = dout + (size_t(b) * T + q) * C + h * hs;
              delta[bht] = dot(g, o.data(), hs) / st.sum;
            }
          }
        }
      }
    }
  }

  // dqkv written from dout, qkv and the forward's lse.
  void backward(float* dqkv, const float* dout, const float* qkv, const float* lse) const {
    std::vector<float> delta(size_t(B) * NH * T);
    forward(nullptr, nullptr, delta.data(), dout, qkv);
    const int tile = flash::backwardTile(hs);
    const int tiles = flash::tileCount(T, tile);
    for (int b = 0; b < B; ++b) {
      for (int h = 0; h < NH; ++h) {
        const size_t bh = (size_t(b) * NH + h) * T;
        auto grads = [&](int q, int k, float& p, float& ds) {
          const float* g = dout + (size_t(b) * T + q) * C + h * hs;
          p = flash::probability(dot(row(qkv, b, q, 0, h), row(qkv, b, k, 1, h), hs) * scale,
                                 lse[bh + q]);
          ds = p * (dot(g, row(qkv, b, k, 2, h), hs) - delta[bh + q]);
        };
        // dK, dV per key tile over the query tiles that see it.
        for (int kt = 0; kt < tiles; ++kt) {
          for (int k = kt * tile; k < std::min(T, (kt + 1) * tile); ++k) {
            std::vector<float> dk(hs, 0.0f), dv(hs, 0.0f);
            for (int qt = flash::firstQueryTileSeeing(kt); qt < tiles; ++qt) {
              for (int q = qt * tile; q < std::min(T, (qt + 1) * tile); ++q) {
                if (!flash::visible(q, k)) continue;
                float p, ds;
                grads(q, k, p, ds);
                const float* g = dout + (size_t(b) * T + q) * C + h * hs;
                for (int d = 0; d < hs; ++d) {
                  dv[d] += p * g[d];
                  dk[d] += ds * row(qkv, b, q, 0, h)[d] * scale;
                }
              }
            }
            float* out = dqkv + (size_t(b) * T + k) * 3 * C + h * hs;
            for (int d = 0; d < hs; ++d) {
              out[C + d] = dk[d];
              out[2 * C + d] = dv[d];
            }
          }
        }
        // dQ per query tile over the key tiles it sees.
        for (int qt = 0; qt < tiles; ++qt) {
          for (int q = qt * tile; q < std::min(T, (qt + 1) * tile); ++q) {
            std::vector<float> dq(hs, 0.0f);
            for (int kt = 0; kt < flash::keyTilesSeenBy(qt); ++kt) {
              for (int k = kt * tile; k < std::min(T, (kt + 1) * tile); ++k) {
                if (!flash::visible(q, k)) continue;
                float p, ds;
                grads(q, k, p, ds);
                for (int d = 0; d < hs; ++d) dq[d] += ds * row(qkv, b, k, 1, h)[d] * scale;
              }
            }
            float* out = dqkv + (size_t(b) * T + q) * 3 * C + h * hs;
            for (int d = 0; d < hs; ++d) out[d] = dq[d];
          }
        }
      }
    }
  }
};

void expectClose(const std::vector<float>& actual, const std::vector<float>& expected,
                 double tolerance, const char* what) {
  ASSERT_EQ(actual.size(), expected.size());
  double worst = 0;
  size_t at = 0;
  for (size_t i = 0; i < actual.size(); ++i) {
    const double err = std::abs(double(actual[i]) - expected[i]) / (1.0 + std::abs(expected[i]));
    if (err > worst) worst = err, at = i;
  }
  EXPECT_LE(worst, tolerance) << what << ": element " << at << " is " << actual[at] << ", expected "
                              << expected[at];
}

void checkTiledAgainstCpu(int B, int T, int C, int NH) {
  SCOPED_TRACE("B " + std::to_string(B) + " T " + std::to_string(T) + " C " + std::to_string(C) +
               " NH " + std::to_string(NH));
  const int hs = C / NH;
  const size_t btc = size_t(B) * T * C, tt = size_t(B) * NH * T * T;
  const auto qkv = randomVector(3 * btc, 21, 1.5f);
  const auto dout = randomVector(btc, 22);
  std::vector<float> out(btc), preatt(tt), att(tt), dqkv(3 * btc), dpreatt(tt), datt(tt);
  cpu::attentionForward(out.data(), preatt.data(), att.data(), qkv.data(), B, T, C, NH);
  cpu::attentionBackward(dqkv.data(), dpreatt.data(), datt.data(), dout.data(), qkv.data(),
                         att.data(), B, T, C, NH);

  const TiledAttention tiled{B, T, C, NH, hs, 1.0f / std::sqrt(float(hs))};
  std::vector<float> tiled_out(btc), lse(size_t(B) * NH * T), tiled_dqkv(3 * btc, 99.0f);
  tiled.forward(tiled_out.data(), lse.data(), nullptr, nullptr, qkv.data());
  tiled.backward(tiled_dqkv.data(), dout.data(), qkv.data(), lse.data());
  expectClose(tiled_out, out, 1e-5, "out");
  expectClose(tiled_dqkv, dqkv, 1e-4, "dqkv");
}

TEST(FlashTileTest, TiledAttentionEqualsTheCpuAttentionWithHeadSize32AndAPartialTile) {
  checkTiledAgainstCpu(2, 37, 64, 2);  // tiles of 32 forward, 32 backward: 37 = 32 + 5
}

TEST(FlashTileTest, TiledAttentionEqualsTheCpuAttentionWithHeadSize64) {
  checkTiledAgainstCpu(1, 70, 128, 2);  // tiles of 32 forward, 16 backward
}

TEST(FlashTileTest, TiledAttentionEqualsTheCpuAttentionWithTinyHeadsAndOneShortTile) {
  checkTiledAgainstCpu(1, 5, 16, 4);  // hs 4, one partial tile of 64
}

TEST(AdamWTableTest, BlocksCoverEverySegmentAndEmptySegmentsTakeNone) {
  std::vector<cuda::AdamWSegmentEntry> e = {
      {0, 1, 0.1f, -1}, {1, 0, 0.0f, -1}, {1, 2 * cuda::kAdamWBlockElements + 1, 0.0f, -1}};
  EXPECT_EQ(cuda::adamwAssignBlocks(e.data(), int(e.size())), 1 + 0 + 3);
  EXPECT_EQ(e[0].first_block, 0);
  EXPECT_EQ(e[1].first_block, 1);
  EXPECT_EQ(e[2].first_block, 1);  // shares block 1 with the empty one: the kernel takes the last
}

TEST(DevicePeaksTest, DatasheetRatesByNameAndPrecision) {
  EXPECT_DOUBLE_EQ(datasheetPeakFlopsPerS("NVIDIA H100 80GB HBM3", Precision::kBf16), 989.5e12);
  EXPECT_DOUBLE_EQ(datasheetPeakFlopsPerS("NVIDIA H100 80GB HBM3", Precision::kFp32), 67e12);
  EXPECT_DOUBLE_EQ(datasheetPeakFlopsPerS("NVIDIA H100 PCIe", Precision::kTf32), 378e12);
  EXPECT_DOUBLE_EQ(datasheetPeakFlopsPerS("NVIDIA H100 NVL", Precision::kBf16), 835.5e12);
  EXPECT_DOUBLE_EQ(datasheetPeakFlopsPerS("NVIDIA H200 NVL", Precision::kFp32), 60e12);
  EXPECT_DOUBLE_EQ(datasheetPeakFlopsPerS("NVIDIA H200", Precision::kBf16), 989.5e12);
  EXPECT_DOUBLE_EQ(datasheetPeakFlopsPerS("NVIDIA GH200 480GB", Precision::kBf16), 990e12);
  EXPECT_DOUBLE_EQ(datasheetPeakFlopsPerS("NVIDIA A100-SXM4-80GB", Precision::kTf32), 156e12);
  EXPECT_DOUBLE_EQ(datasheetPeakFlopsPerS("NVIDIA GeForce GTX 1080", Precision::kFp32), 0);
}

TEST(CudaOptionsTest, PrecisionAndAttentionNamesRoundTripAndUnknownNamesListTheChoices) {
  for (Precision p : {Precision::kFp32, Precision::kTf32, Precision::kBf16}) {
    auto parsed = parsePrecision(precisionName(p));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, p);
  }
  for (AttentionKind a : {AttentionKind::kNaive, AttentionKind::kFused}) {
    auto parsed = parseAttention(attentionName(a));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, a);
  }
  auto bad = parsePrecision("fp16");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message(), "unknown precision 'fp16' (fp32, tf32 or bf16)");
  auto bad_attention = parseAttention("flash");
  ASSERT_FALSE(bad_attention.ok());
  EXPECT_EQ(bad_attention.error().message(), "unknown attention 'flash' (naive or fused)");
}

TEST(CudaBackendCreateTest, FailsWithTheProbesErrorWhereThereIsNoDevice) {
  auto probe = probeCudaDevice(0, Precision::kFp32);
  auto backend = CudaBackend::create(CudaOptions{});
  if (probe.ok()) {
    ASSERT_TRUE(backend.ok()) << backend.error().message();
    EXPECT_STREQ((*backend)->name(), "cuda");
    return;
  }
  EXPECT_EQ(probe.error().message().rfind("no CUDA device: ", 0), 0u) << probe.error().message();
  ASSERT_FALSE(backend.ok());
  EXPECT_EQ(backend.error().message(), probe.error().message());
  auto missing = probeCudaDevice(-1, Precision::kFp32);
  EXPECT_FALSE(missing.ok());
}

}  // namespace
}  // namespace damscope::gpt2
