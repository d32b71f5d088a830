// FLOPs and bytes of ATen ops from their recorded shapes (op_formulas.h,
// op_shapes.h), one test per op family against values worked by hand from
// the formulas' sources; autograd's links (op_links.h) reaching the kernels
// of forward and backward convolutions; recomputed forward ops kept out of
// the model's FLOPs.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "analyzer/analyses/analysis_input.h"
#include "analyzer/analyses/kernel_work.h"
#include "analyzer/analyses/op_links.h"
#include "analyzer/analyses/op_shapes.h"
#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::TraceBuilder;

// {"Input Dims":dims,"Input type":types[,"Concrete Inputs":concrete]}
std::string args(const std::string& dims, const std::string& types,
                 const std::string& concrete = "") {
  std::string a = R"({"Input Dims":)" + dims + R"(,"Input type":)" + types;
  if (!concrete.empty()) a += R"(,"Concrete Inputs":)" + concrete;
  return a + "}";
}

OpWork count(const std::string& name, const std::string& a, const std::string& output = "",
             const std::string& forward = "") {
  const std::optional<OpWork> w = estimateOpWork({name, a, output, forward});
  EXPECT_TRUE(w.has_value()) << name << " " << a;
  return w.value_or(OpWork{-1, -1, false});
}

TEST(OpFormulas, MatrixProductsBroadcastTheirBatch) {
  // matmul [4,1,8,16] x [3,16,32]: batch 4x3, 2 x 12 x 8 x 16 x 32.
  const OpWork w = count("aten::matmul", args("[[4,1,8,16],[3,16,32]]", R"(["float","float"])"));
  EXPECT_DOUBLE_EQ(w.flops, 2.0 * 12 * 8 * 16 * 32);
  EXPECT_DOUBLE_EQ(w.bytes, (4 * 8 * 16 + 3 * 16 * 32 + 12 * 8 * 32) * 4.0);
  EXPECT_TRUE(w.model_math);
  EXPECT_FALSE(estimateOpWork({"aten::matmul", args("[[8,16],[15,32]]", R"(["float","float"])")}));
}

TEST(OpFormulas, ConvolutionTakesItsOutputFromTheBackwardNodeOrItsStride) {
  // flop_counter conv_flop_count: 2 x N x prod(out spatial) x prod(weight).
  const double flops = 2.0 * 32 * 56 * 56 * (64 * 64 * 9);
  const OpWork linked = count(
      "aten::cudnn_convolution",
      args("[[32,64,56,56],[64,64,3,3],[],[],[],[],[],[],[]]", R"(["float","float","GenericList"])"),
      "[32,64,56,56]");
  EXPECT_DOUBLE_EQ(linked.flops, flops);
  EXPECT_DOUBLE_EQ(linked.bytes, (2.0 * 32 * 64 * 56 * 56 + 64 * 64 * 9) * 4);
  // ResNet's stem from Concrete Inputs: 224 -> floor((224 + 6 - 6 - 1) / 2) + 1 = 112.
  const OpWork stem = count("aten::conv2d",
                            args("[[1,3,224,224],[64,3,7,7],[64],[],[],[],[]]",
                                 R"(["float","float","float","GenericList","GenericList","GenericList","Int"])",
                                 R"(["","","","[2, 2]","[3, 3]","[1, 1]","1"])"));
  EXPECT_DOUBLE_EQ(stem.flops, 2.0 * 112 * 112 * (64 * 3 * 49));
  // Neither: the output size is unknown, so nothing is counted.
  EXPECT_FALSE(estimateOpWork({"aten::cudnn_convolution",
                               args("[[32,64,56,56],[64,64,3,3]]", R"(["float","float"])")}));
  // Transposed: the input's spatial dims, weight [C_in, C_out, k, k].
  const OpWork up = count("aten::conv_transpose2d",
                          args("[[2,16,8,8],[16,4,2,2]]", R"(["float","float"])"));
  EXPECT_DOUBLE_EQ(up.flops, 2.0 * 2 * 64 * (16 * 4 * 4));
}

