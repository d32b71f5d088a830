// Softmax + cross-entropy on the GPU, math in ops/crossentropy.h:
//   forward   p = softmax(logits[0..V)) per row, padding V..Vp set to 0,
//             loss = max + log(sum exp(l - max)) - l[target]
//   backward  dlogits = (p - onehot(target)) dloss, padding 0
// One block per row for the forward (the row's max and sum are block
// reductions, as llm.c train_gpt2.cu's fused classifier does over the
// vocabulary); the backward is elementwise.
#include <cuda_runtime.h>

#include "reference_workloads/gpt2/cuda/kernels.h"

namespace damscope::gpt2::cuda {
namespace {

constexpr int kThreads = 256;
constexpr int kWarp = 32;

// Reduces v over the block with op (max or +); every thread gets the result.
template <bool kMax>
__device__ float blockReduce(float v, float* scratch /* kThreads / kWarp floats */) {
  for (int offset = kWarp / 2; offset > 0; offset /= 2) {
    const float other = __shfl_xor_sync(0xffffffffu, v, offset);
    v = kMax ? fmaxf(v, other) : v + other;
  }
  const int warp = threadIdx.x / kWarp, lane = threadIdx.x % kWarp;
  __syncthreads();  // scratch may still be read from a previous reduction
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  float r = scratch[0];
  for (int w = 1; w < kThreads / kWarp; ++w) r = kMax ? fmaxf(r, scratch[w]) : r + scratch[w];
  return r;
}

__global__ void crossentropyForwardKernel(float* losses, float* probs, const float* logits,
                                          const int32_t* targets, int V, int Vp) {
  __shared__ float scratch[kThreads / kWarp];
  const size_t row = blockIdx.x;
  const float* l = logits + row * Vp;
  float* p = probs + row * Vp;
  float max = -INFINITY;
  for (int i = threadIdx.x; i < V; i += kThreads) max = fmaxf(max, l[i]);
  max = blockReduce<true>(max, scratch);
  float sum = 0.0f;
  for (int i = threadIdx.x; i < V; i += kThreads) {
    const float e = expf(l[i] - max);
    p[i] = e;
    sum += e;
  }
  sum = blockReduce<false>(sum, scratch);
  const float inv = 1.0f / sum;
  for (int i = threadIdx.x; i < V; i += kThreads) p[i] *= inv;
  for (int i = V + threadIdx.x; i < Vp; i += kThreads) p[i] = 0.0f;
  if (threadIdx.x == 0) losses[row] = max + logf(sum) - l[targets[row]];
}

__global__ void crossentropyBackwardKernel(float* dlogits, const float* probs,
                                           const int32_t* targets, float dloss, int V, int Vp,
                                           size_t n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const size_t row = i / Vp;
  const int col = static_cast<int>(i % Vp);
  if (col >= V) {
    dlogits[i] = 0.0f;
    return;
  }
  const float onehot = col == targets[row] ? 1.0f : 0.0f;
  dlogits[i] = (probs[i] - onehot) * dloss;
}

}  // namespace

cudaError_t crossentropyForward(float* losses, float* probs, const float* logits,
                                const int32_t* targets, int rows, int V, int Vp,
                                cudaStream_t stream) {
  if (rows == 0) return cudaSuccess;
  crossentropyForwardKernel<<<rows, kThreads, 0, stream>>>(losses, probs, logits, targets, V, Vp);
  return cudaGetLastError();
}

cudaError_t crossentropyBackward(float* dlogits, const float* probs, const int32_t* targets,
                                 float dloss, int rows, int V, int Vp, cudaStream_t stream) {
  const size_t n = size_t(rows) * Vp;
  if (n == 0) return cudaSuccess;
  const unsigned blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
  crossentropyBackwardKernel<<<blocks, kThreads, 0, stream>>>(dlogits, probs, targets, dloss, V, Vp,
                                                              n);
  return cudaGetLastError();
}

}  // namespace damscope::gpt2::cuda
