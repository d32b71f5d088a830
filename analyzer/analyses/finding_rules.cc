// The default finding rules: thresholds, advice and the source of each.
// Changing a threshold here changes the documented default
// (docs/analysis.md lists the table); users override them per run
// (overrideThreshold).
#include <cmath>
#include <cstdlib>

#include "analyzer/analyses/findings.h"

namespace damscope {

std::vector<FindingRule> defaultFindingRules() {
  constexpr double kNever = std::numeric_limits<double>::quiet_NaN();
  std::vector<FindingRule> rules;

  FindingRule r;
  r.id = "data_loading";
  r.metric = Metric::kDataStallPct;
  r.threshold = 5, r.high_threshold = 20;
  r.title = "The GPU waits for input data {value} % of the step";
  r.recommendation =
      "Feed the GPU faster: raise DataLoader num_workers (with persistent_workers=True), prefetch "
      "batches (prefetch_factor, or a side-stream prefetcher), use pin_memory=True with "
      ".to(device, non_blocking=True), and move decoding/augmentation out of the training process "
      "(pre-processed data, GPU decoding with DALI).";
  r.gain_metric = Metric::kDataStallPct;
  r.evidence = EvidenceKind::kDataLoadingGaps;
  r.basis =
      "PyTorch profiler TensorBoard plugin: recommends more DataLoader workers when data loading "
      "exceeds 5 % of the step (torch_tb_profiler run_generator.py, overview recommendations); "
      "high from 20 %";
  r.cpu_title = "The CPU's compute thread waits for input data {value} % of the step";
  r.cpu_recommendation =
      "Load data off the compute thread: more loader workers (DataLoader num_workers with "
      "persistent_workers=True; gpt2-train --loader-workers), prefetch batches (prefetch_factor; "
      "gpt2-train --prefetch), and pre-process data once instead of every step. Keep the workers "
      "off the cores the compute threads use, or they slow each other.";
  r.cuda_recommendation =
      "Feed the GPU faster: read and decode the next batches on other threads (or processes) "
      "while the GPU computes, keep them in pinned host buffers (cudaHostAlloc) and copy with "
      "cudaMemcpyAsync on a stream of their own, so the copy overlaps the previous step's "
      "kernels; pre-process data once instead of every step.";
  r.jax_recommendation =
      "Feed the accelerator faster: prefetch batches on the host in the input pipeline "
      "(tf.data's prefetch, or Grain's worker processes), put the next batch on the device "
      "while this step runs (flax.jax_utils.prefetch_to_device, or jax.device_put from a "
      "background thread), and move decoding and augmentation out of the training process.";
  r.trainer_recommendation =
      "Load batches ahead of the step: more loader threads (--loader-workers N) and a deeper "
      "queue (--prefetch N), so that making a batch hides behind the previous step's compute.";
  rules.push_back(r);

  r = {};
  r.id = "synchronization";
  r.gpu_only = true;  // a CPU device is never waited for
  r.metric = Metric::kSyncStallPct;
  r.threshold = 3, r.high_threshold = 10;
  r.title =
      "The GPU sits idle while the host is blocked in synchronizing calls {value} % of the step";
  r.recommendation =
      "Take synchronizations out of the training loop: no .item(), .cpu(), print(tensor) or "
      "torch.cuda.synchronize() every step (log every N steps, keep running metrics on the GPU), "
      "copy with non_blocking=True from pinned memory, and find hidden syncs with "
      "torch.cuda.set_sync_debug_mode(\"warn\").";
  r.gain_metric = Metric::kSyncStallPct;
  r.evidence = EvidenceKind::kSyncGaps;
  r.basis =
      "PyTorch Performance Tuning Guide, \"Avoid unnecessary CPU-GPU synchronization\"; "
      "threshold damscope's (a sync drains the launch queue: the GPU idles until the host "
      "relaunches)";
  r.cuda_recommendation =
      "Take synchronizations out of the loop: no cudaDeviceSynchronize, cudaStreamSynchronize "
      "or synchronous cudaMemcpy per iteration; order work across streams with events "
      "(cudaEventRecord, cudaStreamWaitEvent), read results back every N iterations, and copy "
      "with cudaMemcpyAsync from pinned memory.";
  r.jax_recommendation =
      "Take host synchronizations out of the step: no block_until_ready, jax.device_get, "
      "float(x) or printing of device arrays every step (log every N steps, keep running "
      "metrics on the device); a host callback (jax.debug.callback, pure_callback) inside the "
      "jitted step also stalls it.";
  r.trainer_recommendation =
      "Drop --sync-every-op: the host waits for the GPU after every op, so the GPU idles while "
      "the next kernel is launched.";
  rules.push_back(r);

  r = {};
  r.id = "launch_overhead";
  r.metric = Metric::kHostStallPct;
  r.threshold = 10, r.high_threshold = 25;
  r.title = "The GPU waits for the host to launch work {value} % of the step";
  r.cpu_title = "The CPU runs framework code between ops {value} % of the step";
  r.cpu_recommendation =
      "Cut the per-op overhead: more work per op (a larger batch, fused ops through "
      "torch.compile or TorchScript), no Python-level loops over tensors, and no logging or "
      "tensor-to-number conversions inside the step.";
  r.recommendation =
      "Cut launch and Python overhead: capture the step as a CUDA graph (torch.cuda.graphs, or "
      "torch.compile(mode=\"reduce-overhead\")), fuse small ops into fewer, larger kernels "
      "(torch.compile), raise the batch size so each kernel does more work, and keep extra "
      "Python work off the launching thread.";
  r.gain_metric = Metric::kHostStallPct;
  r.evidence = EvidenceKind::kLaunchGaps;
  r.basis =
      "NVIDIA, \"Getting Started with CUDA Graphs\" (2019): a few µs of launch overhead per "
      "kernel; HTA idle-time analysis calls such gaps host wait; threshold damscope's";
  r.cuda_recommendation =
      "Cut launch overhead: capture the iteration as a CUDA graph "
      "(cudaStreamBeginCapture/cudaStreamEndCapture, then cudaGraphLaunch per step), fuse small "
      "kernels into fewer, larger ones, give each kernel more work (a larger batch), and keep "
      "other work off the launching thread.";
  r.jax_recommendation =
      "Cut dispatch overhead: jit the whole training step into one XLA program (not many small "
      "jitted functions called from a Python loop), loop over layers or micro-batches with "
      "lax.scan inside it, raise the batch size, and let XLA replay the step as CUDA graphs "
      "(XLA's command buffers, XLA_FLAGS=--xla_gpu_enable_command_buffer).";
  r.trainer_recommendation =
      "Replay the step as a CUDA graph (--cuda-graph): one launch per step instead of one per "
      "kernel; a larger --batch also gives each kernel more work.";
  rules.push_back(r);

  r = {};
  r.id = "short_kernels";
  r.gpu_only = true;  // launch latency
  r.metric = Metric::kShortKernelPct;
  r.threshold = 50, r.high_threshold = kNever;
  r.severity = Severity::kLow;
  r.title = "{value} % of kernels run for less time than it takes to launch them";
  r.recommendation =
      "Launch fewer, larger kernels: fuse elementwise chains (torch.compile), use fused or "
      "foreach optimizers (fused=True / foreach=True), or replay the step as a CUDA graph.";
  r.gain_metric = Metric::kHostStallPct;
  r.evidence = EvidenceKind::kShortKernels;
  r.basis =
      "HTA CUDA kernel launch statistics: a kernel is short when its GPU duration is below its "
      "launch call's CPU duration (hta/analyzers/cuda_kernel_analysis.py); the gain is bounded "
      "by the launch stall";
  r.cuda_recommendation =
      "Launch fewer, larger kernels: fuse consecutive small kernels, process several items per "
      "launch, or replay the iteration as a CUDA graph (cudaGraphLaunch).";
  r.jax_recommendation =
      "Launch fewer, larger kernels: jit the whole step so that XLA fuses it, loop with "
      "lax.scan instead of Python, and let XLA use CUDA graphs "
      "(XLA_FLAGS=--xla_gpu_enable_command_buffer).";
  r.trainer_recommendation =
      "Replay the step as a CUDA graph (--cuda-graph), or give each kernel more work with a "
      "larger --batch or --seq.";
  rules.push_back(r);

  r = {};
  r.id = "exposed_communication";
  r.metric = Metric::kExposedCommunicationPct;
  r.threshold = 5, r.high_threshold = 15;
  r.title = "Communication that computation does not hide takes {value} % of the step";
  r.recommendation =
      "Overlap collectives with computation: let DDP bucket gradients (tune bucket_cap_mb) and "
      "start all-reduce during backward, communicate less often (no_sync() with gradient "
      "accumulation), prefetch with FSDP/ZeRO for sharded models, and check the NCCL transport "
      "(NVLink/InfiniBand, NCCL_DEBUG=INFO).";
  r.cpu_title = "The CPU's compute thread waits for collectives {value} % of the step";
  r.cpu_recommendation =
      "Overlap collectives with computation: bucket the gradients and start each bucket's "
      "all-reduce during backward (DDP's bucket_cap_mb; gpt2-train --overlap), give the "
      "communication a core that the compute threads do not use, communicate less often "
      "(gradient accumulation), and check the interconnect (shared memory within a node, the "
      "network across nodes).";
  r.gain_metric = Metric::kExposedCommunicationPct;
  r.evidence = EvidenceKind::kCommunicationKernels;
  r.basis =
      "HTA communication/computation overlap analysis (get_comm_comp_overlap); threshold "
      "damscope's";
  r.cuda_recommendation =
      "Overlap communication with computation: start each transfer as soon as its data is ready "
      "with non-blocking collectives (MPI_Iallreduce/MPI_Isend, or NCCL on a stream of its own) "
      "and wait only where the result is needed, send fewer, larger messages (bucket small "
      "ones), use CUDA-aware MPI or GPUDirect so data does not bounce through the host, and "
      "check the transport (NCCL_DEBUG=INFO).";
  r.jax_recommendation =
      "Overlap collectives with computation: let XLA schedule them early "
      "(XLA_FLAGS=--xla_gpu_enable_latency_hiding_scheduler=true), shard parameters and "
      "optimizer state with jax.sharding so each device moves less, communicate less often "
      "(gradient accumulation), and check the NCCL transport (NCCL_DEBUG=INFO).";
  r.trainer_recommendation =
      "Overlap the all-reduce with the backward pass (--overlap), send fewer, larger buckets "
      "(raise --bucket-mb), or give each rank more work per step (a larger --batch).";
  rules.push_back(r);

  r = {};
  r.id = "pageable_copies";
  r.gpu_only = true;
  r.metric = Metric::kPageableCopyPct;
  r.threshold = 1, r.high_threshold = 5;
  r.title = "Copies to or from pageable host memory take {value} % of the step";
  r.recommendation =
      "Use pinned host memory: DataLoader(pin_memory=True) or tensor.pin_memory(), then "
      ".to(device, non_blocking=True). Pinned copies run asynchronously at full PCIe/NVLink "
      "bandwidth; pageable ones are staged through a bounce buffer and block the host.";
  r.gain_metric = Metric::kPageableCopyPct;
  r.evidence = EvidenceKind::kPageableCopies;
  r.basis =
      "CUDA Runtime API reference, \"API synchronization behavior\"; CUDA C++ Best Practices "
      "Guide, \"Pinned Memory\"";
  r.cuda_recommendation =
      "Use pinned host memory: allocate host buffers with cudaMallocHost/cudaHostAlloc (or pin "
      "existing ones with cudaHostRegister) and copy with cudaMemcpyAsync on a non-default "
      "stream. Pinned copies run asynchronously at full PCIe/NVLink bandwidth; pageable ones "
      "are staged through a bounce buffer and block the host.";
  r.jax_recommendation =
      "Stage host data in pinned memory and transfer it ahead of the step: jax.device_put from "
      "a prefetching thread (or a pinned_host memory kind where the JAX version has it), so the "
      "copy overlaps computation instead of being staged through a bounce buffer.";
  r.trainer_recommendation =
      "Drop --pageable-copies: by default the trainer copies each batch from pinned memory on a "
      "copy stream of its own, asynchronously.";
  rules.push_back(r);

  r = {};
  r.id = "memory_bound_kernels";
  r.metric = Metric::kMemoryBoundPct;
  r.threshold = 30, r.high_threshold = 50;
  r.title = "Memory-bound kernels take {value} % of the step";
  r.cpu_title = "Memory-bound ops take {value} % of the step";
  r.cpu_recommendation =
      "Move fewer bytes: fuse elementwise and normalization chains into the ops around them, use "
      "a fused (tiled) attention that never materialises the T x T scores, and block loops so "
      "that data is reused while it is in cache.";
  r.recommendation =
      "Move fewer bytes: fuse elementwise and normalization chains (torch.compile), use fused "
      "attention (FlashAttention, torch.nn.functional.scaled_dot_product_attention) and fused "
      "optimizers, and keep activations in bf16/fp16, which halves the bytes every memory-bound "
      "kernel moves.";
  r.gain_metric = Metric::kMemoryBoundPct;
  r.evidence = EvidenceKind::kMemoryBoundKernels;
  r.basis =
      "Roofline model (Williams, Waterman, Patterson, CACM 2009): kernels below the ridge point "
      "are limited by DRAM bandwidth; threshold damscope's";
  r.cuda_recommendation =
      "Move fewer bytes: fuse chains of elementwise and normalization kernels so intermediates "
      "stay in registers or shared memory, use a fused attention kernel (cuDNN's, "
      "FlashAttention) instead of GEMM + softmax + GEMM, keep activations in bf16/fp16 where "
      "accuracy allows, and make accesses coalesced and vectorised (Nsight Compute's Memory "
      "Workload Analysis shows the achieved bandwidth).";
  r.jax_recommendation =
      "Move fewer bytes: keep parameters and activations in bf16, use fused attention "
      "(jax.nn.dot_product_attention with implementation=\"cudnn\", or a Pallas flash-attention "
      "kernel), and keep each step in one jitted function so XLA can fuse elementwise chains "
      "(host callbacks and Python between jitted calls break fusion).";
  r.trainer_recommendation =
      "Move fewer bytes: run in bf16 (--precision bf16) and use the tiled attention "
      "(--attention fused), which never materialises the T x T scores.";
  rules.push_back(r);

  r = {};
  r.id = "fp32_matrix_math";
  r.gpu_only = true;  // tensor cores
  r.metric = Metric::kFp32MatrixPct;
  r.threshold = 10, r.high_threshold = 25;
  r.title = "GEMMs and convolutions in FP32 without tensor cores take {value} % of the step";
  r.recommendation =
      "Run matrix math on tensor cores: mixed precision (torch.autocast with bf16, or fp16 with "
      "GradScaler), or TF32 on Ampere and newer (torch.backends.cuda.matmul.allow_tf32 = True, "
      "torch.backends.cudnn.allow_tf32 = True); keep batch, channel and hidden sizes multiples "
      "of 8, and of 64 for the best tiles.";
  r.gain_metric = Metric::kFp32MatrixPct;
  r.gain_factor = 0.875;
  r.evidence = EvidenceKind::kFp32MatrixKernels;
  r.basis =
      "NVIDIA Deep Learning Performance Guide, \"Tensor Core Requirements\"; V100 peaks at 15.7 "
      "TFLOP/s FP32 and 125 TFLOP/s FP16 on tensor cores, so at most 7/8 of the FP32 time can "
      "go";
  r.cuda_recommendation =
      "Run matrix math on tensor cores: cuBLAS/cuBLASLt with TF32 "
      "(CUBLAS_COMPUTE_32F_FAST_TF32) or with bf16/fp16 inputs, cuDNN with "
      "CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION; keep the dimensions multiples of 8, and of 64 for "
      "the best tiles.";
  r.jax_recommendation =
      "Run matrix math on tensor cores: bf16 parameters and activations (mixed precision, e.g. "
      "jmp), or TF32 for fp32 matmuls (jax.config.update(\"jax_default_matmul_precision\", "
      "\"tensorfloat32\")); keep batch and hidden sizes multiples of 8, and of 64 for the best "
      "tiles.";
  r.trainer_recommendation =
      "Run the GEMMs and attention on tensor cores: --precision bf16 (fp32 master weights and "
      "AdamW state stay).";
  rules.push_back(r);

  r = {};
  r.id = "kernels_below_roof";
  r.gpu_only = true;  // the advice is about GPU kernels
  r.metric = Metric::kBelowRoofPct;
  r.threshold = 10, r.high_threshold = 30;
  r.title = "Kernels reaching under 60 % of their roofline ceiling take {value} % of the step";
  r.recommendation =
      "These kernels are held back by neither the arithmetic nor the memory roof but by latency: "
      "too little work per launch, low occupancy, uncoalesced or bank-conflicted memory access, "
      "or a naive implementation. Prefer the library or fused version (cuBLAS/cuDNN, "
      "FlashAttention through torch.nn.functional.scaled_dot_product_attention, torch.compile's "
      "fused kernels), give each launch more work (a larger batch), and profile the largest one "
      "with Nsight Compute (Scheduler and Warp State Statistics).";
  r.gain_metric = Metric::kBelowRoofGainPct;
  r.evidence = EvidenceKind::kBelowRoofKernels;
  r.basis =
      "Roofline model (Williams, Waterman, Patterson, CACM 2009): the distance to the ceiling is "
      "the headroom, so the gain is each kernel's time times (1 - achieved / ceiling); Nsight "
      "Compute's SpeedOfLight rule: below 60 % of peak \"typically indicate[s] latency issues\"; "
      "ceilings from annotated or estimated FLOPs and bytes (roofline.h); thresholds damscope's";
  r.cuda_recommendation =
      "These kernels are held back by neither the arithmetic nor the memory roof but by "
      "latency: too little work per launch, low occupancy, uncoalesced or bank-conflicted "
      "memory access, or a naive implementation. Prefer a library version (cuBLAS, cuDNN, "
      "CUTLASS), give each launch more work (a larger batch), and profile the largest one with "
      "Nsight Compute (Scheduler and Warp State Statistics).";
  r.jax_recommendation =
      "These kernels are held back by neither the arithmetic nor the memory roof but by "
      "latency: too little work per launch or a poorly tiled fusion. Give each step more work "
      "(a larger batch), prefer the library paths (cuBLAS/cuDNN GEMMs, "
      "jax.nn.dot_product_attention with implementation=\"cudnn\"), and profile the largest "
      "kernel with Nsight Compute; XLA_FLAGS=--xla_dump_to shows which fusion it is.";
  rules.push_back(r);

  r = {};
  r.id = "wave_quantization";
  r.gpu_only = true;  // SMs and blocks
  r.metric = Metric::kWaveTailPct;
  r.threshold = 5, r.high_threshold = 15;
  r.title = "Kernels whose last wave of blocks runs under half full take {value} % of the step";
  r.recommendation =
      "A grid slightly larger than a whole number of waves (SMs x resident blocks per SM) runs "
      "one more, mostly empty, wave: 33 blocks on 32 SMs take two waves at 51.6 % utilization. "
      "Change the work per kernel so that it fills whole waves: a batch, sequence or hidden size "
      "that divides into the device's SM count (or is much larger than one wave), or a library "
      "tile size or split-K setting that does; for your own kernels, fewer, larger or more "
      "blocks.";
  r.gain_metric = Metric::kWaveTailGainPct;
  r.evidence = EvidenceKind::kWaveTailKernels;
  r.basis =
      "NVIDIA GPU Performance Background User's Guide, \"Wave Quantization\": each wave takes "
      "as long as a full one, so the gain is each kernel's time x (1 - blocks / (waves x "
      "slots)); kernels between 1 and 4 waves whose last is under half full (at least 1/8 of "
      "their time idle); thresholds damscope's";
  rules.push_back(r);

  r = {};
  r.id = "tensor_core_alignment";
  r.gpu_only = true;  // tensor cores
  r.metric = Metric::kMisalignedGemmPct;
  r.threshold = 10, r.high_threshold = 30;
  r.title = "{value} % of the GEMM and convolution time runs shapes that tensor cores need padded";
  r.recommendation =
      "Make every GEMM dimension (batch x sequence, hidden, FFN, vocabulary, heads x head size) "
      "and every convolution's channel count a multiple of 8 for FP16/BF16 (4 for TF32, 16 for "
      "INT8/FP8), and of 64 for the best tiles: pad the vocabulary (GPT-2's 50257 to 50304), "
      "pad a 3-channel image input to 4 or 8 channels (channels_last), and choose hidden sizes "
      "that divide evenly. The evidence names each op, its shape and the padding.";
  r.gain_metric = Metric::kMisalignedGemmGainPct;
  r.evidence = EvidenceKind::kMisalignedGemmKernels;
  r.basis =
      "NVIDIA Matrix Multiplication Background User's Guide and Deep Learning Performance "
      "Guide, \"Tensor Core Requirements\" (multiples of 16 bytes: 8 FP16/BF16, 4 TF32, 16 "
      "INT8 elements; older cuBLAS runs misaligned shapes without tensor cores), Convolutional "
      "Layers User's Guide, \"Channels In and Out\"; the gain at most 7/8 of their time, as for "
      "FP32 GEMMs (V100: 15.7 against 125 TFLOP/s); thresholds damscope's";
  r.cuda_recommendation =
      "Make every GEMM dimension (M, N, K and the leading dimensions) a multiple of 8 for "
      "FP16/BF16 (4 for TF32, 16 for INT8/FP8), and of 64 for the best tiles: pad the matrices, "
      "and give convolutions NHWC tensors whose channel counts are multiples of 8. The evidence "
      "names each op, its shape and the padding.";
  r.jax_recommendation =
      "Make every matmul dimension (batch x sequence, hidden, MLP, vocabulary, heads x head "
      "size) a multiple of 8 for bf16 (4 for TF32), and of 64 for the best tiles: pad the "
      "vocabulary (GPT-2's 50257 to 50304) and choose hidden sizes that divide evenly. The "
      "evidence names each op, its shape and the padding.";
  r.trainer_recommendation =
      "Pad the vocabulary to a multiple of 64 (--pad-vocab: 50257 to 50304), and keep --batch x "
      "--seq a multiple of 64.";
  rules.push_back(r);

  r = {};
  r.id = "materialized_attention";
  r.gpu_only = true;  // kernel sequences on streams
  r.metric = Metric::kMaterializedAttentionPct;
  r.threshold = 5, r.high_threshold = 15;
  r.title =
      "Attention writes its S x S scores to memory: softmax between batched GEMMs takes {value} "
      "% of the step";
  r.recommendation =
      "Use fused attention, which never materialises the scores: "
      "torch.nn.functional.scaled_dot_product_attention (FlashAttention or memory-efficient "
      "kernels; is_causal=True instead of a mask tensor), FlashAttention itself, or "
      "torch.compile. It also frees the S x S activations, so a larger batch or sequence fits.";
  r.gain_metric = Metric::kMaterializedAttentionGainPct;
  r.evidence = EvidenceKind::kAttentionKernels;
  r.basis =
      "Dao et al., \"FlashAttention\", NeurIPS 2022: attention is bound by the HBM traffic of "
      "the S x S matrices, and the fused kernel ran GPT-2's attention up to 7.6x faster (so at "
      "most 1 - 1/7.6 of the pattern's time goes); thresholds damscope's";
  r.cuda_recommendation =
      "Use a fused attention kernel that never materialises the scores: cuDNN's fused attention "
      "(its frontend's SDPA graph) or FlashAttention, instead of a GEMM, a softmax and a second "
      "GEMM through device memory. It also frees the S x S buffers, so a larger batch or "
      "sequence fits.";
  r.jax_recommendation =
      "Use fused attention, which never materialises the scores: jax.nn.dot_product_attention "
      "with implementation=\"cudnn\" (is_causal=True instead of a mask array) or a Pallas "
      "flash-attention kernel. It also frees the S x S activations, so a larger batch or "
      "sequence fits.";
  r.trainer_recommendation =
      "Use the tiled attention (--attention fused): it never writes the T x T scores to memory.";
  rules.push_back(r);

  r = {};
  r.id = "elementwise_fusion";
  r.gpu_only = true;  // kernel launches on streams
  r.metric = Metric::kElementwiseChainPct;
  r.threshold = 5, r.high_threshold = 15;
  r.title = "Chains of 3 or more short elementwise kernels take {value} % of the step";
  r.recommendation =
      "Each kernel of a chain reads its input from memory and writes its output back, and pays "
      "a launch: fuse the chain into one kernel with torch.compile (or a fused op: fused "
      "bias-GELU, fused optimizers with foreach/fused=True, apex or Liger kernels), so that the "
      "data makes one trip.";
  r.gain_metric = Metric::kElementwiseChainGainPct;
  r.evidence = EvidenceKind::kElementwiseChainKernels;
  r.basis =
      "n elementwise kernels of equal bytes move n times what one fused kernel moves, so fusion "
      "saves at most (n - 1)/n of a chain's time (the memory-bound kernels' roofline: Williams, "
      "Waterman, Patterson, CACM 2009); short: under 20 us; thresholds damscope's";
  r.cuda_recommendation =
      "Each kernel of a chain reads its input from memory and writes its output back, and pays "
      "a launch: fuse the chain into one kernel (by hand, or as a CUTLASS/cuBLASLt epilogue "
      "after the GEMM before it: bias, activation), so that the data makes one trip.";
  r.jax_recommendation =
      "XLA fuses elementwise chains inside one jitted function: chains of separate kernels mean "
      "the ops run outside jit (op by op), or something breaks the fusion (a host callback, a "
      "custom call). Jit the whole step, and look at the fusions with XLA_FLAGS=--xla_dump_to.";
  rules.push_back(r);

  r = {};
  r.id = "slow_steps";
  r.metric = Metric::kSlowStepPct;
  r.threshold = 3, r.high_threshold = 10;
  r.title = "{slow_steps}: {value} % of the analysed time beyond the median step";
  r.recommendation =
      "Find what the slow steps do that the others do not (the evidence names the range whose "
      "time grew) and take it off the training loop's critical path: write checkpoints "
      "asynchronously (torch.distributed.checkpoint.async_save, or a background thread from a "
      "copy in host memory), evaluate and log less often or on another process, keep shapes "
      "static so nothing recompiles (torch._dynamo.explain, mark_dynamic), and freeze Python's "
      "garbage collector over the loop (gc.freeze()) if it is what stalls.";
  r.gain_metric = Metric::kSlowStepPct;
  r.evidence = EvidenceKind::kSlowSteps;
  r.basis =
      "slow: over median + 3 x 1.4826 x MAD of the analysed steps (Leys et al., J. Exp. Soc. "
      "Psych. 49, 2013) and over 1.2x the median; bringing them to the median saves their "
      "excess; thresholds damscope's";
  r.cuda_recommendation =
      "Find what the slow steps do that the others do not (the evidence names the range whose "
      "time grew) and take it off the loop's critical path: write checkpoints from a copy in "
      "pinned host memory on a background thread (asynchronous I/O), evaluate and log less "
      "often or in another process, and allocate memory once before the loop rather than inside "
      "it.";
  r.jax_recommendation =
      "Find what the slow steps do that the others do not (the evidence names the range whose "
      "time grew) and take it off the step: checkpoint asynchronously (Orbax's "
      "AsyncCheckpointer), evaluate and log less often, and keep shapes static so that nothing "
      "recompiles (jax.config.update(\"jax_log_compiles\", True) names every compilation).";
  r.trainer_recommendation =
      "Where the evidence names a `checkpoint` range, the slow steps hold the trainer's own "
      "checkpoints (--checkpoint-every): checkpoint less often, or to faster storage; otherwise "
      "the evidence names the range whose time grew.";
  rules.push_back(r);

  r = {};
  r.id = "low_sm_efficiency";
  r.gpu_only = true;
  r.metric = Metric::kIdleSmPct;
  r.threshold = 10, r.high_threshold = 25;
  r.title = "For {value} % of the step the GPU is busy with kernels too small to fill its SMs";
  r.recommendation =
      "Give each kernel more parallel work: a larger batch (with gradient accumulation if "
      "memory is short), fused kernels instead of many small ones, fewer per-sample ops.";
  r.gain_metric = Metric::kIdleSmPct;
  r.evidence = EvidenceKind::kSmallGridKernels;
  r.basis =
      "PyTorch profiler TensorBoard plugin, est. SM efficiency (blocks per SM below 1 leaves "
      "SMs idle); threshold damscope's";
  rules.push_back(r);

  r = {};
  r.id = "low_occupancy";
  r.gpu_only = true;
  r.metric = Metric::kOccupancyPct;
  r.at_most = true;
  r.threshold = 25, r.high_threshold = kNever;
  r.severity = Severity::kLow;
  r.title = "Estimated achieved occupancy is {value} %";
  r.recommendation =
      "Few warps per SM limit latency hiding. Check the top kernels' registers per thread and "
      "shared memory in Nsight Compute's occupancy section; larger blocks or fewer registers help "
      "only kernels that are not already bandwidth-bound.";
  r.evidence = EvidenceKind::kMemoryBoundKernels;
  r.basis =
      "PyTorch profiler TensorBoard plugin, est. achieved occupancy (CUPTI occupancy "
      "calculator); threshold damscope's";
  rules.push_back(r);

  r = {};
  r.id = "memory_capacity";
  r.gpu_only = true;  // GPU memory counters
  r.metric = Metric::kPeakMemoryPct;
  r.threshold = 90, r.high_threshold = kNever;
  r.title = "GPU memory use peaks at {value} % of the device";
  r.recommendation =
      "Memory capacity limits the batch: keep the effective batch with gradient accumulation, "
      "trade compute for memory with activation checkpointing (torch.utils.checkpoint), shard "
      "optimizer states and gradients (ZeRO, FSDP), and keep weights and activations in bf16.";
  r.evidence = EvidenceKind::kMemoryCounters;
  r.basis = "PyTorch memory counters (memory_reserved); threshold damscope's";
  r.cuda_recommendation =
      "Memory capacity limits the batch: keep the effective batch by accumulating over smaller "
      "ones, recompute intermediates instead of keeping them, use narrower types (bf16/fp16), "
      "reuse buffers through the stream-ordered allocator's pools (cudaMallocAsync), and split "
      "the work over more GPUs.";
  r.jax_recommendation =
      "Memory capacity limits the batch: accumulate gradients over smaller batches, recompute "
      "activations (jax.checkpoint with a rematerialisation policy), keep parameters and "
      "activations in bf16, and shard parameters and optimizer state over the devices with "
      "jax.sharding.";
  r.trainer_recommendation =
      "Memory capacity limits the batch: a smaller --batch, --precision bf16, or a smaller "
      "--config.";
  rules.push_back(r);

  r = {};
  r.id = "unexplained_idle";
  r.metric = Metric::kOtherIdlePct;
  r.threshold = 10, r.high_threshold = 25;
  r.title = "The GPU idles {value} % of the step for reasons the trace does not show";
  r.cpu_title = "The CPU's ops stop {value} % of the step for reasons the trace does not show";
  r.recommendation =
      "Record the host in more detail: NVTX ranges around data loading, logging and "
      "checkpointing, or record with damscope (CPU sampling) to see what the launching thread "
      "does between GPU operations.";
  r.gain_metric = Metric::kOtherIdlePct;
  r.evidence = EvidenceKind::kUnexplainedGaps;
  r.basis = "damscope: idle time with no traced host activity on the launching thread";
  rules.push_back(r);

  r = {};
  r.id = "straggler";
  r.metric = Metric::kStragglerSlowdownPct;
  r.threshold = 5, r.high_threshold = 15;
  r.title = "This rank's steps take {value} % longer than the median rank's";
  r.recommendation =
      "Every other rank waits for this one at each collective. Look for what differs here: its "
      "data shard or sequence lengths, clock or thermal throttling (nvidia-smi -q -d "
      "PERFORMANCE), a slower link, other processes on its CPU or GPU.";
  r.gain_metric = Metric::kStragglerSlowdownPct;
  r.basis = "cross-rank step times; threshold damscope's";
  rules.push_back(r);

  r = {};
  r.id = "straggler_wait";
  r.metric = Metric::kStragglerWaitPct;
  r.threshold = 5, r.high_threshold = 15;
  r.title = "The other ranks wait {value} % of every step for this rank at the collectives";
  r.recommendation =
      "This rank starts the collectives last, and every other rank waits for it inside them, "
      "so all step times look alike. Look for what this rank does differently before its "
      "first collective: its data shard, extra host work, clock or thermal throttling "
      "(nvidia-smi -q -d PERFORMANCE), other processes on its CPU or GPU.";
  r.gain_metric = Metric::kStragglerWaitPct;
  r.basis = "cross-rank collective start skew (HTA's straggler analysis); threshold damscope's";
  rules.push_back(r);

  r = {};
  r.id = "low_mfu";
  r.metric = Metric::kMfuPct;
  r.at_most = true;
  r.threshold = 30, r.high_threshold = 10;
  r.title = "The run turns {value} % of the device's peak into model progress (MFU)";
  r.recommendation =
      "Under 30 % MFU the step has an addressable bottleneck: the verdict and the findings above "
      "say which. For scale, well-tuned large-model training reaches 40-55 % (PaLM 540B: 46.2 %; "
      "Megatron-LM's GPT-3 175B on A100s: 52 %), and 55-65 % is a practical ceiling: beyond it "
      "gains come from needing fewer FLOPs, not from running them faster.";
  r.basis =
      "Chowdhery et al., \"PaLM\", 2022, table 3 (46.2 % MFU); Narayanan et al., \"Efficient "
      "Large-Scale Language Model Training on GPU Clusters Using Megatron-LM\", SC 2021 (163 of "
      "312 TFLOP/s per A100 for 175B); the 30 % and 55-65 % bands are damscope's reading of them";
  rules.push_back(r);

  r = {};
  r.id = "impossible_mfu";
  r.kind = FindingKind::kTraceQuality;
  r.metric = Metric::kMfuImpossiblePct;
  r.threshold = 100, r.high_threshold = 100;
  r.title = "The MFU inputs cannot be right: the model's FLOPs would take {value} % of the peak";
  r.recommendation =
      "No run exceeds its device's peak, so an input is wrong: tokens per step counted over every "
      "rank instead of this one's, a parameter count that is not the model's, or the wrong device "
      "or precision for the peak. The MFU line of the summary names the likeliest.";
  r.basis = "MFU is a share of the peak (PaLM, appendix B): above 100 % it is not a measurement";
  rules.push_back(r);

  r = {};
  r.id = "memory_estimate";
  r.metric = Metric::kMemoryEstimatePct;
  r.threshold = 90, r.high_threshold = 100;
  r.title = "Training this model needs an estimated {value} % of the device's memory";
  r.recommendation =
      "Make room for the batch: keep weights and activations in bf16 (mixed precision), trade "
      "batch for steps with gradient accumulation, recompute activations in the backward pass "
      "(activation checkpointing), and shard the training state over the data-parallel ranks "
      "with ZeRO stage 1, 2 or 3 (FSDP); the summary's memory line gives the per-GPU figure of "
      "each stage.";
  r.basis =
      "Rajbhandari et al., \"ZeRO\", SC 2020 (16 bytes per parameter with Adam, per-stage "
      "sharding); Korthikanti et al., MLSys 2023 (activations); threshold damscope's: under 10 % "
      "headroom, a larger batch does not fit";
  r.cuda_recommendation =
      "Make room for the batch: narrower types (bf16/fp16) for weights and activations, smaller "
      "batches with accumulation, recomputation of intermediates instead of storing them, and "
      "the state split over several GPUs.";
  r.jax_recommendation =
      "Make room for the batch: bf16 parameters and activations, gradient accumulation over "
      "smaller batches, rematerialisation (jax.checkpoint), and parameters and optimizer state "
      "sharded over the devices with jax.sharding; the summary's memory line gives the per-GPU "
      "figure of each ZeRO-style stage.";
  r.trainer_recommendation =
      "Make room for the batch: a smaller --batch, --precision bf16, or a smaller --config; the "
      "summary's memory line gives the per-GPU figure.";
  rules.push_back(r);

  r = {};
  r.id = "lost_events";
  r.kind = FindingKind::kTraceQuality;
  r.metric = Metric::kLostEventsPct;
  r.threshold = 0.1, r.high_threshold = 1;
  r.title = "{value} % of the trace's events were lost on the way in";
  r.recommendation =
      "Every figure above is computed without them, so a stall or a kernel class can be under- "
      "or over-counted. Record again with more headroom: more or larger CUPTI buffers, fewer "
      "NVTX ranges per second or a shorter capture window, a faster disk for the trace. The stats "
      "table of the trace names what was lost.";
  r.evidence = EvidenceKind::kLossStats;
  r.basis =
      "loss counted by the importers and the collector (stats table; docs/trace-format.md, "
      "docs/collector.md); thresholds damscope's: from 1 % a whole second of a 100 s capture may "
      "be missing, enough to change the verdict";
  rules.push_back(r);

  r = {};
  r.id = "repaired_events";
  r.kind = FindingKind::kTraceQuality;
  r.metric = Metric::kRepairedEventsPct;
  r.threshold = 1, r.high_threshold = 10;
  r.severity = Severity::kLow;
  r.title = "{value} % of the trace's events were repaired or clipped on the way in";
  r.recommendation =
      "These events are kept, but with a made-up duration (a negative or missing one stored as "
      "zero, a truncated message) or cut at the edges of the capture, so the time they cover is "
      "uncertain. A longer capture window, or one that starts and ends between steps, clips "
      "fewer ranges.";
  r.evidence = EvidenceKind::kLossStats;
  r.basis =
      "repairs counted by the importers and the collector (stats table); threshold damscope's";
  rules.push_back(r);
  return rules;
}

Status overrideThreshold(std::vector<FindingRule>& rules, const std::string& assignment) {
  const size_t eq = assignment.find('=');
  if (eq == std::string::npos) {
    return Error("\"" + assignment + "\": expected RULE=VALUE, e.g. data_loading=10");
  }
  const std::string id = assignment.substr(0, eq);
  const std::string text = assignment.substr(eq + 1);
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(value)) {
    return Error(id + ": \"" + text + "\" is not a number");
  }
  for (FindingRule& rule : rules) {
    if (rule.id != id) continue;
    rule.threshold = value;
    if (!std::isnan(rule.high_threshold)) {
      rule.high_threshold = rule.at_most ? std::min(rule.high_threshold, value)
                                         : std::max(rule.high_threshold, value);
    }
    return okStatus();
  }
  std::string known;
  for (const FindingRule& rule : rules) known += (known.empty() ? "" : ", ") + rule.id;
  return Error(id + ": no such rule (rules: " + known + ")");
}

}  // namespace damscope
