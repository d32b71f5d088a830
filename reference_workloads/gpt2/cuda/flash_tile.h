// The per-tile math of the fused attention (flash_attention.cu), shared by
// the kernels and by a host reference (tests/gpt2/cuda_math_test.cc) that
// walks the same tiles sequentially: the online-softmax update, the causal
// tile bounds and the tile sizes that fit in shared memory. C++17 and
// __host__ __device__ under nvcc, plain inline functions under g++.
//
// Online softmax (Milakov & Gimelshein, "Online normalizer calculation for
// softmax", 2018; FlashAttention-2, Dao 2023, algorithm 1): a row's scores
// s_j arrive a tile at a time. The row keeps m = max of the scores seen and
// l = sum exp(s_j - m), and its output accumulator o = sum exp(s_j - m) v_j.
// When a tile raises the max to m', the old l and o are rescaled by
// alpha = exp(m - m') before the tile's terms exp(s_j - m') are added. At
// the end out = o / l and the row's logsumexp is m + log l, from which the
// backward recomputes every probability p_j = exp(s_j - lse) exactly
// (FlashAttention-2, algorithm 2).
//
// Backward per row i (FlashAttention-2, eqs. for dS): with
// D_i = sum_j p_ij dP_ij = dO_i . O_i,
//   dV_j += p_ij dO_i,  dP_ij = dO_i . V_j,  dS_ij = p_ij (dP_ij - D_i),
//   dQ_i += dS_ij K_j / sqrt(hs),  dK_j += dS_ij Q_i / sqrt(hs).
#pragma once

#include <cmath>
#include <cstddef>

#if defined(__CUDACC__)
#define GPT2_HOST_DEVICE __host__ __device__
#else
#define GPT2_HOST_DEVICE
#endif

namespace damscope::gpt2::flash {

// One softmax row's running state.
struct RowState {
  float max = -INFINITY;
  float sum = 0.0f;
};

// Raises the row's max to include a tile whose largest score is tile_max
// and returns alpha, the factor by which the row's sum (already applied)
// and its output accumulator (the caller's) are rescaled. A tile with no
// visible score (tile_max = -inf) leaves the state and returns 1; the first
// visible tile returns 0 (there was nothing to rescale).
GPT2_HOST_DEVICE inline float raiseMax(RowState& row, float tile_max) {
  if (!(tile_max > row.max)) return 1.0f;
  const float alpha = row.max == -INFINITY ? 0.0f : expf(row.max - tile_max);
  row.sum *= alpha;
  row.max = tile_max;
  return alpha;
}

// Adds one visible score after raiseMax; returns its unnormalised weight
// exp(score - max).
GPT2_HOST_DEVICE inline float addScore(RowState& row, float score) {
  const float p = expf(score - row.max);
  row.sum += p;
  return p;
}

// log sum_j exp(s_j), the row's normaliser kept for the backward.
GPT2_HOST_DEVICE inline float logSumExp(const RowState& row) {
  return row.max + logf(row.sum);
}

// The probability of a score, recomputed from the row's logsumexp.
GPT2_HOST_DEVICE inline float probability(float score, float lse) {
  return expf(score - lse);
}

// Causal visibility: query t sees keys s <= t (both < T).
GPT2_HOST_DEVICE inline bool visible(int query, int key) {
  return key <= query;
}

// Tiles of `tile` rows over T positions (the last one may be partial).
GPT2_HOST_DEVICE inline int tileCount(int T, int tile) {
  return (T + tile - 1) / tile;
}

// Query and key tiles have the same size, so query tile q sees key tiles
// 0..q (the diagonal one partly) and key tile k is seen by query tiles
// k..tileCount-1: the loops' bounds in both kernels and the reference.
GPT2_HOST_DEVICE inline int keyTilesSeenBy(int query_tile) {
  return query_tile + 1;
}
GPT2_HOST_DEVICE inline int firstQueryTileSeeing(int key_tile) {
  return key_tile;
}

// Shared memory of a kernel that keeps `hs_tiles` tiles of (tile, hs)
// (rows padded to hs + 1 floats, so that threads reading a column of one
// hit distinct banks), `square_tiles` of (tile, tile) and `row_vectors` of
// tile floats.
GPT2_HOST_DEVICE inline size_t sharedBytes(int tile, int hs, int hs_tiles, int square_tiles,
                                           int row_vectors) {
  const size_t floats = size_t(hs_tiles) * tile * (hs + 1) + size_t(square_tiles) * tile * tile +
                        size_t(row_vectors) * tile;
  return floats * sizeof(float);
}

// Per-block shared memory available without opting in to more
// (cudaFuncAttributeMaxDynamicSharedMemorySize): 48 KiB on every GPU since
// Volta (CUDA C++ Programming Guide, "Shared Memory", compute capabilities
// table).
constexpr size_t kDefaultSharedBytes = 48 * 1024;

// The kernels' shared-memory budgets: the forward keeps Q, K, V and the
// output accumulator (4 hs-wide tiles), the scores (1 square) and the rows'
// rescale factors (1 vector; each row's max and sum live in the registers of
// the thread that owns the row); the backward keeps Q, dO, K, V and two
// gradient accumulators (6 hs-wide), P and dS (2 square) and the rows'
// logsumexp and D (2 vectors).
constexpr int kForwardHsTiles = 4, kForwardSquareTiles = 1, kForwardVectors = 1;
constexpr int kBackwardHsTiles = 6, kBackwardSquareTiles = 2, kBackwardVectors = 2;

// The largest tile of 64, 32, 16 or 8 rows whose shared memory fits in
// kDefaultSharedBytes; 0 when not even 8 fits (hs too large for the fused
// kernels). Larger tiles reuse each K/V (or Q/dO) load over more rows.
GPT2_HOST_DEVICE inline int fittingTile(int hs, int hs_tiles, int square_tiles, int row_vectors) {
  for (int tile = 64; tile >= 8; tile /= 2) {
    if (sharedBytes(tile, hs, hs_tiles, square_tiles, row_vectors) <= kDefaultSharedBytes) {
      return tile;
    }
  }
  return 0;
}
GPT2_HOST_DEVICE inline int forwardTile(int hs) {
  return fittingTile(hs, kForwardHsTiles, kForwardSquareTiles, kForwardVectors);
}
GPT2_HOST_DEVICE inline int backwardTile(int hs) {
  return fittingTile(hs, kBackwardHsTiles, kBackwardSquareTiles, kBackwardVectors);
}

}  // namespace damscope::gpt2::flash
