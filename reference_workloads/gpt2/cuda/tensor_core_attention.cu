// Fused causal attention on tensor cores, for --precision bf16 and a head
// size of 64 (every published GPT-2 size: 768/12, 1024/16, 1280/20, 1600/25).
// The algorithm is flash_attention.cu's (FlashAttention-2, Dao 2023,
// algorithms 1 and 2: online softmax forward keeping the per-row
// log-sum-exp, backward recomputing P = exp(S - lse), dK/dV per key tile and
// dQ per query tile without atomics); here every product runs as WMMA tiles
// (CUDA C++ Programming Guide, "Warp Matrix Functions"): bf16 operands, fp32
// accumulation. Q, K, V and dO are rounded to bf16 as they are loaded, P and
// dS as they are written; softmax, the row statistics and the outputs stay
// fp32. The same layout and lse / delta buffers as flash_attention.cu.
//
// A block of kWarps warps takes a tile of 64 rows (queries for the forward
// and dQ, keys for dK/dV) of one head; warp w owns rows 16w..16w+15 of it and
// computes its 16 x 64 products fragment by fragment. The elementwise steps
// between products (mask, softmax, dS) run on the warp's rows in shared
// memory, two lanes per row, each lane 32 columns.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include "reference_workloads/gpt2/cuda/kernels.h"

namespace damscope::gpt2::cuda {
namespace {

using namespace nvcuda;
using bf16 = __nv_bfloat16;

constexpr int kHs = kTensorCoreHeadSize;
constexpr int kTile = 64;  // rows of a block's tile, and of each tile it visits
constexpr int kWarps = 4;  // 16 rows each
constexpr int kThreads = kWarps * 32;
constexpr int kFrag = 16;  // WMMA m = n = k for bf16
// Row strides in shared memory, padded against bank conflicts; WMMA wants
// multiples of 8 bf16 / 4 floats, and every fragment start 32-byte aligned
// (16 rows of either stride are).
constexpr int kLdb = kHs + 8;    // bf16 tiles (64 columns)
constexpr int kLdf = kTile + 4;  // fp32 warp tiles (64 columns)
static_assert(kHs == kTile, "the warp tiles hold 64 columns of either kind");

constexpr size_t kTileBytes = sizeof(bf16) * kTile * kLdb;        // one 64-row bf16 tile
constexpr size_t kWarpFloatBytes = sizeof(float) * kFrag * kLdf;  // a warp's 16 x 64 fp32
constexpr size_t kWarpBf16Bytes = sizeof(bf16) * kFrag * kLdb;    // a warp's 16 x 64 bf16
constexpr size_t kRowVectorBytes = sizeof(float) * kTile;

using FragA = wmma::fragment<wmma::matrix_a, kFrag, kFrag, kFrag, bf16, wmma::row_major>;
using FragB = wmma::fragment<wmma::matrix_b, kFrag, kFrag, kFrag, bf16, wmma::row_major>;
using FragBt = wmma::fragment<wmma::matrix_b, kFrag, kFrag, kFrag, bf16, wmma::col_major>;
using FragAcc = wmma::fragment<wmma::accumulator, kFrag, kFrag, kFrag, float>;

// Shared memory: `tiles` bf16 tiles, two 64-float row vectors, then per warp
// two fp32 tiles (scores or probabilities; a product's result) and one bf16
// tile (P or dS as the next product's operand).
struct Shared {
  bf16* tile[4] = {};  // the first `tiles`
  float* row_a;        // lse of the tile's queries (backward)
  float* row_b;        // delta of the tile's queries (backward)
  float* f0;           // this warp's 16 x kLdf
  float* f1;
  bf16* p;  // this warp's 16 x kLdb

