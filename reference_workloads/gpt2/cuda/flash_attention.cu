// Fused causal attention on the GPU, FlashAttention-2 style (Dao, "Flash-
// Attention-2: Faster Attention with Better Parallelism and Work
// Partitioning", 2023, algorithms 1 and 2), fp32, nothing T x T in global
// memory. The per-tile math (online softmax, causal tile bounds, tile
// sizes) is flash_tile.h's, which the host reference of the tests walks too.
//
// Layout: head (b, h) of qkv (B, T, 3C) has q row t at (b T + t) 3C + h hs,
// k at + C, v at + 2C. One block of kThreads per (query or key tile, head);
// tiles of `tile` rows (flash_tile.h: the largest of 64..8 whose shared
// memory fits in 48 KiB, so no opt-in is needed); rows of hs-wide tiles
// padded to hs + 1 floats (bank-conflict free column reads).
//
// Forward (per query tile): Q in shared memory; for each key tile it can see
// (flash::keyTilesSeenBy), load K, V; S = Q K^T / sqrt(hs) with the causal
// mask; one thread per row raises the row's max, turns S into unnormalised
// weights and its sum (flash::raiseMax, flash::addScore); O = alpha O + P V.
// At the end out = O / l and lse = m + log l, kept in the first B NH T floats
// of the model's `att` buffer for the backward.
//
// Backward: D_i = dO_i . O_i first, by the forward kernel run again in its
// delta mode (the Backend interface hands the backward qkv but not `out`, so
// O is recomputed: one more forward's FLOPs). Then two kernels that each
// recompute P = exp(S - lse) tile by tile: per key tile, dV = sum P^T dO and
// dK = sum dS^T Q / sqrt(hs) over the query tiles that see it; per query
// tile, dQ = sum dS K / sqrt(hs) over the key tiles it sees. Splitting dQ
// from dK/dV costs a second recomputation of S and P but needs no atomics,
// so the result does not depend on scheduling (FlashAttention-2 section 3.2
// discusses the atomic variant).
#include <cuda_runtime.h>

#include "reference_workloads/gpt2/cuda/flash_tile.h"
#include "reference_workloads/gpt2/cuda/kernels.h"

