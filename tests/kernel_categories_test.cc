// Kernel names from cuBLAS, cuDNN, CUTLASS, Triton, ATen, NCCL, FlashAttention
// and ROCm libraries (most taken from the shared real traces) land in the
// right category, and GEMM/convolution names say whether they used tensor cores.
#include "analyzer/analyses/kernel_categories.h"

#include <gtest/gtest.h>

namespace damscope {
namespace {

struct Case {
  const char* name;
  KernelCategory category;
};

TEST(KernelCategories, RealKernelNamesLandInTheirCategory) {
  using C = KernelCategory;
  const Case cases[] = {
      {"volta_sgemm_128x64_nn", C::kGemm},
      {"ampere_sgemm_128x128_tn", C::kGemm},
      {"void "
       "cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_32x4_nn_align1>(cutlass_80_tensorop_"
       "s1688gemm_64x64_32x4_nn_align1::Params)",
       C::kGemm},
      {"void splitKreduce_kernel<float, float, float, float, true, false, "
       "false>(cublasSplitKParams<float>)",
       C::kGemm},
      {"void epilogue::impl::globalKernel<float, float, float, true, true>(int, int, long, float*, "
       "cublasLtEpilogue_t)",
       C::kGemm},
      {"nvjet_tst_128x256_64x4_1x2_h_bz_coopB_NTT", C::kGemm},
      {"Cijk_Alik_Bljk_SB_Bias_AS_SAV_UserArgs_MT64x16x32_MI16x16x1_SN", C::kGemm},
      {"triton_tem_fused_mm_0", C::kGemm},
      {"void cudnn::detail::dgrad_engine<float, 512, 6, 5, 3, 3, 3, false>(int, int, int)",
       C::kConvolution},
      {"void implicit_convolve_sgemm<float, float, 1024, 6, 7, 3, 3, 5, 1, false, true, true>(int)",
       C::kConvolution},
      {"volta_scudnn_128x64_relu_interior_nn_v1", C::kConvolution},
      {"sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16",
       C::kConvolution},
      {"void cudnn::winograd_nonfused::winogradForwardData4x4<float, "
       "float>(cudnn::winograd_nonfused::WinogradDataParams)",
       C::kConvolution},
      {"flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::half_t>>",
       C::kAttention},
      {"fmha_cutlassF_f16_aligned_64x64_rf_sm80", C::kAttention},
      {"void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 128, true, 1, "
       "true>(cudnnTensorStruct)",
       C::kNormalization},
      {"void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>(int, "
       "float)",
       C::kNormalization},
      {"void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, "
       "float>(float*)",
       C::kNormalization},
      {"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
       "at::detail::Array<char*, 3> >(int)",
       C::kElementwise},
      {"void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous "
       "namespace)::launch_clamp_scalar(at::TensorIteratorBase&)::{lambda(float)#1}>(int)",
       C::kElementwise},
      {"triton_poi_fused_add_gelu_0", C::kElementwise},
      {"void at::native::reduce_kernel<128, 4, at::native::ReduceOp<float, "
       "at::native::func_wrapper_t<float>>>(at::native::ReduceOp)",
       C::kReduction},
      {"triton_red_fused_native_layer_norm_1", C::kReduction},
      {"void cub::DeviceRadixSortOnesweepKernel<cub::DeviceRadixSortPolicy<long, int, "
       "int>::Policy800>(int)",
       C::kReduction},
      {"void at::native::(anonymous namespace)::max_pool_backward_nchw<float, float>(float const*)",
       C::kReduction},
      {"void multi_tensor_apply_kernel<TensorListMetadata<4>, AdamFunctor<float>, float>(long)",
       C::kOptimizer},
      {"void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
       "namespace)::TensorListMetadata<3>>(long)",
       C::kOptimizer},
      {"ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)", C::kCommunication},
      {"ncclDevKernel_AllGather_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
       C::kCommunication},
      {"void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, unsigned int, 2, 128, "
       "1>(float*)",
       C::kMemory},
      {"void at::native::elementwise_kernel<128, 2, "
       "at::native::gpu_kernel_impl<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)>>("
       "int)",
       C::kMemory},
      {"void cudnn::ops::nchwToNhwcKernel<float, float, float, false, true, "
       "(cudnnKernelDataType_t)2>(cudnn::ops::nchw2nhwc_params_t<float>)",
       C::kMemory},
      {"void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
       "at::detail::Array<char*, 1> >(int)",
       C::kMemory},
      {"saxpy(double *, double *, double *, double, int)", C::kOther},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(toText(classifyKernelName(c.name)), toText(c.category)) << c.name;
  }
}

TEST(KernelCategories, CpuOpsLandInTheirCategory) {
  using C = KernelCategory;
  const Case cases[] = {
      // The GPT-2 trainer's ops (cpu_device_work.h names them "op(name)").
      {"matmul_fwd(qkv)", C::kGemm},
      {"matmul_bwd(lm_head)", C::kGemm},
      {"attention_fwd", C::kAttention},
      {"layernorm_bwd", C::kNormalization},
      {"gelu_fwd", C::kElementwise},
      {"residual_fwd", C::kElementwise},
      {"crossentropy_fwd", C::kReduction},
      {"grad_norm", C::kReduction},
      {"adamw", C::kOptimizer},
      {"embedding_bwd", C::kMemory},
      // ATen CPU operators and autograd nodes.
      {"aten::addmm", C::kGemm},
      {"aten::mm", C::kGemm},
      {"aten::linear", C::kGemm},
      {"autograd::engine::evaluate_function: AddmmBackward0", C::kGemm},
      {"autograd::engine::evaluate_function: MmBackward0", C::kGemm},
      {"aten::add_", C::kElementwise},
      {"aten::native_layer_norm", C::kNormalization},
      {"aten::mkldnn_convolution", C::kConvolution},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(toText(classifyKernelName(c.name)), toText(c.category)) << c.name;
  }
}

TEST(KernelCategories, LambdaInAtenNamesIsNotTheLambOptimizer) {
  EXPECT_EQ(classifyKernelName(
                "void "
                "at::native::unrolled_elementwise_kernel<at::native::sigmoid_kernel_cuda(at::"
                "TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda(float)#1}>(int)"),
            KernelCategory::kElementwise);
}

TEST(KernelCategories, BoundsFollowTheCategory) {
  EXPECT_EQ(boundOf(KernelCategory::kGemm), KernelBound::kCompute);
  EXPECT_EQ(boundOf(KernelCategory::kAttention), KernelBound::kCompute);
  EXPECT_EQ(boundOf(KernelCategory::kElementwise), KernelBound::kMemory);
  EXPECT_EQ(boundOf(KernelCategory::kOther), KernelBound::kMemory);
  EXPECT_EQ(boundOf(KernelCategory::kCommunication), KernelBound::kCommunication);
}

TEST(KernelCategories, MathPathSeparatesTensorCoresFromFp32) {
  auto path = [](const char* name) { return mathPathOf(name, classifyKernelName(name)); };
  EXPECT_EQ(path("volta_sgemm_128x64_nn"), MathPath::kFp32Simt);
  EXPECT_EQ(path("volta_scudnn_128x64_relu_interior_nn_v1"), MathPath::kFp32Simt);
  EXPECT_EQ(path("void cudnn::detail::dgrad_engine<float, 512, 6, 5, 3, 3, 3, false>(int)"),
            MathPath::kFp32Simt);
  EXPECT_EQ(
      path("void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_32x4_nn_align1>(Params)"),
      MathPath::kTensorCore);
  EXPECT_EQ(path("sm80_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x32"),
            MathPath::kTensorCore);
  EXPECT_EQ(path("volta_h884gemm_64x64_ldg8_nn"), MathPath::kTensorCore);
  // cuBLAS's FP32 GEMM on an H100 (CUBLAS_COMPUTE_32F): an xmma kernel on FFMA.
  EXPECT_EQ(path("sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x8_stage3_warpsize2x2x1_"
                 "ffma_aligna4_alignc4_execute_kernel_cublas"),
            MathPath::kFp32Simt);
  EXPECT_EQ(path("void at::native::vectorized_elementwise_kernel<4, "
                 "at::native::CUDAFunctor_add<float>>(int)"),
            MathPath::kNotMatrix);
}

TEST(KernelCategories, ClassifierCachesByStringId) {
  StringPool pool;
  const StringId gemm = pool.intern("volta_sgemm_128x64_nn");
  const StringId op = pool.intern("aten::conv2d");  // a range name, never classified
  const StringId nccl = pool.intern("ncclKernel_AllReduce_RING_LL_Sum_float");
  const KernelClassifier classifier(pool, {gemm, nccl, gemm});
  EXPECT_EQ(classifier.category(gemm), KernelCategory::kGemm);
  EXPECT_EQ(classifier.category(nccl), KernelCategory::kCommunication);
  EXPECT_EQ(classifier.category(op), KernelCategory::kOther);
  EXPECT_EQ(classifier.category(kNoString), KernelCategory::kOther);
  EXPECT_EQ(classifier.mathPath(gemm), MathPath::kFp32Simt);
}

}  // namespace
}  // namespace damscope