TEST(OpFormulas, ConvolutionGradientsCostTheForwardEach) {
  const double one = 2.0 * 32 * 56 * 56 * (64 * 64 * 9);
  const double g = 32.0 * 64 * 56 * 56, x = g, w = 64.0 * 64 * 9;
  // backward_input (self_size, grad_output, weight): the input's size is
  // N x C_in x the gradient's spatial dims when the forward is not linked.
  const OpWork input = count("aten::cudnn_convolution_backward_input",
                             args("[[],[32,64,56,56],[64,64,3,3]]", R"(["GenericList","float","float"])"));
  EXPECT_DOUBLE_EQ(input.flops, one);
  EXPECT_DOUBLE_EQ(input.bytes, (g + w + 2 * x) * 4);
  // backward_weight (weight_size, grad_output, self): the weight from the forward op.
  EXPECT_FALSE(estimateOpWork({"aten::cudnn_convolution_backward_weight",
                               args("[[],[32,64,56,56],[32,64,56,56]]", R"(["GenericList","float","float"])")}));
  const OpWork weight = count(
      "aten::cudnn_convolution_backward_weight",
      args("[[],[32,64,56,56],[32,64,56,56]]", R"(["GenericList","float","float"])"), "",
      args("[[32,64,56,56],[64,64,3,3]]", R"(["float","float"])"));
  EXPECT_DOUBLE_EQ(weight.flops, one);
  EXPECT_DOUBLE_EQ(weight.bytes, (g + x + 2 * w) * 4);
  // convolution_backward (grad_output, input, weight, .., output_mask): both
  // gradients, or what the mask asks for.
  const std::string dims = "[[32,64,56,56],[32,64,56,56],[64,64,3,3],[],[],[],[],[],[],[],[]]";
  const std::string types =
      R"(["float","float","float","GenericList","GenericList","GenericList","GenericList","Bool","GenericList","Int","GenericList"])";
  EXPECT_DOUBLE_EQ(count("aten::convolution_backward", args(dims, types)).flops, 2 * one);
  EXPECT_DOUBLE_EQ(count("aten::convolution_backward",
                         args(dims, types, R"(["","","","","","","","","","","[False, True, False]"])"))
                       .flops,
                   one);
}

TEST(OpFormulas, AttentionHalvesForACausalMaskAndDoublesBackward) {
  const std::string qkv = "[[2,12,1024,64],[2,12,1024,64],[2,12,1024,64]]";
  const std::string half = R"(["c10::Half","c10::Half","c10::Half"])";
  const double full = 4.0 * 2 * 12 * 1024 * 1024 * 64;
  EXPECT_DOUBLE_EQ(count("aten::scaled_dot_product_attention", args(qkv, half)).flops, full);
  EXPECT_DOUBLE_EQ(count("aten::scaled_dot_product_attention",
                         args(qkv, half, R"(["","","","","","True",""])"))
                       .flops,
                   full / 2);
  const OpWork back = count(
      "aten::_scaled_dot_product_flash_attention_backward",
      args("[[2,12,1024,64],[2,12,1024,64],[2,12,1024,64],[2,12,1024,64]]",
           R"(["c10::Half","c10::Half","c10::Half","c10::Half"])"));
  EXPECT_DOUBLE_EQ(back.flops, 2 * full);
  EXPECT_TRUE(back.model_math);
}

TEST(OpFormulas, NormalizationsSoftmaxEmbeddingsAndLosses) {
  // fvcore: 5 FLOPs per element with an affine transform.
  const OpWork ln = count("aten::native_layer_norm",
                          args("[[1024,512],[],[512],[512],[]]", R"(["float","","float","float","Scalar"])"));
  EXPECT_DOUBLE_EQ(ln.flops, 5.0 * 1024 * 512);
  EXPECT_DOUBLE_EQ(ln.bytes, (2.0 * 1024 * 512 + 2 * 512) * 4);
  EXPECT_FALSE(ln.model_math);
  const OpWork bn_back = count("aten::cudnn_batch_norm_backward",
                               args("[[32,64,8,8],[32,64,8,8],[64],[64],[64],[64],[64],[]]",
                                    R"(["float","float","float","float","float","float","float","Double"])"));
  EXPECT_DOUBLE_EQ(bn_back.flops, 10.0 * 32 * 64 * 64);
  EXPECT_DOUBLE_EQ(bn_back.bytes, (3.0 * 32 * 64 * 64 + 5 * 64) * 4);
  const OpWork softmax = count("aten::_softmax", args("[[8,128],[],[]]", R"(["float","Int","Bool"])"));
  EXPECT_DOUBLE_EQ(softmax.flops, 5.0 * 8 * 128);
  EXPECT_DOUBLE_EQ(softmax.bytes, 2.0 * 8 * 128 * 4);
  const OpWork softmax_back =
      count("aten::_log_softmax_backward_data",
            args("[[32,1000],[32,1000],[],[]]", R"(["float","float","Int","Int"])"));
  EXPECT_DOUBLE_EQ(softmax_back.flops, 4.0 * 32 * 1000);
  EXPECT_DOUBLE_EQ(softmax_back.bytes, 3.0 * 32 * 1000 * 4);
  // An embedding gathers one row per index: indices read, rows read and written.
  const OpWork emb = count("aten::embedding", args("[[1000,64],[32,16]]", R"(["float","long int"])"));
  EXPECT_DOUBLE_EQ(emb.flops, 0);
  EXPECT_DOUBLE_EQ(emb.bytes, 32.0 * 16 * 8 + 2.0 * 32 * 16 * 64 * 4);
  const OpWork nll = count("aten::nll_loss_forward",
                           args("[[32,1000],[32],[],[],[]]", R"(["float","long int","","Int","Int"])"));
  EXPECT_DOUBLE_EQ(nll.flops, 32);
  EXPECT_DOUBLE_EQ(nll.bytes, 32.0 * 8 + 32 * 4);
  const OpWork nll_back =
      count("aten::nll_loss_backward", args("[[],[32,1000],[32],[],[],[],[]]",
                                            R"(["float","float","long int","","Int","Int","float"])"));
  EXPECT_DOUBLE_EQ(nll_back.bytes, 32.0 * 1000 * 4 + 32 * 8);
}

