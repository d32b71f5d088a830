// The CUDA backend's memory-bound ops that touch each element once or a few
// times: embedding, GELU, residual, the bias add and bias gradient of the
// linear layers, the fp32 -> bf16 cast of GEMM inputs. Kernels first, then
// their launchers (kernels.h). The math is ops/<op>.h's; the forms follow
// llm.c's train_gpt2.cu (Karpathy), written anew.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "reference_workloads/gpt2/cuda/kernels.h"

namespace damscope::gpt2::cuda {
namespace {

constexpr int kThreads = 256;

unsigned blocksFor(size_t n, int threads = kThreads) {
  return static_cast<unsigned>((n + threads - 1) / threads);
}

// out[b,t,c] = wte[tokens[b,t], c] + wpe[t, c]; one thread per element.
__global__ void embeddingForwardKernel(float* out, const int32_t* tokens, const float* wte,
                                       const float* wpe, int T, int C, size_t n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const size_t bt = i / C;
  const int c = static_cast<int>(i % C);
  const int t = static_cast<int>(bt % T);
  out[i] = wte[size_t(tokens[bt]) * C + c] + wpe[size_t(t) * C + c];
}

// dwte[tokens[b,t], c] += dout[b,t,c]: a token may occur at many positions,
// so the adds are atomic (their order, hence the last bits, varies).
__global__ void embeddingTokenGradKernel(float* dwte, const float* dout, const int32_t* tokens,
                                         int C, size_t n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const size_t bt = i / C;
  const int c = static_cast<int>(i % C);
  atomicAdd(&dwte[size_t(tokens[bt]) * C + c], dout[i]);
}

// dwpe[t, c] = sum_b dout[b,t,c], b in order; one thread per (t, c).
__global__ void embeddingPositionGradKernel(float* dwpe, const float* dout, int B, int T, int C) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const size_t tc = size_t(T) * C;
  if (i >= tc) return;
  float sum = 0.0f;
  for (int b = 0; b < B; ++b) sum += dout[size_t(b) * tc + i];
  dwpe[i] = sum;
}

// GELU, tanh approximation (Hendrycks & Gimpel 2016): s = sqrt(2/pi), c = 0.044715.
constexpr float kGeluS = 0.7978845608028654f;
constexpr float kGeluC = 0.044715f;

// out = 0.5 x (1 + tanh(s (x + c x^3)))
__global__ void geluForwardKernel(float* out, const float* inp, size_t n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float x = inp[i];
  out[i] = 0.5f * x * (1.0f + tanhf(kGeluS * (x + kGeluC * x * x * x)));
}

// dx = dout (0.5 (1 + tanh u) + 0.5 x (1 - tanh^2 u) s (1 + 3 c x^2))
__global__ void geluBackwardKernel(float* dinp, const float* inp, const float* dout, size_t n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float x = inp[i];
  const float x2 = x * x;
  const float t = tanhf(kGeluS * (x + kGeluC * x2 * x));
  const float local =
      0.5f * (1.0f + t) + 0.5f * x * (1.0f - t * t) * kGeluS * (1.0f + 3.0f * kGeluC * x2);
  dinp[i] = local * dout[i];
}

__global__ void residualForwardKernel(float* out, const float* a, const float* b, size_t n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}

__global__ void residualBackwardKernel(float* da, float* db, const float* dout, size_t n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float g = dout[i];
  da[i] = g;
  db[i] = g;
}

__global__ void addBiasKernel(float* out, const float* bias, int OC, size_t n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] += bias[i % OC];
}

// The first pass of a column sum (kernels.h): block (column group x, chunk
// y) of kColumns x kRowGroups threads; thread (x, y) sums rows y, y +
// kRowGroups, ... of its chunk in column x (a warp reads kColumns
// consecutive floats of a row: coalesced), then the kRowGroups partials are
// added in y order through shared memory.
constexpr int kColumns = 32;
constexpr int kRowGroups = 8;

__global__ void biasColumnChunkKernel(float* partials, const float* dout, int rows, int OC) {
  __shared__ float partial[kRowGroups][kColumns];
  const int col = blockIdx.x * kColumns + threadIdx.x;
  const int first = blockIdx.y * kColumnChunkRows;
  const int last = min(rows, first + kColumnChunkRows);
  float sum = 0.0f;
  if (col < OC) {
    for (int r = first + threadIdx.y; r < last; r += kRowGroups) sum += dout[size_t(r) * OC + col];
  }
  partial[threadIdx.y][threadIdx.x] = sum;
  __syncthreads();
  if (threadIdx.y == 0 && col < OC) {
    float total = 0.0f;
    for (int y = 0; y < kRowGroups; ++y) total += partial[y][threadIdx.x];
    partials[size_t(blockIdx.y) * OC + col] = total;
  }
}

__global__ void sumColumnChunksKernel(float* out, const float* partials, int chunks, int cols) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col >= cols) return;
  float total = 0.0f;
  for (int k = 0; k < chunks; ++k) total += partials[size_t(k) * cols + col];
  out[col] = total;
}

