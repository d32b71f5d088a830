// Kernel categories by name: which kind of work a GPU kernel does (GEMM,
// convolution, attention, normalization, elementwise, reduction, optimizer,
// communication, memory), read from its name with a table of patterns that
// covers the libraries kernels come from: cuBLAS/cuBLASLt (volta_sgemm_*,
// ampere_*gemm*, nvjet_*, sm80_xmma_gemm_*), cuDNN (scudnn, *_engine,
// bn_fw_*), CUTLASS (cutlass::Kernel<...gemm...>), Triton/Inductor
// (triton_poi_/triton_red_/triton_per_/triton_tem_), PyTorch ATen
// (at::native::*_kernel), NCCL/RCCL (ncclKernel_*, ncclDevKernel_*),
// FlashAttention, rocBLAS/Tensile (Cijk_*) and MIOpen.
//
// Each category also says whether its time counts as compute-bound or
// memory-bound in the D·A·M scorecard. Until the roofline analysis supplies
// measured arithmetic intensity this is the category's typical side of the
// ridge point (Williams, Waterman, Patterson, "Roofline", CACM 2009): GEMM,
// convolution and attention reuse each byte many times (high FLOP/byte);
// elementwise, normalization, reduction, optimizer and copy kernels touch each
// byte about once (under a few FLOP/byte, far below the ridge of any GPU since
// Volta, which is above 10 FLOP/byte). Unrecognised kernels count as
// memory-bound for the same reason; the category table lists them as "other".
//
// A second, independent reading of the name says whether a GEMM/convolution
// ran on tensor cores or as FP32 SIMT code (volta_sgemm_*, scudnn, cuDNN
// *_engine<float>): the evidence for the mixed-precision recommendation.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "trace/string_pool.h"

namespace damscope {

#define DAMSCOPE_KERNEL_CATEGORIES(X)                \
  X(kGemm, "gemm", kCompute)                         \
  X(kConvolution, "convolution", kCompute)           \
  X(kAttention, "attention", kCompute)               \
  X(kNormalization, "normalization", kMemory)        \
  X(kElementwise, "elementwise", kMemory)            \
  X(kReduction, "reduction", kMemory)                \
  X(kOptimizer, "optimizer", kMemory)                \
  X(kCommunication, "communication", kCommunication) \
  X(kMemory, "memory", kMemory)                      \
  X(kOther, "other", kMemory)

enum class KernelBound : uint8_t { kCompute, kMemory, kCommunication };

#define DAMSCOPE_KERNEL_CATEGORY_VALUE(value, text, bound) value,
enum class KernelCategory : uint8_t { DAMSCOPE_KERNEL_CATEGORIES(DAMSCOPE_KERNEL_CATEGORY_VALUE) };
#undef DAMSCOPE_KERNEL_CATEGORY_VALUE

constexpr size_t kKernelCategoryCount = 10;

std::string_view toText(KernelCategory category);
std::string_view toText(KernelBound bound);
KernelBound boundOf(KernelCategory category);

// Arithmetic precision path of a matrix kernel, from its name.
enum class MathPath : uint8_t {
  kNotMatrix,   // not a GEMM/convolution/attention kernel
  kTensorCore,  // HMMA/IMMA/GMMA, TF32, FP16/BF16/FP8 kernels
  kFp32Simt,    // FP32 on CUDA cores: sgemm, scudnn, cuDNN <float> engines
  kUnknown,     // a matrix kernel whose name does not say
};

// The category of a kernel name. Case-insensitive; the first matching rule of
// the pattern table wins (kernel_categories.cc lists it).
KernelCategory classifyKernelName(std::string_view name);
MathPath mathPathOf(std::string_view name, KernelCategory category);

// Classifies each distinct name once: kernels repeat a few hundred names
// millions of times, so analyses look the category up by string id.
class KernelClassifier {
 public:
  // Classifies the distinct ids among `names` (a kernel table's name column).
  KernelClassifier(const StringPool& strings, const std::vector<StringId>& names);
  KernelCategory category(StringId name) const {
    return name.valid() ? categories_[static_cast<size_t>(name.value)] : KernelCategory::kOther;
  }
  MathPath mathPath(StringId name) const {
    return name.valid() ? paths_[static_cast<size_t>(name.value)] : MathPath::kNotMatrix;
  }

 private:
  std::vector<KernelCategory> categories_;
  std::vector<MathPath> paths_;
};

}  // namespace damscope
