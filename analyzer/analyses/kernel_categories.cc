// Kernel categories by name: see kernel_categories.h.
//
// The pattern table is ordered: specific library markers before generic
// words, because kernel names nest one inside another (a cuDNN convolution
// "implicit_convolve_sgemm" contains "gemm"; an ATen copy runs inside an
// "elementwise_kernel<...direct_copy_kernel...>"; cuBLAS's split-K reduction
// "splitKreduce_kernel" belongs to its GEMM). Examples of the names each rule
// is for come from the shared real traces (V100, A100, MI250) and from the
// libraries' published kernel naming.
#include "analyzer/analyses/kernel_categories.h"

#include <algorithm>
#include <string>

namespace damscope {
namespace {

struct Rule {
  std::string_view pattern;  // lower case; "^" prefix anchors at the start
  KernelCategory category;
};

using C = KernelCategory;

// clang-format off
constexpr Rule kRules[] = {
    // Triton/Inductor names say what the generated kernel is:
    // triton_poi_* pointwise, triton_red_*/triton_per_* (persistent) reductions,
    // triton_tem_* templates (matmul/conv).
    {"^triton_poi", C::kElementwise},
    {"^triton_red", C::kReduction},
    {"^triton_per", C::kReduction},
    {"^triton_tem", C::kGemm},
    // Collectives: NCCL (ncclKernel_AllReduce_RING_LL_Sum_float,
    // ncclDevKernel_*, ncclSymkDevKernel_*), RCCL, MSCCL, custom all-reduce.
    {"nccl", C::kCommunication},
    {"rccl", C::kCommunication},
    {"msccl", C::kCommunication},
    {"cross_device_reduce", C::kCommunication},
    {"allreduce", C::kCommunication},
    {"all_reduce", C::kCommunication},
    {"allgather", C::kCommunication},
    {"all_gather", C::kCommunication},
    {"reducescatter", C::kCommunication},
    {"reduce_scatter", C::kCommunication},
    {"alltoall", C::kCommunication},
    // Layout transforms inside cuDNN (cudnn::ops::nchwToNhwcKernel) move data.
    {"nchwtonhwc", C::kMemory},
    {"nhwctonchw", C::kMemory},
    // Optimizers: PyTorch foreach/fused (multi_tensor_apply_kernel<...AdamFunctor>),
    // apex FusedAdam/LAMB, fbgemm's fused embedding optimizers.
    {"multi_tensor_apply", C::kOptimizer},
    {"adam", C::kOptimizer},
    {"adagrad", C::kOptimizer},
    // Not "lamb": ATen names are full of "{lambda(float)#1}".
    {"lamb_stage", C::kOptimizer},
    {"lambstage", C::kOptimizer},
    {"fusedlamb", C::kOptimizer},
    {"sgd", C::kOptimizer},
    {"momentum", C::kOptimizer},
    {"rmsprop", C::kOptimizer},
    {"optimizer", C::kOptimizer},
    // Attention: FlashAttention (flash_fwd_kernel), cuDNN/CUTLASS fused MHA
    // (fmha_*), xFormers, PyTorch SDPA (mem-efficient attention).
    {"flash", C::kAttention},
    {"fmha", C::kAttention},
    {"attention", C::kAttention},
    {"attn", C::kAttention},
    {"sdpa", C::kAttention},
    // Convolution: cuDNN (volta_scudnn_*, cudnn::detail::dgrad_engine,
    // wgrad_alg0_engine, implicit_convolve_sgemm, winograd), cuDNN v8 xmma
    // (sm80_xmma_fprop_implicit_gemm_*), CUTLASS conv (ImplicitGemmConvolution),
    // MIOpen (naive_conv, miopenSp3AsmConv).
    // Type conversions ("convert_*") are elementwise casts, not convolutions.
    {"convert", C::kElementwise},
    {"convolution", C::kConvolution},
    {"convolve", C::kConvolution},
    {"conv1d", C::kConvolution},
    {"conv2d", C::kConvolution},
    {"conv3d", C::kConvolution},
    {"naive_conv", C::kConvolution},
    {"asmconv", C::kConvolution},
    {"conv_", C::kConvolution},
    {"scudnn", C::kConvolution},
    {"hcudnn", C::kConvolution},
    {"dgrad", C::kConvolution},
    {"wgrad", C::kConvolution},
    {"fprop", C::kConvolution},
    {"winograd", C::kConvolution},
    {"implicit_gemm", C::kConvolution},
    {"im2col", C::kConvolution},
    {"col2im", C::kConvolution},
    // GEMM: cuBLAS (volta_sgemm_128x64_nn, ampere_*gemm*, gemv2T_kernel,
    // splitKreduce_kernel), cuBLASLt (sm90_xmma_gemm_*, nvjet_*, epilogue
    // kernels), CUTLASS (cutlass_80_tensorop_s1688gemm_*), rocBLAS/Tensile
    // (Cijk_*), MAGMA, WMMA.
    {"gemm", C::kGemm},
    {"gemv", C::kGemm},
    {"splitkreduce", C::kGemm},
    {"cublas", C::kGemm},
    {"cutlass", C::kGemm},
    {"xmma", C::kGemm},
    {"nvjet", C::kGemm},
    {"^cijk_", C::kGemm},
    {"matmul", C::kGemm},
    {"wmma", C::kGemm},
    {"bmm", C::kGemm},
    // CPU ops (cpu_device_work.h): ATen's matrix ops and their autograd
    // nodes (aten::addmm, aten::mm, aten::linear, AddmmBackward0,
    // MmBackward0), which no GPU kernel name contains.
    {"addmm", C::kGemm},
    {"^aten::mm", C::kGemm},
    {"^aten::linear", C::kGemm},
    {"mmbackward", C::kGemm},
    // Reductions before normalization: ATen's reduce_kernel<..., NormTwoOps>
    // is a reduction; cub's DeviceReduce/Scan/RadixSort, losses, pooling.
    {"reduce", C::kReduction},
    {"cub::", C::kReduction},
    {"radixsort", C::kReduction},
    {"scan", C::kReduction},
    {"sort", C::kReduction},
    {"topk", C::kReduction},
    {"argmax", C::kReduction},
    {"argmin", C::kReduction},
    {"cross_entropy", C::kReduction},
    // The GPT-2 trainer's ops (reference_workloads/gpt2): its loss and the
    // gradient norm before clipping, a sum of squares, not a normalization.
    {"crossentropy", C::kReduction},
    {"grad_norm", C::kReduction},
    {"nll_loss", C::kReduction},
    {"pool", C::kReduction},
    // Normalization: cuDNN batch norm (bn_fw_tr_1C11_kernel_NCHW, bn_bw_*),
    // ATen layer/group/batch norm, RMSNorm, softmax.
    // Random-number kernels (normal_kernel, distribution_*) fill tensors.
    {"normal_kernel", C::kElementwise},
    {"distribution", C::kElementwise},
    {"norm", C::kNormalization},
    {"bn_fw", C::kNormalization},
    {"bn_bw", C::kNormalization},
    {"welford", C::kNormalization},
    {"softmax", C::kNormalization},
    // Memory movement: copies, concatenation, gathers/scatters, fills.
    {"memcpy", C::kMemory},
    {"memset", C::kMemory},
    {"copy", C::kMemory},
    {"catarray", C::kMemory},
    {"concat", C::kMemory},
    {"transpose", C::kMemory},
    {"permute", C::kMemory},
    {"gather", C::kMemory},
    {"scatter", C::kMemory},
    {"index", C::kMemory},
    {"embedding", C::kMemory},
    {"fill", C::kMemory},
    // Elementwise: ATen's vectorized/unrolled elementwise kernels and their
    // functors, activations, dropout, cuDNN's scale kernels.
    {"elementwise", C::kElementwise},
    {"pointwise", C::kElementwise},
    {"unrolled", C::kElementwise},
    {"vectorized", C::kElementwise},
    {"relu", C::kElementwise},
    {"gelu", C::kElementwise},
    {"silu", C::kElementwise},
    {"sigmoid", C::kElementwise},
    {"tanh", C::kElementwise},
    {"dropout", C::kElementwise},
    {"activation", C::kElementwise},
    {"bias", C::kElementwise},
    {"scale", C::kElementwise},
    {"add", C::kElementwise},
    {"mul", C::kElementwise},
    {"residual", C::kElementwise},
};
// clang-format on

struct CategoryInfo {
  std::string_view text;
  KernelBound bound;
};

#define DAMSCOPE_KERNEL_CATEGORY_INFO(value, text, bound) CategoryInfo{text, KernelBound::bound},
constexpr CategoryInfo kCategoryInfo[] = {
    DAMSCOPE_KERNEL_CATEGORIES(DAMSCOPE_KERNEL_CATEGORY_INFO)};
#undef DAMSCOPE_KERNEL_CATEGORY_INFO
static_assert(std::size(kCategoryInfo) == kKernelCategoryCount);

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool matches(std::string_view lower_name, std::string_view pattern) {
  if (!pattern.empty() && pattern.front() == '^') {
    return lower_name.substr(0, pattern.size() - 1) == pattern.substr(1);
  }
  return lower_name.find(pattern) != std::string_view::npos;
}

bool containsAny(std::string_view text, std::initializer_list<std::string_view> words) {
  for (std::string_view w : words) {
    if (text.find(w) != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace

std::string_view toText(KernelCategory category) {
  return kCategoryInfo[static_cast<size_t>(category)].text;
}

std::string_view toText(KernelBound bound) {
  switch (bound) {
    case KernelBound::kCompute:
      return "compute";
    case KernelBound::kMemory:
      return "memory";
    case KernelBound::kCommunication:
      return "communication";
  }
  return "memory";
}

KernelBound boundOf(KernelCategory category) {
  return kCategoryInfo[static_cast<size_t>(category)].bound;
}

KernelCategory classifyKernelName(std::string_view name) {
  const std::string l = lower(name);
  for (const Rule& rule : kRules) {
    if (matches(l, rule.pattern)) return rule.category;
  }
  return KernelCategory::kOther;
}

MathPath mathPathOf(std::string_view name, KernelCategory category) {
  if (category != KernelCategory::kGemm && category != KernelCategory::kConvolution &&
      category != KernelCategory::kAttention) {
    return MathPath::kNotMatrix;
  }
  const std::string l = lower(name);
  // cuBLAS's xmma kernels name their inner instruction: "ffma" is FP32 on
  // CUDA cores (sm80_xmma_gemm_f32f32_f32f32_f32_..._ffma_..., what
  // CUBLAS_COMPUTE_32F runs on an H100; seen in docs/gpu-results.md).
  if (containsAny(l, {"ffma"})) return MathPath::kFp32Simt;
  // Tensor-core markers: CUTLASS/cuBLAS instruction shapes (s1688 = TF32
  // 16x8x8, h884/h1688/h16816 = FP16 HMMA, i8816 = IMMA), "tensorop", Hopper
  // GMMA/wgmma, cuBLASLt nvjet, reduced-precision type names, xmma kernels
  // with tf32/f16/bf16 operands, FlashAttention (tensor cores only).
  if (containsAny(l, {"tensorop", "884", "1688", "16816", "hmma", "imma", "gmma", "wgmma", "nvjet",
                      "tf32", "bf16", "fp16", "f16", "half", "fp8", "e4m3", "e5m2", "flash"})) {
    return MathPath::kTensorCore;
  }
  // FP32 on CUDA cores: cuBLAS sgemm (volta_sgemm_*, ampere_sgemm_*,
  // maxwell_sgemm_*), cuDNN scudnn and its <float> engines and winograd.
  if (containsAny(l, {"sgemm", "scudnn", "<float", "sgemv"})) return MathPath::kFp32Simt;
  return MathPath::kUnknown;
}

KernelClassifier::KernelClassifier(const StringPool& strings, const std::vector<StringId>& names) {
  categories_.resize(strings.size(), KernelCategory::kOther);
  paths_.resize(strings.size(), MathPath::kNotMatrix);
  // Only the distinct names the kernels use: the pool also holds every op
  // and range name, which need no classification.
  std::vector<uint8_t> done(strings.size(), 0);
  for (StringId id : names) {
    if (!id.valid() || done[static_cast<size_t>(id.value)]) continue;
    done[static_cast<size_t>(id.value)] = 1;
    const std::string_view name = strings.get(id);
    categories_[static_cast<size_t>(id.value)] = classifyKernelName(name);
    paths_[static_cast<size_t>(id.value)] =
        mathPathOf(name, categories_[static_cast<size_t>(id.value)]);
  }
}

}  // namespace damscope