// The fp32 -> bf16 conversion of GEMM inputs ("convert": what the kernel
// does, and how profilers file ATen's casts). It reads 4 and writes 2 bytes
// per element, so it is all memory traffic: four elements per thread, one
// 16-byte load and one 8-byte store, where the source is 16-byte aligned;
// one per thread otherwise and for the tail.
__global__ void convertToBf16Kernel(__nv_bfloat16* dst, const float* src, size_t n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = __float2bfloat16_rn(src[i]);
}

__global__ void convertToBf16x4Kernel(uint2* dst, const float4* src, size_t quads) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= quads) return;
  const float4 v = src[i];
  const __nv_bfloat162 lo = __floats2bfloat162_rn(v.x, v.y);
  const __nv_bfloat162 hi = __floats2bfloat162_rn(v.z, v.w);
  uint2 packed;
  packed.x = *reinterpret_cast<const unsigned*>(&lo);
  packed.y = *reinterpret_cast<const unsigned*>(&hi);
  dst[i] = packed;
}

}  // namespace

cudaError_t embeddingForward(float* out, const int32_t* tokens, const float* wte, const float* wpe,
                             int B, int T, int C, cudaStream_t stream) {
  const size_t n = size_t(B) * T * C;
  if (n == 0) return cudaSuccess;
  embeddingForwardKernel<<<blocksFor(n), kThreads, 0, stream>>>(out, tokens, wte, wpe, T, C, n);
  return cudaGetLastError();
}

cudaError_t embeddingBackward(float* dwte, float* dwpe, const float* dout, const int32_t* tokens,
                              int B, int T, int C, cudaStream_t stream) {
  const size_t n = size_t(B) * T * C;
  if (n == 0) return cudaSuccess;
  embeddingTokenGradKernel<<<blocksFor(n), kThreads, 0, stream>>>(dwte, dout, tokens, C, n);
  embeddingPositionGradKernel<<<blocksFor(size_t(T) * C), kThreads, 0, stream>>>(dwpe, dout, B, T,
                                                                                 C);
  return cudaGetLastError();
}

cudaError_t geluForward(float* out, const float* inp, size_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  geluForwardKernel<<<blocksFor(n), kThreads, 0, stream>>>(out, inp, n);
  return cudaGetLastError();
}

cudaError_t geluBackward(float* dinp, const float* inp, const float* dout, size_t n,
                         cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  geluBackwardKernel<<<blocksFor(n), kThreads, 0, stream>>>(dinp, inp, dout, n);
  return cudaGetLastError();
}

cudaError_t residualForward(float* out, const float* a, const float* b, size_t n,
                            cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  residualForwardKernel<<<blocksFor(n), kThreads, 0, stream>>>(out, a, b, n);
  return cudaGetLastError();
}

cudaError_t residualBackward(float* da, float* db, const float* dout, size_t n,
                             cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  residualBackwardKernel<<<blocksFor(n), kThreads, 0, stream>>>(da, db, dout, n);
  return cudaGetLastError();
}

cudaError_t addBias(float* out, const float* bias, int rows, int OC, cudaStream_t stream) {
  const size_t n = size_t(rows) * OC;
  if (n == 0) return cudaSuccess;
  addBiasKernel<<<blocksFor(n), kThreads, 0, stream>>>(out, bias, OC, n);
  return cudaGetLastError();
}

cudaError_t sumColumnChunks(float* out, const float* partials, int rows, int cols,
                            cudaStream_t stream) {
  if (cols == 0) return cudaSuccess;
  sumColumnChunksKernel<<<blocksFor(cols), kThreads, 0, stream>>>(out, partials, columnChunks(rows),
                                                                  cols);
  return cudaGetLastError();
}

cudaError_t biasColumnSum(float* dbias, const float* dout, int rows, int OC, float* partials,
                          cudaStream_t stream) {
  if (OC == 0) return cudaSuccess;
  const auto chunks = static_cast<unsigned>(columnChunks(rows));
  biasColumnChunkKernel<<<dim3(blocksFor(OC, kColumns), chunks), dim3(kColumns, kRowGroups), 0,
                          stream>>>(partials, dout, rows, OC);
  return sumColumnChunks(dbias, partials, rows, OC, stream);
}

cudaError_t castToBf16(void* dst, const float* src, size_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  auto* out = static_cast<__nv_bfloat16*>(dst);
  const bool aligned =
      reinterpret_cast<uintptr_t>(src) % 16 == 0 && reinterpret_cast<uintptr_t>(dst) % 8 == 0;
  const size_t quads = aligned ? n / 4 : 0;
  if (quads > 0) {
    convertToBf16x4Kernel<<<blocksFor(quads), kThreads, 0, stream>>>(
        reinterpret_cast<uint2*>(dst), reinterpret_cast<const float4*>(src), quads);
  }
  if (const size_t done = quads * 4; done < n) {
    convertToBf16Kernel<<<blocksFor(n - done), kThreads, 0, stream>>>(out + done, src + done,
                                                                      n - done);
  }
  return cudaGetLastError();
}

}  // namespace damscope::gpt2::cuda
