// Layer normalisation on the GPU (Ba et al. 2016), math in ops/layernorm.h:
//   forward   mean, rstd = 1 / sqrt(var + 1e-5) per row; out = (x - mean) rstd w + b
//   backward  n = (x - mean) rstd, dn = dout w
//             dx (+)= rstd (dn - mean(dn) - n mean(dn n))
//             dw = sum_rows dout n, db = sum_rows dout
// One warp per row for the row reductions (llm.c train_gpt2.cu's
// layernorm_forward_kernel3 layout), and two-pass column sums in a fixed
// order for dw and db (kernels.h; no atomics: the result does not depend on
// scheduling).
#include <cuda_runtime.h>

#include "reference_workloads/gpt2/cuda/kernels.h"

namespace damscope::gpt2::cuda {
namespace {

constexpr float kEps = 1e-5f;  // PyTorch's LayerNorm default, as GPT-2 uses (cpu/layernorm.cc)
constexpr int kWarp = 32;
constexpr int kRowsPerBlock = 8;  // warps per block of the row kernels

__device__ float warpSum(float v) {
  for (int offset = kWarp / 2; offset > 0; offset /= 2)
    v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void layernormForwardKernel(float* out, float* mean, float* rstd, const float* inp,
                                       const float* weight, const float* bias, int rows, int C) {
  const int lane = threadIdx.x % kWarp;
  const int row = blockIdx.x * kRowsPerBlock + threadIdx.x / kWarp;
  if (row >= rows) return;
  const float* x = inp + size_t(row) * C;
  float sum = 0.0f;
  for (int c = lane; c < C; c += kWarp) sum += x[c];
  const float m = warpSum(sum) / C;
  float var = 0.0f;
  for (int c = lane; c < C; c += kWarp) {
    const float d = x[c] - m;
    var += d * d;
  }
  const float s = rsqrtf(warpSum(var) / C + kEps);
  float* o = out + size_t(row) * C;
  for (int c = lane; c < C; c += kWarp) o[c] = (x[c] - m) * s * weight[c] + bias[c];
  if (lane == 0) {
    mean[row] = m;
    rstd[row] = s;
  }
}

__global__ void layernormInputGradKernel(float* dinp, const float* dout, const float* inp,
                                         const float* weight, const float* mean, const float* rstd,
                                         int rows, int C, bool accumulate) {
  const int lane = threadIdx.x % kWarp;
  const int row = blockIdx.x * kRowsPerBlock + threadIdx.x / kWarp;
  if (row >= rows) return;
  const float* x = inp + size_t(row) * C;
  const float* g = dout + size_t(row) * C;
  const float m = mean[row], s = rstd[row];
  float dn_sum = 0.0f, dn_n_sum = 0.0f;
  for (int c = lane; c < C; c += kWarp) {
    const float n = (x[c] - m) * s;
    const float dn = weight[c] * g[c];
    dn_sum += dn;
    dn_n_sum += dn * n;
  }
  const float dn_mean = warpSum(dn_sum) / C;
  const float dn_n_mean = warpSum(dn_n_sum) / C;
  float* dx = dinp + size_t(row) * C;
  for (int c = lane; c < C; c += kWarp) {
    const float n = (x[c] - m) * s;
    const float d = (weight[c] * g[c] - dn_mean - n * dn_n_mean) * s;
    dx[c] = accumulate ? dx[c] + d : d;
  }
}

// dw, db: the first pass of two column sums (kernels.h), laid out as
// elementwise.cu's bias column sum: block (column group x, chunk y), thread
// (x, y) sums rows y, y + kRowGroups, ... of its chunk.
constexpr int kColumns = 32;
constexpr int kRowGroups = 8;

__global__ void layernormParamChunkKernel(float* partial_dweight, float* partial_dbias,
                                          const float* dout, const float* inp, const float* mean,
                                          const float* rstd, int rows, int C) {
  __shared__ float partial_w[kRowGroups][kColumns];
  __shared__ float partial_b[kRowGroups][kColumns];
  const int c = blockIdx.x * kColumns + threadIdx.x;
  const int first = blockIdx.y * kColumnChunkRows;
  const int last = min(rows, first + kColumnChunkRows);
  float w = 0.0f, b = 0.0f;
  if (c < C) {
    for (int r = first + threadIdx.y; r < last; r += kRowGroups) {
      const float g = dout[size_t(r) * C + c];
      w += g * (inp[size_t(r) * C + c] - mean[r]) * rstd[r];
      b += g;
    }
  }
  partial_w[threadIdx.y][threadIdx.x] = w;
  partial_b[threadIdx.y][threadIdx.x] = b;
  __syncthreads();
  if (threadIdx.y == 0 && c < C) {
    float tw = 0.0f, tb = 0.0f;
    for (int y = 0; y < kRowGroups; ++y) {
      tw += partial_w[y][threadIdx.x];
      tb += partial_b[y][threadIdx.x];
    }
    partial_dweight[size_t(blockIdx.y) * C + c] = tw;
    partial_dbias[size_t(blockIdx.y) * C + c] = tb;
  }
}

unsigned rowBlocks(int rows) {
  return static_cast<unsigned>((rows + kRowsPerBlock - 1) / kRowsPerBlock);
}

}  // namespace

cudaError_t layernormForward(float* out, float* mean, float* rstd, const float* inp,
                             const float* weight, const float* bias, int rows, int C,
                             cudaStream_t stream) {
  if (rows == 0) return cudaSuccess;
  layernormForwardKernel<<<rowBlocks(rows), kRowsPerBlock * kWarp, 0, stream>>>(
      out, mean, rstd, inp, weight, bias, rows, C);
  return cudaGetLastError();
}

cudaError_t layernormBackward(float* dinp, float* dweight, float* dbias, const float* dout,
                              const float* inp, const float* weight, const float* mean,
                              const float* rstd, int rows, int C, bool accumulate, float* partials,
                              cudaStream_t stream) {
  if (rows > 0) {
    layernormInputGradKernel<<<rowBlocks(rows), kRowsPerBlock * kWarp, 0, stream>>>(
        dinp, dout, inp, weight, mean, rstd, rows, C, accumulate);
  }
  if (C > 0) {
    const size_t n = columnSumPartials(rows, C);
    const dim3 grid(static_cast<unsigned>((C + kColumns - 1) / kColumns),
                    static_cast<unsigned>(columnChunks(rows)));
    layernormParamChunkKernel<<<grid, dim3(kColumns, kRowGroups), 0, stream>>>(
        partials, partials + n, dout, inp, mean, rstd, rows, C);
    if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
    if (const cudaError_t e = sumColumnChunks(dweight, partials, rows, C, stream); e != cudaSuccess)
      return e;
    return sumColumnChunks(dbias, partials + n, rows, C, stream);
  }
  return cudaGetLastError();
}

}  // namespace damscope::gpt2::cuda