TEST(OpFormulas, PoolingElementwiseReductionsAndDataMovement) {
  const OpWork pool_back = count(
      "aten::max_pool2d_with_indices_backward",
      args("[[32,64,56,56],[32,64,112,112],[],[],[],[],[],[32,64,56,56]]",
           R"(["float","float","GenericList","GenericList","GenericList","GenericList","Bool","long int"])"));
  const double g = 32.0 * 64 * 56 * 56, x = 32.0 * 64 * 112 * 112;
  EXPECT_DOUBLE_EQ(pool_back.flops, x);
  EXPECT_DOUBLE_EQ(pool_back.bytes, g * 4 + x * 4 + g * 8 + x * 4);
  // A binary op broadcasts [64] over [32, 64]; in place it writes its first input.
  for (const char* name : {"aten::add", "aten::add_"}) {
    const OpWork add = count(name, args("[[32,64],[64],[]]", R"(["float","float","Scalar"])"));
    EXPECT_DOUBLE_EQ(add.flops, 32.0 * 64) << name;
    EXPECT_DOUBLE_EQ(add.bytes, (32.0 * 64 + 64) * 4 + 32.0 * 64 * 4) << name;
  }
  // _foreach_ ops run over lists; a list takes the op's tensor dtype, else FP32.
  const OpWork foreach = count("aten::_foreach_add_",
                               args("[[[10,10],[5]],[[10,10],[5]],[]]", R"(["TensorList","TensorList","Scalar"])"));
  EXPECT_DOUBLE_EQ(foreach.flops, 105);
  EXPECT_DOUBLE_EQ(foreach.bytes, 2 * 105 * 4.0);
  // A cast: the source read in its dtype, the destination written in its own.
  const OpWork copy = count("aten::copy_", args("[[100],[100],[]]", R"(["float","c10::Half","Bool"])"));
  EXPECT_DOUBLE_EQ(copy.flops, 0);
  EXPECT_DOUBLE_EQ(copy.bytes, 100.0 * 2 + 100 * 4);
  const OpWork sum = count("aten::sum", args("[[1000,10],[],[],[]]", R"(["float","GenericList","Bool",""])"));
  EXPECT_DOUBLE_EQ(sum.flops, 10000);
  EXPECT_DOUBLE_EQ(sum.bytes, 40000);
  const OpWork cat = count("aten::cat", args("[[[2,3],[4,3]],[]]", R"(["TensorList","Int"])"));
  EXPECT_DOUBLE_EQ(cat.bytes, 2 * (6 + 12) * 4.0);
  // A list the profiler did not record cannot be counted.
  EXPECT_FALSE(estimateOpWork({"aten::cat", args("[[],[]]", R"(["TensorList","Scalar"])")}));
}

