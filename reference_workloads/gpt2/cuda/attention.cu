// The naive attention's own kernels on the GPU; its four GEMMs per direction
// run in cuBLASLt between them (precision_gemm.h). As llm.c train_gpt2.cu's
// attention_forward (Karpathy), written anew, math in ops/attention.h:
//   forward   q, k, v (B, NH, T, hs) = permute(qkv)
//             preatt = q k^T / sqrt(hs)          (batched GEMM, T x T per head)
//             att    = causal softmax(preatt)    (this file; 0 past the diagonal)
//             y      = att v                     (batched GEMM)
//             out (B, T, C) = unpermute(y)
//   backward  dy = permute(dout); datt = dy v^T; dv = att^T dy  (GEMMs)
//             dpreatt = att (datt - sum_j att_j datt_j) / sqrt(hs)   (this file)
//             dq = dpreatt k; dk = dpreatt^T q  (GEMMs); dqkv = unpermute(dq, dk, dv)
// The whole T x T rows are written (zeros past the diagonal) because the
// GEMMs that read them run over full rows.
#include <cuda_runtime.h>

#include "reference_workloads/gpt2/cuda/kernels.h"

namespace damscope::gpt2::cuda {
namespace {

constexpr int kThreads = 256;
constexpr int kWarp = 32;
constexpr int kRowsPerBlock = kThreads / kWarp;  // one warp per softmax row

unsigned blocksFor(size_t n) {
  return static_cast<unsigned>((n + kThreads - 1) / kThreads);
}

// Element i = ((b NH + h) T + t) hs + d of a (B, NH, T, hs) tensor is
// element (b T + t) C + h hs + d of the (B, T, C) one.
__device__ size_t btcOffset(size_t i, int T, int C, int NH) {
  const int hs = C / NH;
  const int d = static_cast<int>(i % hs);
  const size_t rest = i / hs;
  const int t = static_cast<int>(rest % T);
  const size_t bh = rest / T;
  const int h = static_cast<int>(bh % NH);
  const size_t b = bh / NH;
  return (b * T + t) * C + size_t(h) * hs + d;
}

__global__ void permuteQkvKernel(float* q, float* k, float* v, const float* qkv, int T, int C,
                                 int NH, size_t n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  // (b T + t) C + c in (B, T, C) is (b T + t) 3C + c in (B, T, 3C) plus 0, C, 2C.
  const size_t btc = btcOffset(i, T, C, NH);
  const size_t row = btc / C, col = btc % C;
  const size_t at = row * 3 * C + col;
  q[i] = qkv[at];
  k[i] = qkv[at + C];
  v[i] = qkv[at + 2 * C];
}

__global__ void unpermuteQkvKernel(float* dqkv, const float* dq, const float* dk, const float* dv,
                                   int T, int C, int NH, size_t n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const size_t btc = btcOffset(i, T, C, NH);
  const size_t row = btc / C, col = btc % C;
  const size_t at = row * 3 * C + col;
  dqkv[at] = dq[i];
  dqkv[at + C] = dk[i];
  dqkv[at + 2 * C] = dv[i];
}

__global__ void unpermuteHeadsKernel(float* out, const float* y, int T, int C, int NH, size_t n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[btcOffset(i, T, C, NH)] = y[i];
}

__global__ void permuteHeadsKernel(float* dy, const float* dout, int T, int C, int NH, size_t n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) dy[i] = dout[btcOffset(i, T, C, NH)];
}

__device__ float warpMax(float v) {
  for (int o = kWarp / 2; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}
__device__ float warpSum(float v) {
  for (int o = kWarp / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

// Row r of the (B NH T, T) matrices is query t = r mod T: entries 0..t.
__global__ void causalSoftmaxForwardKernel(float* att, const float* preatt, long rows, int T) {
  const long r = long(blockIdx.x) * kRowsPerBlock + threadIdx.x / kWarp;
  const int lane = threadIdx.x % kWarp;
  if (r >= rows) return;
  const int t = static_cast<int>(r % T);
  const float* in = preatt + size_t(r) * T;
  float* p = att + size_t(r) * T;
  float max = -INFINITY;
  for (int s = lane; s <= t; s += kWarp) max = fmaxf(max, in[s]);
  max = warpMax(max);
  float sum = 0.0f;
  for (int s = lane; s <= t; s += kWarp) {
    const float e = expf(in[s] - max);
    p[s] = e;
    sum += e;
  }
  const float inv = 1.0f / warpSum(sum);
  for (int s = lane; s < T; s += kWarp) p[s] = s <= t ? p[s] * inv : 0.0f;
}

__global__ void causalSoftmaxBackwardKernel(float* dpreatt, const float* att, const float* datt,
                                            long rows, int T, float scale) {
  const long r = long(blockIdx.x) * kRowsPerBlock + threadIdx.x / kWarp;
  const int lane = threadIdx.x % kWarp;
  if (r >= rows) return;
  const int t = static_cast<int>(r % T);
  const float* p = att + size_t(r) * T;
  const float* da = datt + size_t(r) * T;
  float* dp = dpreatt + size_t(r) * T;
  float dot = 0.0f;
  for (int s = lane; s <= t; s += kWarp) dot += p[s] * da[s];
  dot = warpSum(dot);
  for (int s = lane; s < T; s += kWarp) dp[s] = s <= t ? p[s] * (da[s] - dot) * scale : 0.0f;
}

}  // namespace

cudaError_t permuteQkv(float* q, float* k, float* v, const float* qkv, int B, int T, int C, int NH,
                       cudaStream_t stream) {
  const size_t n = size_t(B) * T * C;
  if (n == 0) return cudaSuccess;
  permuteQkvKernel<<<blocksFor(n), kThreads, 0, stream>>>(q, k, v, qkv, T, C, NH, n);
  return cudaGetLastError();
}

cudaError_t unpermuteQkv(float* dqkv, const float* dq, const float* dk, const float* dv, int B,
                         int T, int C, int NH, cudaStream_t stream) {
  const size_t n = size_t(B) * T * C;
  if (n == 0) return cudaSuccess;
  unpermuteQkvKernel<<<blocksFor(n), kThreads, 0, stream>>>(dqkv, dq, dk, dv, T, C, NH, n);
  return cudaGetLastError();
}

cudaError_t unpermuteHeads(float* out, const float* y, int B, int T, int C, int NH,
                           cudaStream_t stream) {
  const size_t n = size_t(B) * T * C;
  if (n == 0) return cudaSuccess;
  unpermuteHeadsKernel<<<blocksFor(n), kThreads, 0, stream>>>(out, y, T, C, NH, n);
  return cudaGetLastError();
}

cudaError_t permuteHeads(float* dy, const float* dout, int B, int T, int C, int NH,
                         cudaStream_t stream) {
  const size_t n = size_t(B) * T * C;
  if (n == 0) return cudaSuccess;
  permuteHeadsKernel<<<blocksFor(n), kThreads, 0, stream>>>(dy, dout, T, C, NH, n);
  return cudaGetLastError();
}

cudaError_t causalSoftmaxForward(float* att, const float* preatt, long rows, int T,
                                 cudaStream_t stream) {
  if (rows == 0) return cudaSuccess;
  const unsigned blocks = static_cast<unsigned>((rows + kRowsPerBlock - 1) / kRowsPerBlock);
  causalSoftmaxForwardKernel<<<blocks, kThreads, 0, stream>>>(att, preatt, rows, T);
  return cudaGetLastError();
}

cudaError_t causalSoftmaxBackward(float* dpreatt, const float* att, const float* datt, long rows,
                                  int T, float scale, cudaStream_t stream) {
  if (rows == 0) return cudaSuccess;
  const unsigned blocks = static_cast<unsigned>((rows + kRowsPerBlock - 1) / kRowsPerBlock);
  causalSoftmaxBackwardKernel<<<blocks, kThreads, 0, stream>>>(dpreatt, att, datt, rows, T, scale);
  return cudaGetLastError();
}

}  // namespace damscope::gpt2::cuda