namespace damscope::gpt2::cuda {
namespace {

constexpr int kThreads = 128;

// A head's rows of q, k, v (in qkv) or of out, dout.
struct HeadRows {
  const float* base;  // row 0 of the slice
  size_t stride;      // floats between rows (3C for qkv, C for out/dout)
};

// dst (tile, hs + 1) = rows row0.. of src, zeros past T.
__device__ void loadTile(float* dst, HeadRows src, int row0, int T, int tile, int hs) {
  const int ld = hs + 1;
  for (int idx = threadIdx.x; idx < tile * hs; idx += kThreads) {
    const int r = idx / hs, d = idx % hs;
    const int t = row0 + r;
    dst[r * ld + d] = t < T ? src.base[size_t(t) * src.stride + d] : 0.0f;
  }
}

__device__ void zeroTile(float* dst, int tile, int hs) {
  for (int idx = threadIdx.x; idx < tile * (hs + 1); idx += kThreads) dst[idx] = 0.0f;
}

// rows row0.. of dst (those < T) = src (tile, hs + 1)
__device__ void storeTile(float* dst, size_t stride, const float* src, int row0, int T, int tile,
                          int hs) {
  const int ld = hs + 1;
  for (int idx = threadIdx.x; idx < tile * hs; idx += kThreads) {
    const int r = idx / hs, d = idx % hs;
    const int t = row0 + r;
    if (t < T) dst[size_t(t) * stride + d] = src[r * ld + d];
  }
}

__device__ float rowDot(const float* a, const float* b, int hs) {
  float sum = 0.0f;
  for (int d = 0; d < hs; ++d) sum += a[d] * b[d];
  return sum;
}

// Forward over one query tile. delta == nullptr: writes out and lse.
// Otherwise (the backward's first pass): writes delta[t] = dout_t . O_t and
// nothing else.
__global__ void fusedAttentionForwardKernel(float* out, float* lse, float* delta, const float* dout,
                                            const float* qkv, int T, int C, int NH, int tile) {
  extern __shared__ float shared[];
  const int hs = C / NH, ld = hs + 1;
  float* Qs = shared;
  float* Ks = Qs + tile * ld;
  float* Vs = Ks + tile * ld;
  float* Os = Vs + tile * ld;
  float* S = Os + tile * ld;
  float* row_factor = S + tile * tile;

  const int bh = blockIdx.y, b = bh / NH, h = bh % NH;
  const int q_tile = blockIdx.x, q0 = q_tile * tile;
  const size_t C3 = size_t(3) * C;
  const float* head = qkv + size_t(b) * T * C3 + size_t(h) * hs;
  const float scale = rsqrtf(static_cast<float>(hs));

  loadTile(Qs, {head, C3}, q0, T, tile, hs);
  zeroTile(Os, tile, hs);
  flash::RowState row;  // row threadIdx.x's, for threadIdx.x < tile
  const int my_query = q0 + threadIdx.x;

  for (int k_tile = 0; k_tile < flash::keyTilesSeenBy(q_tile); ++k_tile) {
    const int k0 = k_tile * tile;
    __syncthreads();  // the previous tile's K, V and S are no longer read
    loadTile(Ks, {head + C, C3}, k0, T, tile, hs);
    loadTile(Vs, {head + 2 * C, C3}, k0, T, tile, hs);
    __syncthreads();
    for (int idx = threadIdx.x; idx < tile * tile; idx += kThreads) {
      const int r = idx / tile, c = idx % tile;
      const int tq = q0 + r, tk = k0 + c;
      S[idx] = tq < T && tk < T && flash::visible(tq, tk)
                   ? rowDot(Qs + r * ld, Ks + c * ld, hs) * scale
                   : -INFINITY;
    }
    __syncthreads();
    if (threadIdx.x < tile) {
      float* s = S + threadIdx.x * tile;
      float tile_max = -INFINITY;
      for (int c = 0; c < tile; ++c) tile_max = fmaxf(tile_max, s[c]);
      row_factor[threadIdx.x] = flash::raiseMax(row, tile_max);
      for (int c = 0; c < tile; ++c) s[c] = s[c] == -INFINITY ? 0.0f : flash::addScore(row, s[c]);
    }
    __syncthreads();
    for (int idx = threadIdx.x; idx < tile * hs; idx += kThreads) {
      const int r = idx / hs, d = idx % hs;
      const float* p = S + r * tile;
      float acc = Os[r * ld + d] * row_factor[r];
      for (int c = 0; c < tile; ++c) acc += p[c] * Vs[c * ld + d];
      Os[r * ld + d] = acc;
    }
  }
  __syncthreads();
  if (threadIdx.x < tile) {
    row_factor[threadIdx.x] = row.sum > 0.0f ? 1.0f / row.sum : 0.0f;
    if (delta == nullptr && my_query < T) lse[size_t(bh) * T + my_query] = flash::logSumExp(row);
  }
  __syncthreads();
  if (delta == nullptr) {
    float* out_head = out + size_t(b) * T * C + size_t(h) * hs;
    for (int idx = threadIdx.x; idx < tile * hs; idx += kThreads) {
      const int r = idx / hs, d = idx % hs;
      const int t = q0 + r;
      if (t < T) out_head[size_t(t) * C + d] = Os[r * ld + d] * row_factor[r];
    }
    return;
  }
  if (threadIdx.x < tile && my_query < T) {
    const float* g = dout + (size_t(b) * T + my_query) * C + size_t(h) * hs;
    const float* o = Os + threadIdx.x * ld;
    float sum = 0.0f;
    for (int d = 0; d < hs; ++d) sum += g[d] * o[d];
    delta[size_t(bh) * T + my_query] = sum * row_factor[threadIdx.x];
  }
}

// P and dS of a (query tile, key tile) pair, into P and dS (tile, tile):
// p = exp(q.k scale - lse), dS = p (dO.v - D); 0 where masked.
__device__ void probabilitiesAndScoreGrads(float* P, float* dS, const float* Qs, const float* dOs,
                                           const float* Ks, const float* Vs, const float* lse_s,
                                           const float* delta_s, int q0, int k0, int T, int tile,
                                           int hs, float scale) {
  const int ld = hs + 1;
  for (int idx = threadIdx.x; idx < tile * tile; idx += kThreads) {
    const int r = idx / tile, c = idx % tile;
    const int tq = q0 + r, tk = k0 + c;
    float p = 0.0f, ds = 0.0f;
    if (tq < T && tk < T && flash::visible(tq, tk)) {
      p = flash::probability(rowDot(Qs + r * ld, Ks + c * ld, hs) * scale, lse_s[r]);
      ds = p * (rowDot(dOs + r * ld, Vs + c * ld, hs) - delta_s[r]);
    }
    if (P != nullptr) P[idx] = p;
    dS[idx] = ds;
  }
}

__device__ void loadRowVector(float* dst, const float* src, int row0, int T, int tile) {
  for (int r = threadIdx.x; r < tile; r += kThreads) dst[r] = row0 + r < T ? src[row0 + r] : 0.0f;
}

// dK, dV of one key tile, over the query tiles that see it.
__global__ void fusedAttentionKeyValueGradKernel(float* dqkv, const float* dout, const float* qkv,
                                                 const float* lse, const float* delta, int T, int C,
                                                 int NH, int tile) {
  extern __shared__ float shared[];
  const int hs = C / NH, ld = hs + 1;
  float* Ks = shared;
  float* Vs = Ks + tile * ld;
  float* dKs = Vs + tile * ld;
  float* dVs = dKs + tile * ld;
  float* Qs = dVs + tile * ld;
  float* dOs = Qs + tile * ld;
  float* P = dOs + tile * ld;
  float* dS = P + tile * tile;
  float* lse_s = dS + tile * tile;
  float* delta_s = lse_s + tile;

  const int bh = blockIdx.y, b = bh / NH, h = bh % NH;
  const int k_tile = blockIdx.x, k0 = k_tile * tile;
  const size_t C3 = size_t(3) * C;
  const size_t head_offset = size_t(b) * T * C3 + size_t(h) * hs;
  const float* head = qkv + head_offset;
  const float* dout_head = dout + size_t(b) * T * C + size_t(h) * hs;
  const float scale = rsqrtf(static_cast<float>(hs));

  loadTile(Ks, {head + C, C3}, k0, T, tile, hs);
  loadTile(Vs, {head + 2 * C, C3}, k0, T, tile, hs);
  zeroTile(dKs, tile, hs);
  zeroTile(dVs, tile, hs);
  const int q_tiles = flash::tileCount(T, tile);
  for (int q_tile = flash::firstQueryTileSeeing(k_tile); q_tile < q_tiles; ++q_tile) {
    const int q0 = q_tile * tile;
    __syncthreads();
    loadTile(Qs, {head, C3}, q0, T, tile, hs);
    loadTile(dOs, {dout_head, size_t(C)}, q0, T, tile, hs);
    loadRowVector(lse_s, lse + size_t(bh) * T, q0, T, tile);
    loadRowVector(delta_s, delta + size_t(bh) * T, q0, T, tile);
    __syncthreads();
    probabilitiesAndScoreGrads(P, dS, Qs, dOs, Ks, Vs, lse_s, delta_s, q0, k0, T, tile, hs, scale);
    __syncthreads();
    for (int idx = threadIdx.x; idx < tile * hs; idx += kThreads) {
      const int c = idx / hs, d = idx % hs;
      float dv = 0.0f, dk = 0.0f;
      for (int r = 0; r < tile; ++r) {
        dv += P[r * tile + c] * dOs[r * ld + d];
        dk += dS[r * tile + c] * Qs[r * ld + d];
      }
      dVs[c * ld + d] += dv;
      dKs[c * ld + d] += dk * scale;
    }
  }
  __syncthreads();
  storeTile(dqkv + head_offset + C, C3, dKs, k0, T, tile, hs);
  storeTile(dqkv + head_offset + 2 * C, C3, dVs, k0, T, tile, hs);
}

// dQ of one query tile, over the key tiles it sees.
__global__ void fusedAttentionQueryGradKernel(float* dqkv, const float* dout, const float* qkv,
                                              const float* lse, const float* delta, int T, int C,
                                              int NH, int tile) {
  extern __shared__ float shared[];
  const int hs = C / NH, ld = hs + 1;
  float* Qs = shared;
  float* dOs = Qs + tile * ld;
  float* dQs = dOs + tile * ld;
  float* Ks = dQs + tile * ld;
  float* Vs = Ks + tile * ld;
  float* dS = Vs + tile * ld;
  float* lse_s = dS + tile * tile;
  float* delta_s = lse_s + tile;

  const int bh = blockIdx.y, b = bh / NH, h = bh % NH;
  const int q_tile = blockIdx.x, q0 = q_tile * tile;
  const size_t C3 = size_t(3) * C;
  const size_t head_offset = size_t(b) * T * C3 + size_t(h) * hs;
  const float* head = qkv + head_offset;
  const float scale = rsqrtf(static_cast<float>(hs));

  loadTile(Qs, {head, C3}, q0, T, tile, hs);
  loadTile(dOs, {dout + size_t(b) * T * C + size_t(h) * hs, size_t(C)}, q0, T, tile, hs);
  loadRowVector(lse_s, lse + size_t(bh) * T, q0, T, tile);
  loadRowVector(delta_s, delta + size_t(bh) * T, q0, T, tile);
  zeroTile(dQs, tile, hs);
  for (int k_tile = 0; k_tile < flash::keyTilesSeenBy(q_tile); ++k_tile) {
    const int k0 = k_tile * tile;
    __syncthreads();
    loadTile(Ks, {head + C, C3}, k0, T, tile, hs);
    loadTile(Vs, {head + 2 * C, C3}, k0, T, tile, hs);
    __syncthreads();
    probabilitiesAndScoreGrads(nullptr, dS, Qs, dOs, Ks, Vs, lse_s, delta_s, q0, k0, T, tile, hs,
                               scale);
    __syncthreads();
    for (int idx = threadIdx.x; idx < tile * hs; idx += kThreads) {
      const int r = idx / hs, d = idx % hs;
      const float* ds = dS + r * tile;
      float acc = 0.0f;
      for (int c = 0; c < tile; ++c) acc += ds[c] * Ks[c * ld + d];
      dQs[r * ld + d] += acc * scale;
    }
  }
  __syncthreads();
  storeTile(dqkv + head_offset, C3, dQs, q0, T, tile, hs);
}

dim3 gridFor(int T, int tile, int B, int NH) {
  return dim3(static_cast<unsigned>(flash::tileCount(T, tile)), static_cast<unsigned>(B * NH));
}

}  // namespace

bool fusedAttentionSupports(int hs) {
  return flash::forwardTile(hs) > 0 && flash::backwardTile(hs) > 0;
}

cudaError_t fusedAttentionForward(float* out, float* lse, const float* qkv, int B, int T, int C,
                                  int NH, cudaStream_t stream) {
  const int hs = C / NH;
  const int tile = flash::forwardTile(hs);
  if (tile == 0) return cudaErrorInvalidValue;
  if (B * T == 0) return cudaSuccess;
  const size_t shared = flash::sharedBytes(tile, hs, flash::kForwardHsTiles,
                                           flash::kForwardSquareTiles, flash::kForwardVectors);
  fusedAttentionForwardKernel<<<gridFor(T, tile, B, NH), kThreads, shared, stream>>>(
      out, lse, nullptr, nullptr, qkv, T, C, NH, tile);
  return cudaGetLastError();
}

cudaError_t fusedAttentionBackward(float* dqkv, float* delta, const float* dout, const float* qkv,
                                   const float* lse, int B, int T, int C, int NH,
                                   cudaStream_t stream) {
  const int hs = C / NH;
  const int forward_tile = flash::forwardTile(hs), tile = flash::backwardTile(hs);
  if (forward_tile == 0 || tile == 0) return cudaErrorInvalidValue;
  if (B * T == 0) return cudaSuccess;
  const size_t forward_shared = flash::sharedBytes(
      forward_tile, hs, flash::kForwardHsTiles, flash::kForwardSquareTiles, flash::kForwardVectors);
  fusedAttentionForwardKernel<<<gridFor(T, forward_tile, B, NH), kThreads, forward_shared,
                                stream>>>(nullptr, nullptr, delta, dout, qkv, T, C, NH,
                                          forward_tile);
  const size_t shared = flash::sharedBytes(tile, hs, flash::kBackwardHsTiles,
                                           flash::kBackwardSquareTiles, flash::kBackwardVectors);
  fusedAttentionKeyValueGradKernel<<<gridFor(T, tile, B, NH), kThreads, shared, stream>>>(
      dqkv, dout, qkv, lse, delta, T, C, NH, tile);
  fusedAttentionQueryGradKernel<<<gridFor(T, tile, B, NH), kThreads, shared, stream>>>(
      dqkv, dout, qkv, lse, delta, T, C, NH, tile);
  return cudaGetLastError();
}

}  // namespace damscope::gpt2::cuda
