// The CUDA backend's two run-time choices, as the trainer's flags name them:
// the GEMM precision (--precision) and the attention form (--attention).
// Plain C++: the trainer's flag parsing includes it with g++, without any
// CUDA header.
#pragma once

#include <string_view>

#include "base/result.h"

namespace damscope::gpt2 {

// What the cuBLASLt GEMMs multiply in; every buffer stays fp32 and every GEMM
// accumulates in fp32 (CUBLAS_COMPUTE_32F or its TF32 variant):
//   kFp32  fp32 inputs, fp32 FMA                        (CUBLAS_COMPUTE_32F)
//   kTf32  fp32 inputs rounded to TF32 (10-bit mantissa) in the tensor cores
//          (CUBLAS_COMPUTE_32F_FAST_TF32)
//   kBf16  inputs cast to bf16 (7-bit mantissa) first, tensor cores, fp32 out
enum class Precision { kFp32, kTf32, kBf16 };

// "fp32" | "tf32" | "bf16"; anything else is an Error that lists them.
Result<Precision> parsePrecision(std::string_view text);
const char* precisionName(Precision precision);

// kNaive: three passes with the (B, NH, T, T) scores and probabilities in
// memory (ops/attention.h). kFused: tiled, online softmax, nothing T x T in
// memory (FlashAttention-2, Dao 2023; cuda/flash_tile.h).
enum class AttentionKind { kNaive, kFused };

// "naive" | "fused"; anything else is an Error that lists them.
Result<AttentionKind> parseAttention(std::string_view text);
const char* attentionName(AttentionKind kind);

}  // namespace damscope::gpt2
