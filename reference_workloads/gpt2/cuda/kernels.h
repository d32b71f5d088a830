// The CUDA backend's launchers: one function per kernel (or short chain of
// kernels) of an op, defined in the .cu files beside this header, called by
// cuda_backend.cc and precision_gemm.cc. C++17 and only the CUDA runtime's C
// header, because nvcc compiles the .cu files as C++17 (CMake 3.25 knows no
// CUDA20 dialect) while the backend is C++20 from g++.
//
// Every launcher enqueues on `stream`, returns cudaGetLastError() after its
// launches (cudaSuccess or the launch's error; kernels' own faults surface
// at the next synchronisation) and does not synchronise. Pointers are device
// memory; shapes and semantics are Backend's (model/backend.h), the math in
// ops/<op>.h. Sizes are counts of elements unless named _bytes.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace damscope::gpt2::cuda {

// elementwise.cu ------------------------------------------------------------
cudaError_t embeddingForward(float* out, const int32_t* tokens, const float* wte, const float* wpe,
                             int B, int T, int C, cudaStream_t stream);
// dwte += (atomics: a token repeats), dwpe = (one thread per (t, c), summing b in order)
cudaError_t embeddingBackward(float* dwte, float* dwpe, const float* dout, const int32_t* tokens,
                              int B, int T, int C, cudaStream_t stream);
cudaError_t geluForward(float* out, const float* inp, size_t n, cudaStream_t stream);
cudaError_t geluBackward(float* dinp, const float* inp, const float* dout, size_t n,
                         cudaStream_t stream);
cudaError_t residualForward(float* out, const float* a, const float* b, size_t n,
                            cudaStream_t stream);
cudaError_t residualBackward(float* da, float* db, const float* dout, size_t n,
                             cudaStream_t stream);
// out[r, :] += bias, for the GEMMs whose epilogue cannot add it
cudaError_t addBias(float* out, const float* bias, int rows, int OC, cudaStream_t stream);
// Column sums over many rows run in two passes, so that every SM has work:
// blocks of kColumnChunkRows rows write one partial sum per column each,
// then one thread per column adds its partials in chunk order (a fixed
// order: the result does not depend on scheduling). A launcher that sums
// columns takes `partials`, scratch of columnSumPartials(rows, cols) floats
// per sum.
constexpr int kColumnChunkRows = 256;
inline int columnChunks(int rows) {
  return rows > 0 ? (rows + kColumnChunkRows - 1) / kColumnChunkRows : 1;
}
inline size_t columnSumPartials(int rows, int cols) {
  return size_t(columnChunks(rows)) * size_t(cols);
}
// out[c] = sum of partials[k * cols + c] over the chunks k in order (the second pass)
cudaError_t sumColumnChunks(float* out, const float* partials, int rows, int cols,
                            cudaStream_t stream);
// dbias (OC) = column sums of dout (rows, OC); partials: columnSumPartials(rows, OC)
cudaError_t biasColumnSum(float* dbias, const float* dout, int rows, int OC, float* partials,
                          cudaStream_t stream);
// dst = bf16(src), round to nearest even; dst is __nv_bfloat16 storage
cudaError_t castToBf16(void* dst, const float* src, size_t n, cudaStream_t stream);

// layernorm.cu --------------------------------------------------------------
cudaError_t layernormForward(float* out, float* mean, float* rstd, const float* inp,
                             const float* weight, const float* bias, int rows, int C,
                             cudaStream_t stream);
cudaError_t layernormBackward(float* dinp, float* dweight, float* dbias, const float* dout,
                              const float* inp, const float* weight, const float* mean,
                              const float* rstd, int rows, int C, bool accumulate, float* partials,
                              cudaStream_t stream);  // 2 columnSumPartials(rows, C)

// crossentropy.cu -----------------------------------------------------------
cudaError_t crossentropyForward(float* losses, float* probs, const float* logits,
                                const int32_t* targets, int rows, int V, int Vp,
                                cudaStream_t stream);
cudaError_t crossentropyBackward(float* dlogits, const float* probs, const int32_t* targets,
                                 float dloss, int rows, int V, int Vp, cudaStream_t stream);

