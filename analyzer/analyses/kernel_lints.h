// Lints on recorded kernels: launch shapes and kernel sequences that waste
// the GPU whatever the run's bottleneck, each read from the event tables and
// each the figures of one finding rule (finding_rules.cc), with the kernels
// that show it as evidence. Only the primary device's kernels in the analysis
// window count; collectives and the ops of a CPU run never do.
//
//   wave quantization   a compute-bound kernel (GpuWork; a memory-bound
//                       one's partial wave still draws most of the memory
//                       bandwidth, so its empty slots overstate its loss)
//                       whose grid needs more than one wave of
//                       resident blocks but leaves its last wave less than
//                       half full, after at most kMaxTailWaves - 1 full waves.
//                       Slots = SMs (devices.sm_count) x resident blocks per
//                       SM. The resident blocks come from the kernel's
//                       estimated achieved occupancy where the trace has it:
//                       Kineto reports min(active blocks per SM, grid blocks /
//                       SMs) x threads per block / max threads per SM, as an
//                       integer percent, so occupancy x max threads per SM /
//                       threads per block gives the active blocks back, unless
//                       it is the grid's own blocks per SM (the grid then fits
//                       in one wave). Without occupancy one block per SM is
//                       assumed, and a note says so: more resident blocks mean
//                       fewer waves, so the lint may then flag kernels that fit
//                       in one. Waste = time x (1 - utilization), utilization
//                       = waveUtilization(blocks, slots), each wave taking the
//                       same time (NVIDIA, "GPU Performance Background User's
//                       Guide", "Wave Quantization").
//   tensor-core alignment  a GEMM or convolution kernel on the tensor-core
//                       path (or one whose name does not say; FP32 SIMT
//                       kernels are the fp32_matrix_math rule's) whose op's
//                       recorded shapes (op_shapes.h; the op is the one its
//                       FLOPs came from, kernel_work.h) have an M, N or K (a
//                       convolution's input or output channels) that is not a
//                       multiple of 8 elements for FP16/BF16, 4 for FP32
//                       (TF32), 16 for 8-bit types (NVIDIA, "Matrix
//                       Multiplication Background User's Guide", "Tensor Core
//                       Requirements"; "Convolutional Layers User's Guide",
//                       "Channels In and Out"). Against all the GEMM and
//                       convolution time whose shapes are known: a trace
//                       without shapes gives no figure.
//   materialised attention  a softmax kernel with a batched GEMM before and
//                       after it on its stream, at most kMaxAttentionGap
//                       kernels apart (scale, mask, dropout), in a window
//                       with no fused-attention kernel (FlashAttention, fMHA,
//                       SDPA: the attention category, kernel_categories.h):
//                       the S x S scores written to memory and read back
//                       (Dao et al., "FlashAttention", NeurIPS 2022). Batched:
//                       its op is aten::bmm/baddbmm/matmul, or its name says
//                       batched, or its grid's z dimension (cuBLAS's batch
//                       index) is above 1. The pattern's time is its kernels',
//                       each counted once.
//   elementwise chains  runs of at least kMinChain consecutive elementwise
//                       kernels on a stream, each shorter than
//                       options.short_elementwise_ns: n kernels of equal bytes
//                       that one fused kernel would replace, reading the
//                       inputs and writing the result once instead of n
//                       times, so at most (n - 1)/n of the chain's time goes.
//
// Evidence: per lint, one item per distinct kernel and reading (the same
// kernel name with the same shape, waves or chain), the longest run of it,
// in order of the lint's time in them; the detail says what the lint saw.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/analyses/analysis_input.h"
#include "analyzer/analyses/analysis_window.h"
#include "analyzer/analyses/kernel_work.h"

namespace damscope {

struct KernelLintOptions {
  // Elementwise kernels at least this long are not "short": a few
  // microseconds is the order of a launch and of a kernel's ramp up and
  // down, which a chain of short kernels pays once per kernel. damscope's
  // threshold.
  int64_t short_elementwise_ns = 20'000;
};

// A kernel's tail wave counts when 1 < waves < kMaxTailWaves and the last
// wave is under half full: then at least 0.5 / kMaxTailWaves = 1/8 of the
// kernel's time is an empty tail. With more waves the tail's cost falls as
// 1/waves.
constexpr double kMaxTailWaves = 4;
// Kernels a softmax may be from its GEMMs (scale, mask, dropout, copies).
constexpr size_t kMaxAttentionGap = 3;
constexpr size_t kMinChain = 3;

// One piece of evidence: a kernel (kernels row) and what the lint read in it,
// e.g. "1.03 waves: 33 blocks on 32 SMs x 1 block per SM".
struct LintEvidence {
  int64_t kernel = 0;
  std::string detail;
  bool operator==(const LintEvidence&) const = default;
};

// The figures of one lint.
struct KernelLint {
  bool known = false;                  // the trace gives what the lint reads
  int64_t time_ns = 0;                 // summed time of the kernels it flags
  double gain_ns = 0;                  // at most this much of it can be saved
  std::vector<LintEvidence> evidence;  // most time first
};

struct KernelLintReport {
  KernelLint wave_tail;
  KernelLint misaligned_gemm;
  int64_t shaped_gemm_ns = 0;  // GEMM/convolution time the alignment lint could read
  KernelLint attention;
  KernelLint elementwise_chains;
  std::vector<std::string> notes;
};

// `device`: the primary device (gpu_utilization.h).
KernelLintReport computeKernelLints(const AnalysisInput& input, const WindowReport& window,
                                    const KernelWorkReport& work, int32_t device,
                                    const KernelLintOptions& options);

}  // namespace damscope