TEST(OpFormulas, FusedOptimizersCountPerParameterElement) {
  const std::string lists = "[[[100],[50]],[[100],[50]],[[100],[50]],[[100],[50]],[],[[],[]]]";
  const std::string types = R"(["TensorList","TensorList","TensorList","TensorList","TensorList","TensorList"])";
  const OpWork adamw = count("aten::_fused_adamw_", args(lists, types));
  EXPECT_DOUBLE_EQ(adamw.flops, 15.0 * 150);
  EXPECT_DOUBLE_EQ(adamw.bytes, 7.0 * 150 * 4);
  const OpWork sgd = count("aten::_fused_sgd_", args("[[[100],[50]],[[100],[50]],[]]",
                                                     R"(["TensorList","TensorList","TensorList"])"));
  EXPECT_DOUBLE_EQ(sgd.flops, 2.0 * 150);
  EXPECT_DOUBLE_EQ(sgd.bytes, 3.0 * 150 * 4);
}

TEST(OpFormulas, OnlyAtenOpsWithAFormulaCount) {
  EXPECT_TRUE(countsOpWork("aten::_foreach_mul_"));
  EXPECT_TRUE(countsOpWork("aten::cudnn_convolution_backward_weight"));
  EXPECT_FALSE(countsOpWork("fbgemm::split_embedding_codegen_lookup_rowwise_adagrad_function"));
  EXPECT_FALSE(countsOpWork("CompiledFunction"));
  EXPECT_FALSE(countsOpWork("aten::view"));
}

// A forward convolution on the main thread and its backward node on the
// autograd thread, linked by sequence number 5: the forward op's output
// comes from the node's gradient, the weight gradient's weight from the
// forward op; a forward op that runs again inside the node (checkpointing)
// counts its work but not as model math.
TEST(OpLinks, BackwardNodesLendShapesBothWays) {
  TraceBuilder b;
  const int64_t forward = b.range(0, 100, "aten::cudnn_convolution");
  b.tables().ranges.args[static_cast<size_t>(forward)] =
      R"({"Input Dims":[[8,16,32,32],[32,16,3,3]],"Input type":["float","float"],"Sequence number":5,"Fwd thread id":0})";
  b.kernel(20, 50, "implicit_convolve_sgemm", b.call(10, 2));
  const int64_t node = b.range(200, 100, "ConvolutionBackward0", "cpu_op", 1);
  b.tables().ranges.args[static_cast<size_t>(node)] =
      R"({"Input Dims":[[8,32,16,16]],"Input type":["float"],"Sequence number":5,"Fwd thread id":1})";
  const int64_t wgrad = b.range(210, 40, "aten::cudnn_convolution_backward_weight", "cpu_op", 1);
  b.tables().ranges.args[static_cast<size_t>(wgrad)] =
      R"({"Input Dims":[[],[8,32,16,16],[8,16,32,32]],"Input type":["GenericList","float","float"]})";
  b.kernel(230, 30, "wgrad_implicit_gemm_kernel", b.call(220, 2, "cudaLaunchKernel", 1));
  const int64_t again = b.range(260, 30, "aten::mm", "cpu_op", 1);
  b.tables().ranges.args[static_cast<size_t>(again)] =
      R"({"Input Dims":[[8,8],[8,8]],"Input type":["float","float"],"Sequence number":9})";
  b.kernel(275, 10, "sgemm_recompute", b.call(270, 2, "cudaLaunchKernel", 1));
  TraceTables t = b.build();

  const OpLinks links = linkOps(t);
  ASSERT_FALSE(links.empty());
  const double flops = 2.0 * 8 * 16 * 16 * (32 * 16 * 9);
  const KernelWorkReport r = computeKernelWork(AnalysisInput::build(t));
  std::map<std::string, const KernelWork*> by_name;
  for (const KernelWork& w : r.kernels) {
    by_name[std::string(t.strings.get(t.kernels.name[static_cast<size_t>(w.kernel)]))] = &w;
  }
  ASSERT_TRUE(by_name.count("implicit_convolve_sgemm"));
  EXPECT_DOUBLE_EQ(by_name["implicit_convolve_sgemm"]->flops, flops);
  EXPECT_TRUE(by_name["implicit_convolve_sgemm"]->model_math);
  ASSERT_TRUE(by_name.count("wgrad_implicit_gemm_kernel"));
  EXPECT_DOUBLE_EQ(by_name["wgrad_implicit_gemm_kernel"]->flops, flops);
  ASSERT_TRUE(by_name.count("sgemm_recompute"));
  EXPECT_DOUBLE_EQ(by_name["sgemm_recompute"]->flops, 2.0 * 8 * 8 * 8);
  EXPECT_FALSE(by_name["sgemm_recompute"]->model_math) << "a recomputed forward op";
}

}  // namespace
}  // namespace damscope
