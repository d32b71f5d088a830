// The optimizer's two device passes: the squared global gradient norm and
// AdamW over every parameter tensor in one launch (math in ops/grad_norm.h
// and ops/adamw.h; Loshchilov & Hutter 2019, algorithm 2):
//   g = g grad_scale; m = b1 m + (1 - b1) g; v = b2 v + (1 - b2) g^2
//   p -= lr (m / (1 - b1^t) / (sqrt(v / (1 - b2^t)) + eps) + wd p)
// The parameters are fp32 and are the master weights: the bf16 GEMM path
// casts copies of them per call (precision_gemm.cc) and never writes back.
//
// The norm is summed in double as on the CPU (tens of millions of terms),
// per-block partials then one block, so the result does not depend on
// scheduling. AdamW's segments (one per parameter tensor, each with its own
// weight decay) are one launch: block b finds its segment by binary search
// over the segments' first blocks, then updates kAdamWBlockElements floats
// of it.
#include <cuda_runtime.h>

#include "reference_workloads/gpt2/cuda/kernels.h"

namespace damscope::gpt2::cuda {
namespace {

constexpr int kThreads = 256;

__global__ void sumOfSquaresPartialKernel(double* partials, const float* src, size_t n) {
  __shared__ double block[kThreads];
  double sum = 0.0;
  for (size_t i = size_t(blockIdx.x) * kThreads + threadIdx.x; i < n;
       i += size_t(gridDim.x) * kThreads) {
    const double g = src[i];
    sum += g * g;
  }
  block[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) block[threadIdx.x] += block[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) partials[blockIdx.x] = block[0];
}

// One thread adds the kSumOfSquaresBlocks partials in order.
__global__ void sumPartialsKernel(double* result, const double* partials) {
  double total = 0.0;
  for (int b = 0; b < kSumOfSquaresBlocks; ++b) total += partials[b];
  *result = total;
}

__global__ void adamwKernel(float* params, const float* grads, float* m, float* v,
                            const AdamWSegmentEntry* entries, int count, AdamWCoefficients k) {
  __shared__ int segment;
  if (threadIdx.x == 0) {
    // The last entry whose first_block <= blockIdx.x.
    int lo = 0, hi = count - 1;
    while (lo < hi) {
      const int mid = (lo + hi + 1) / 2;
      if (entries[mid].first_block <= static_cast<int>(blockIdx.x)) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    segment = lo;
  }
  __syncthreads();
  const AdamWSegmentEntry e = entries[segment];
  const size_t begin = size_t(blockIdx.x - e.first_block) * kAdamWBlockElements;
  const size_t end = begin + kAdamWBlockElements < e.count ? begin + kAdamWBlockElements : e.count;
  for (size_t j = begin + threadIdx.x; j < end; j += kThreads) {
    const size_t i = e.offset + j;
    const float g = grads[i] * k.grad_scale;
    const float mi = k.beta1 * m[i] + k.one_minus_beta1 * g;
    const float vi = k.beta2 * v[i] + k.one_minus_beta2 * (g * g);
    m[i] = mi;
    v[i] = vi;
    const float m_hat = mi * k.m_correction;
    const float v_hat = vi * k.v_correction;
    params[i] -= k.lr * (m_hat / (sqrtf(v_hat) + k.eps) + e.weight_decay * params[i]);
  }
}

}  // namespace

cudaError_t sumOfSquares(double* result, double* partials, const float* src, size_t n,
                         cudaStream_t stream) {
  sumOfSquaresPartialKernel<<<kSumOfSquaresBlocks, kThreads, 0, stream>>>(partials, src, n);
  sumPartialsKernel<<<1, 1, 0, stream>>>(result, partials);
  return cudaGetLastError();
}

int adamwAssignBlocks(AdamWSegmentEntry* entries, int count) {
  int blocks = 0;
  for (int s = 0; s < count; ++s) {
    entries[s].first_block = blocks;
    blocks += static_cast<int>((entries[s].count + kAdamWBlockElements - 1) / kAdamWBlockElements);
  }
  return blocks;
}

cudaError_t adamw(float* params, const float* grads, float* m, float* v,
                  const AdamWSegmentEntry* entries, int count, int blocks,
                  const AdamWCoefficients& k, cudaStream_t stream) {
  if (blocks == 0) return cudaSuccess;
  adamwKernel<<<blocks, kThreads, 0, stream>>>(params, grads, m, v, entries, count, k);
  return cudaGetLastError();
}

}  // namespace damscope::gpt2::cuda
