// The CUDA backend's GEMMs at the run's precision: see precision_gemm.h.
#include "reference_workloads/gpt2/cuda/precision_gemm.h"

#include "reference_workloads/gpt2/cuda/kernels.h"

namespace damscope::gpt2::cuda {
namespace {

// Scratch carve-outs start at 256-byte boundaries (cudaMalloc's alignment),
// which cuBLASLt's fastest kernels want (lt_gemm.cc).
constexpr size_t kScratchAlign = 256;

size_t alignUp(size_t bytes) {
  return (bytes + kScratchAlign - 1) / kScratchAlign * kScratchAlign;
}

}  // namespace

bool runGemm(DeviceRuntime& rt, LtGemm& gemm, const GemmCall& call, const char* op) {
  Result<bool> bias_added = gemm.run(call, rt.compute());
  if (!bias_added.ok()) {
    rt.fail(bias_added.error().withContext(op));
    return false;
  }
  if (call.bias != nullptr && !*bias_added) {
    return rt.check(addBias(call.c, call.bias, call.M, call.N, rt.compute()), op);
  }
  return true;
}

bool linearForward(DeviceRuntime& rt, LtGemm& gemm, Precision precision, float* out,
                   const float* inp, const float* weight, const float* bias, int rows, int C,
                   int OC) {
  const char* op = "matmul forward";
  GemmCall g;
  g.M = rows, g.N = OC, g.K = C;
  g.a = inp, g.lda = C;
  g.b = weight, g.ldb = C, g.trans_b = true;
  g.c = out, g.ldc = OC;
  g.bias = bias;
  g.tf32 = precision == Precision::kTf32;
  if (precision == Precision::kBf16) {
    const size_t inp_n = size_t(rows) * C, w_n = size_t(OC) * C;
    char* scratch = rt.scratchOf(alignUp(inp_n * 2) + alignUp(w_n * 2));
    if (!scratch) return false;
    char* w16 = scratch + alignUp(inp_n * 2);
    if (!rt.check(castToBf16(scratch, inp, inp_n, rt.compute()), op) ||
        !rt.check(castToBf16(w16, weight, w_n, rt.compute()), op)) {
      return false;
    }
    g.a = scratch, g.b = w16, g.bf16_inputs = true;
  }
  return runGemm(rt, gemm, g, op);
}

bool linearBackward(DeviceRuntime& rt, LtGemm& gemm, Precision precision, float* dinp,
                    float* dweight, float* dbias, const float* dout, const float* inp,
                    const float* weight, int rows, int C, int OC) {
  const char* op = "matmul backward";
  const void* dout_in = dout;
  const void* inp_in = inp;
  const void* weight_in = weight;
  const bool bf16 = precision == Precision::kBf16;
  // Scratch: the bias gradient's column partials, then the bf16 casts.
  const size_t partial_bytes = dbias ? alignUp(sizeof(float) * columnSumPartials(rows, OC)) : 0;
  const size_t dout_n = size_t(rows) * OC, inp_n = size_t(rows) * C, w_n = size_t(OC) * C;
  const size_t scratch_bytes =
      partial_bytes + (bf16 ? alignUp(dout_n * 2) + alignUp(inp_n * 2) + alignUp(w_n * 2) : 0);
  char* scratch = nullptr;
  if (scratch_bytes > 0 && !(scratch = rt.scratchOf(scratch_bytes))) return false;
  auto* partials = reinterpret_cast<float*>(scratch);
  if (bf16) {
    char* dout16 = scratch + partial_bytes;
    char* inp16 = dout16 + alignUp(dout_n * 2);
    char* w16 = inp16 + alignUp(inp_n * 2);
    if (!rt.check(castToBf16(dout16, dout, dout_n, rt.compute()), op) ||
        !rt.check(castToBf16(inp16, inp, inp_n, rt.compute()), op) ||
        !rt.check(castToBf16(w16, weight, w_n, rt.compute()), op)) {
      return false;
    }
    dout_in = dout16, inp_in = inp16, weight_in = w16;
  }
  const bool tf32 = precision == Precision::kTf32;
  // dinp (rows, C) = dout (rows, OC) weight (OC, C)
  GemmCall d;
  d.M = rows, d.N = C, d.K = OC;
  d.a = dout_in, d.lda = OC;
  d.b = weight_in, d.ldb = C;
  d.c = dinp, d.ldc = C;
  d.bf16_inputs = bf16, d.tf32 = tf32;
  // dweight (OC, C) = dout^T (OC, rows) inp (rows, C)
  GemmCall w;
  w.M = OC, w.N = C, w.K = rows;
  w.a = dout_in, w.lda = OC, w.trans_a = true;
  w.b = inp_in, w.ldb = C;
  w.c = dweight, w.ldc = C;
  w.bf16_inputs = bf16, w.tf32 = tf32;
  if (!runGemm(rt, gemm, d, op) || !runGemm(rt, gemm, w, op)) return false;
  return !dbias || rt.check(biasColumnSum(dbias, dout, rows, OC, partials, rt.compute()), op);
}

GemmCall headProduct(const float* a, bool trans_a, const float* b, bool trans_b, float* c, int M,
                     int N, int K, int batch, float alpha, Precision precision) {
  GemmCall g;
  g.M = M, g.N = N, g.K = K;
  g.a = a, g.trans_a = trans_a, g.lda = trans_a ? M : K;
  g.b = b, g.trans_b = trans_b, g.ldb = trans_b ? K : N;
  g.c = c, g.ldc = N;
  g.alpha = alpha;
  g.batch = batch;
  g.stride_a = int64_t(M) * K, g.stride_b = int64_t(K) * N, g.stride_c = int64_t(M) * N;
  g.tf32 = precision != Precision::kFp32;
  return g;
}

}  // namespace damscope::gpt2::cuda