  __device__ Shared(unsigned char* base, int tiles) {
    for (int i = 0; i < tiles; ++i) tile[i] = reinterpret_cast<bf16*>(base + kTileBytes * i);
    unsigned char* next = base + kTileBytes * tiles;
    row_a = reinterpret_cast<float*>(next);
    row_b = row_a + kTile;
    next += 2 * kRowVectorBytes;
    const int warp = threadIdx.x / 32;
    f0 = reinterpret_cast<float*>(next + warp * 2 * kWarpFloatBytes);
    f1 = reinterpret_cast<float*>(next + warp * 2 * kWarpFloatBytes + kWarpFloatBytes);
    p = reinterpret_cast<bf16*>(next + kWarps * 2 * kWarpFloatBytes + warp * kWarpBf16Bytes);
  }
};

constexpr size_t sharedBytes(int tiles) {
  return kTileBytes * tiles + 2 * kRowVectorBytes + kWarps * (2 * kWarpFloatBytes + kWarpBf16Bytes);
}

// A head's rows: row t of q (or k, v, out, dout) at base + t * stride.
struct HeadRows {
  const float* base;
  size_t stride;
};

// Where a block works: its head (blockIdx.y = b NH + h), and this lane's
// place in its warp's 16 rows (warp w owns rows 16w.. of the block's tile;
// lane l takes row l / 2 of them, columns 32 (l % 2) .. + 31).
struct Place {
  int bh, b, h;
  int warp, r, c0;
  __device__ Place(int NH)
      : bh(blockIdx.y),
        b(bh / NH),
        h(bh % NH),
        warp(threadIdx.x / 32),
        r(threadIdx.x % 32 / 2),
        c0(threadIdx.x % 2 * 32) {}
  // Row 0 of this head's slice of a (B, T, width) tensor.
  template <typename F>
  __device__ F* head(F* x, int T, size_t width) const {
    return x + size_t(b) * T * width + size_t(h) * kHs;
  }
};

// 1 / sqrt(hs), the scores' scale.
constexpr float kScale = 0.125f;
static_assert(kHs == 64, "kScale is 1 / sqrt(64)");

// dst (64 x kLdb bf16) = rows row0.. of src, zeros past T.
__device__ void loadTile(bf16* dst, HeadRows src, int row0, int T) {
  for (int idx = threadIdx.x; idx < kTile * kHs; idx += kThreads) {
    const int r = idx / kHs, d = idx % kHs, t = row0 + r;
    dst[r * kLdb + d] = __float2bfloat16_rn(t < T ? src.base[size_t(t) * src.stride + d] : 0.0f);
  }
}

// dst (16 x kLdf fp32) = a (16 x 64, rows of a bf16 tile) times b^T, where b
// is a 64-row bf16 tile read as (64 columns x 64) column-major: row j of b is
// column j of the product. A (16 x 64) . B^T (64 x 64).
__device__ void productWithTransposed(float* dst, const bf16* a, const bf16* b) {
  for (int n = 0; n < kTile / kFrag; ++n) {
    FragAcc acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < kHs / kFrag; ++k) {
      FragA fa;
      FragBt fb;
      wmma::load_matrix_sync(fa, a + k * kFrag, kLdb);
      wmma::load_matrix_sync(fb, b + n * kFrag * kLdb + k * kFrag, kLdb);
      wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(dst + n * kFrag, acc, kLdf, wmma::mem_row_major);
  }
}

// acc[n] (+)= a (16 x 64 bf16, row-major, stride kLdb) times b (64 x 64 bf16
// tile, row-major): the warp's 16 rows of a product over the tile's 64 rows.
__device__ void accumulateProduct(FragAcc (&acc)[kHs / kFrag], const bf16* a, const bf16* b) {
  for (int k = 0; k < kTile / kFrag; ++k) {
    FragA fa;
    wmma::load_matrix_sync(fa, a + k * kFrag, kLdb);
    for (int n = 0; n < kHs / kFrag; ++n) {
      FragB fb;
      wmma::load_matrix_sync(fb, b + k * kFrag * kLdb + n * kFrag, kLdb);
      wmma::mma_sync(acc[n], fa, fb, acc[n]);
    }
  }
}

__device__ void zero(FragAcc (&acc)[kHs / kFrag]) {
  for (FragAcc& f : acc) wmma::fill_fragment(f, 0.0f);
}

// Rows of a warp's accumulators to global memory: row r of the fragments is
// row row0 + r of dst (stride), times `scale`, for rows < T.
__device__ void storeRows(float* dst, size_t stride, FragAcc (&acc)[kHs / kFrag], float* staging,
                          int row0, int T, float scale) {
  for (int n = 0; n < kHs / kFrag; ++n) {
    wmma::store_matrix_sync(staging + n * kFrag, acc[n], kLdf, wmma::mem_row_major);
  }
  __syncwarp();
  const int lane = threadIdx.x % 32, r = lane / 2, c0 = (lane % 2) * 32;
  if (row0 + r < T) {
    for (int c = c0; c < c0 + 32; ++c)
      dst[size_t(row0 + r) * stride + c] = staging[r * kLdf + c] * scale;
  }
  __syncwarp();
}

// Forward over one query tile; delta == nullptr: writes out and lse;
// otherwise writes delta = dout . O per query and nothing else.
__global__ void __launch_bounds__(kThreads)
    tensorCoreAttentionForwardKernel(float* out, float* lse, float* delta, const float* dout,
                                     const float* qkv, int T, int C, int NH) {
  extern __shared__ __align__(128) unsigned char shared[];
  Shared sm(shared, 3);
  bf16 *Qs = sm.tile[0], *Ks = sm.tile[1], *Vs = sm.tile[2];
  const Place at(NH);
  const int warp = at.warp, r = at.r, c0 = at.c0;
  const int q0 = blockIdx.x * kTile;
  const size_t C3 = size_t(3) * C;
  const float* head = at.head(qkv, T, C3);
  const int query = q0 + warp * kFrag + r;
  float* S = sm.f0;  // scores, then P V
  float* O = sm.f1;  // the unnormalised output rows
  for (int c = c0; c < c0 + 32; ++c) O[r * kLdf + c] = 0.0f;
  float m = -INFINITY, l = 0.0f;

  loadTile(Qs, {head, C3}, q0, T);
  for (int k_tile = 0; k_tile <= static_cast<int>(blockIdx.x); ++k_tile) {
    const int k0 = k_tile * kTile;
    __syncthreads();  // every warp is done with the previous K, V
    loadTile(Ks, {head + C, C3}, k0, T);
    loadTile(Vs, {head + 2 * C, C3}, k0, T);
    __syncthreads();
    productWithTransposed(S, Qs + warp * kFrag * kLdb, Ks);
    __syncwarp();
    float tile_max = -INFINITY;
    for (int c = c0; c < c0 + 32; ++c) {
      const int key = k0 + c;
      const float s = key <= query && key < T ? S[r * kLdf + c] * kScale : -INFINITY;
      S[r * kLdf + c] = s;
      tile_max = fmaxf(tile_max, s);
    }
    tile_max = fmaxf(tile_max, __shfl_xor_sync(0xffffffffu, tile_max, 1));
    // Every row sees key k0 of a tile it visits (key tiles up to the
    // diagonal), so the new maximum is finite.
    const float m_new = fmaxf(m, tile_max);
    const float alpha = expf(m - m_new);  // 0 on the first tile (m = -inf)
    float sum = 0.0f;
    for (int c = c0; c < c0 + 32; ++c) {
      const float p = expf(S[r * kLdf + c] - m_new);
      sm.p[r * kLdb + c] = __float2bfloat16_rn(p);
      sum += p;
    }
    sum += __shfl_xor_sync(0xffffffffu, sum, 1);
    l = l * alpha + sum;
    m = m_new;
    __syncwarp();
    FragAcc pv[kHs / kFrag];
    zero(pv);
    accumulateProduct(pv, sm.p, Vs);
    for (int n = 0; n < kHs / kFrag; ++n) {
      wmma::store_matrix_sync(S + n * kFrag, pv[n], kLdf, wmma::mem_row_major);
    }
    __syncwarp();
    for (int c = c0; c < c0 + 32; ++c) O[r * kLdf + c] = O[r * kLdf + c] * alpha + S[r * kLdf + c];
    __syncwarp();
  }

  const float inv = 1.0f / l;
  const size_t row = size_t(query) * C;
  if (delta == nullptr) {
    if (query < T) {
      float* out_row = at.head(out, T, C) + row;
      for (int c = c0; c < c0 + 32; ++c) out_row[c] = O[r * kLdf + c] * inv;
      if (c0 == 0) lse[size_t(at.bh) * T + query] = m + logf(l);
    }
    return;
  }
  float dot = 0.0f;
  if (query < T) {
    const float* dout_row = at.head(dout, T, C) + row;
    for (int c = c0; c < c0 + 32; ++c) dot += dout_row[c] * O[r * kLdf + c] * inv;
  }
  dot += __shfl_xor_sync(0xffffffffu, dot, 1);
  if (query < T && c0 == 0) delta[size_t(at.bh) * T + query] = dot;
}

// lse and delta of the 64 queries from q0 (0 past T) into sm.row_a, row_b.
__device__ void loadRowVectors(Shared& sm, const float* lse, const float* delta, size_t bh, int q0,
                               int T) {
  for (int i = threadIdx.x; i < kTile; i += kThreads) {
    const int t = q0 + i;
    sm.row_a[i] = t < T ? lse[bh * T + t] : 0.0f;
    sm.row_b[i] = t < T ? delta[bh * T + t] : 0.0f;
  }
}

// dK, dV of one key tile, over the query tiles that see it.
__global__ void __launch_bounds__(kThreads)
    tensorCoreAttentionKeyValueGradKernel(float* dqkv, const float* dout, const float* qkv,
                                          const float* lse, const float* delta, int T, int C,
                                          int NH) {
  extern __shared__ __align__(128) unsigned char shared[];
  Shared sm(shared, 4);
  bf16 *Ks = sm.tile[0], *Vs = sm.tile[1], *Qs = sm.tile[2], *dOs = sm.tile[3];
  const Place at(NH);
  const int warp = at.warp, r = at.r, c0 = at.c0;
  const int k0 = blockIdx.x * kTile;
  const size_t C3 = size_t(3) * C;
  const float* head = at.head(qkv, T, C3);
  const float* dhead = at.head(dout, T, C);
  const int key = k0 + warp * kFrag + r;
  float* P = sm.f0;   // P^T: the warp's keys x the tile's queries
  float* dP = sm.f1;  // dP^T
  FragAcc dk[kHs / kFrag], dv[kHs / kFrag];
  zero(dk);
  zero(dv);

  loadTile(Ks, {head + C, C3}, k0, T);
  loadTile(Vs, {head + 2 * C, C3}, k0, T);
  const int q_tiles = (T + kTile - 1) / kTile;
  for (int q_tile = blockIdx.x; q_tile < q_tiles; ++q_tile) {
    const int q0 = q_tile * kTile;
    __syncthreads();
    loadTile(Qs, {head, C3}, q0, T);
    loadTile(dOs, {dhead, size_t(C)}, q0, T);
    loadRowVectors(sm, lse, delta, at.bh, q0, T);
    __syncthreads();
    productWithTransposed(P, Ks + warp * kFrag * kLdb, Qs);  // S^T = K Q^T
    __syncwarp();
    for (int c = c0; c < c0 + 32; ++c) {
      const int query = q0 + c;
      const float p = key <= query && query < T && key < T
                          ? expf(P[r * kLdf + c] * kScale - sm.row_a[c])
                          : 0.0f;
      P[r * kLdf + c] = p;
      sm.p[r * kLdb + c] = __float2bfloat16_rn(p);
    }
    __syncwarp();
    accumulateProduct(dv, sm.p, dOs);                          // dV += P^T dO
    productWithTransposed(dP, Vs + warp * kFrag * kLdb, dOs);  // dP^T = V dO^T
    __syncwarp();
    for (int c = c0; c < c0 + 32; ++c) {
      const float ds = P[r * kLdf + c] * (dP[r * kLdf + c] - sm.row_b[c]);
      sm.p[r * kLdb + c] = __float2bfloat16_rn(ds);
    }
    __syncwarp();
    accumulateProduct(dk, sm.p, Qs);  // dK += dS^T Q (scaled at the end)
  }
  const int row0 = k0 + warp * kFrag;
  float* dhead_qkv = at.head(dqkv, T, C3);
  storeRows(dhead_qkv + C, C3, dk, P, row0, T, kScale);
  storeRows(dhead_qkv + 2 * C, C3, dv, P, row0, T, 1.0f);
}

// dQ of one query tile, over the key tiles it sees.
__global__ void __launch_bounds__(kThreads)
    tensorCoreAttentionQueryGradKernel(float* dqkv, const float* dout, const float* qkv,
                                       const float* lse, const float* delta, int T, int C, int NH) {
  extern __shared__ __align__(128) unsigned char shared[];
  Shared sm(shared, 4);
  bf16 *Qs = sm.tile[0], *dOs = sm.tile[1], *Ks = sm.tile[2], *Vs = sm.tile[3];
  const Place at(NH);
  const int warp = at.warp, r = at.r, c0 = at.c0;
  const int q0 = blockIdx.x * kTile;
  const size_t C3 = size_t(3) * C;
  const float* head = at.head(qkv, T, C3);
  const float* dhead = at.head(dout, T, C);
  const int query = q0 + warp * kFrag + r;
  float* P = sm.f0;
  float* dP = sm.f1;
  FragAcc dq[kHs / kFrag];
  zero(dq);

  loadTile(Qs, {head, C3}, q0, T);
  loadTile(dOs, {dhead, size_t(C)}, q0, T);
  loadRowVectors(sm, lse, delta, at.bh, q0, T);
  __syncthreads();
  const float row_lse = sm.row_a[warp * kFrag + r], row_delta = sm.row_b[warp * kFrag + r];
  for (int k_tile = 0; k_tile <= static_cast<int>(blockIdx.x); ++k_tile) {
    const int k0 = k_tile * kTile;
    __syncthreads();
    loadTile(Ks, {head + C, C3}, k0, T);
    loadTile(Vs, {head + 2 * C, C3}, k0, T);
    __syncthreads();
    productWithTransposed(P, Qs + warp * kFrag * kLdb, Ks);    // S = Q K^T
    productWithTransposed(dP, dOs + warp * kFrag * kLdb, Vs);  // dP = dO V^T
    __syncwarp();
    for (int c = c0; c < c0 + 32; ++c) {
      const int key = k0 + c;
      const float p =
          key <= query && key < T && query < T ? expf(P[r * kLdf + c] * kScale - row_lse) : 0.0f;
      sm.p[r * kLdb + c] = __float2bfloat16_rn(p * (dP[r * kLdf + c] - row_delta));
    }
    __syncwarp();
    accumulateProduct(dq, sm.p, Ks);  // dQ += dS K (scaled at the end)
  }
  storeRows(at.head(dqkv, T, C3), C3, dq, P, q0 + warp * kFrag, T, kScale);
}

// Kernels above 48 KiB of dynamic shared memory must opt in, once per
// kernel (CUDA C++ Programming Guide, "Shared Memory" of compute
// capability 8.x and 9.x).
cudaError_t optInSharedMemory() {
  static const cudaError_t result = [] {
    cudaError_t e = cudaFuncSetAttribute(tensorCoreAttentionForwardKernel,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(sharedBytes(3)));
    if (e == cudaSuccess) {
      e = cudaFuncSetAttribute(tensorCoreAttentionKeyValueGradKernel,
                               cudaFuncAttributeMaxDynamicSharedMemorySize,
                               static_cast<int>(sharedBytes(4)));
    }
    if (e == cudaSuccess) {
      e = cudaFuncSetAttribute(tensorCoreAttentionQueryGradKernel,
                               cudaFuncAttributeMaxDynamicSharedMemorySize,
                               static_cast<int>(sharedBytes(4)));
    }
    return e;
  }();
  return result;
}

dim3 gridFor(int T, int B, int NH) {
  return dim3(static_cast<unsigned>((T + kTile - 1) / kTile), static_cast<unsigned>(B * NH));
}

}  // namespace

cudaError_t tensorCoreAttentionForward(float* out, float* lse, const float* qkv, int B, int T,
                                       int C, int NH, cudaStream_t stream) {
  if (C / NH != kHs || C % NH != 0) return cudaErrorInvalidValue;
  if (B * T == 0) return cudaSuccess;
  if (const cudaError_t e = optInSharedMemory(); e != cudaSuccess) return e;
  tensorCoreAttentionForwardKernel<<<gridFor(T, B, NH), kThreads, sharedBytes(3), stream>>>(
      out, lse, nullptr, nullptr, qkv, T, C, NH);
  return cudaGetLastError();
}

cudaError_t tensorCoreAttentionBackward(float* dqkv, float* delta, const float* dout,
                                        const float* qkv, const float* lse, int B, int T, int C,
                                        int NH, cudaStream_t stream) {
  if (C / NH != kHs || C % NH != 0) return cudaErrorInvalidValue;
  if (B * T == 0) return cudaSuccess;
  if (const cudaError_t e = optInSharedMemory(); e != cudaSuccess) return e;
  const dim3 grid = gridFor(T, B, NH);
  tensorCoreAttentionForwardKernel<<<grid, kThreads, sharedBytes(3), stream>>>(
      nullptr, nullptr, delta, dout, qkv, T, C, NH);
  tensorCoreAttentionKeyValueGradKernel<<<grid, kThreads, sharedBytes(4), stream>>>(
      dqkv, dout, qkv, lse, delta, T, C, NH);
  tensorCoreAttentionQueryGradKernel<<<grid, kThreads, sharedBytes(4), stream>>>(
      dqkv, dout, qkv, lse, delta, T, C, NH);
  return cudaGetLastError();
}

}  // namespace damscope::gpt2::cuda