// optimizer.cu --------------------------------------------------------------
// Blocks of the first pass of sumOfSquares: the size of `partials` (doubles).
constexpr int kSumOfSquaresBlocks = 256;
// *result (one double, device) = sum of src[i]^2 in double, in a fixed
// order: per-block partials, then one block adds them.
cudaError_t sumOfSquares(double* result, double* partials, const float* src, size_t n,
                         cudaStream_t stream);

// One segment of AdamW as the kernel reads it: floats [offset, offset+count)
// of the four buffers, and the first block of the launch that works on it.
struct AdamWSegmentEntry {
  size_t offset;
  size_t count;
  float weight_decay;
  int first_block;
};
// Elements one AdamW block updates; a segment takes ceil(count / this) blocks.
constexpr int kAdamWBlockElements = 2048;
// Blocks the whole table needs (the entries' first_block are filled in).
int adamwAssignBlocks(AdamWSegmentEntry* entries, int count);
struct AdamWCoefficients {
  float beta1, beta2, one_minus_beta1, one_minus_beta2;
  float m_correction, v_correction;  // 1 / (1 - beta^t)
  float lr, eps, grad_scale;
};
// One launch over every segment of `entries` (device copy of the table,
// `count` entries, `blocks` from adamwAssignBlocks).
cudaError_t adamw(float* params, const float* grads, float* m, float* v,
                  const AdamWSegmentEntry* entries, int count, int blocks,
                  const AdamWCoefficients& k, cudaStream_t stream);

// attention.cu (naive: the GEMMs between these run in cuBLASLt) -------------
// q, k, v (B, NH, T, hs) = the head slices of qkv (B, T, 3C)
cudaError_t permuteQkv(float* q, float* k, float* v, const float* qkv, int B, int T, int C, int NH,
                       cudaStream_t stream);
// dqkv (B, T, 3C) = dq, dk, dv (B, NH, T, hs) put back (written)
cudaError_t unpermuteQkv(float* dqkv, const float* dq, const float* dk, const float* dv, int B,
                         int T, int C, int NH, cudaStream_t stream);
// out (B, T, C) = y (B, NH, T, hs) with heads side by side
cudaError_t unpermuteHeads(float* out, const float* y, int B, int T, int C, int NH,
                           cudaStream_t stream);
// dy (B, NH, T, hs) = dout (B, T, C) split by head
cudaError_t permuteHeads(float* dy, const float* dout, int B, int T, int C, int NH,
                         cudaStream_t stream);
// att (rows of T) = causal softmax of preatt (the scale is already in
// preatt), entries past the diagonal 0; `rows` = B NH T
cudaError_t causalSoftmaxForward(float* att, const float* preatt, long rows, int T,
                                 cudaStream_t stream);
// dpreatt = att (datt - sum_j att_j datt_j) scale on the causal half, 0 past it
cudaError_t causalSoftmaxBackward(float* dpreatt, const float* att, const float* datt, long rows,
                                  int T, float scale, cudaStream_t stream);

// tensor_core_attention.cu (fused, --precision bf16) ------------------------
// The fused attention on tensor cores (bf16 operands, fp32 accumulation) for
// this head size; the same lse and delta as flash_attention.cu's.
constexpr int kTensorCoreHeadSize = 64;
cudaError_t tensorCoreAttentionForward(float* out, float* lse, const float* qkv, int B, int T,
                                       int C, int NH, cudaStream_t stream);
cudaError_t tensorCoreAttentionBackward(float* dqkv, float* delta, const float* dout,
                                        const float* qkv, const float* lse, int B, int T, int C,
                                        int NH, cudaStream_t stream);

// flash_attention.cu (fused) -------------------------------------------------
// False when hs has no tile that fits in shared memory (flash_tile.h).
bool fusedAttentionSupports(int hs);
// out (B, T, C) and lse (B, NH, T) from qkv (B, T, 3C)
cudaError_t fusedAttentionForward(float* out, float* lse, const float* qkv, int B, int T, int C,
                                  int NH, cudaStream_t stream);
// dqkv (B, T, 3C) written; delta (B, NH, T) scratch for D = dO . O, which is
// recomputed (the Backend interface hands the backward no `out`)
cudaError_t fusedAttentionBackward(float* dqkv, float* delta, const float* dout, const float* qkv,
                                   const float* lse, int B, int T, int C, int NH,
                                   cudaStream_t stream);

}  // namespace damscope::gpt2::cuda
