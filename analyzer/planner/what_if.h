// What-if on a recorded run: "what would this run's step take if ...",
// estimated from the run's own measured breakdown (its RankResult: the
// scorecard's axes, the kernels' precision split, MFU, the memory estimate)
// rather than from a model of the hardware (issue 28 item 2). Pure
// arithmetic at render time; nothing here is stored.
//
// The step the what-ifs start from is the mean analysed step
// (WindowResult::avg_step_ns), split by the scorecard's shares of the
// analysed steps (scorecard.h: every nanosecond on exactly one axis). Each
// what-if changes some axes of that split and says in words what it assumes:
//   data=hidden      the data stall goes (a loader that keeps ahead of
//                    compute: prefetching workers, pinned memory); the GPU
//                    work stays as it is.
//   overlap=on       exposed communication hides behind computation, at most
//                    as much of it as there is kernel time to hide behind
//                    (compute- plus memory-bound time).
//   precision=P      (bf16, fp16, tf32) the FP32 GEMM/convolution/attention
//                    time on CUDA cores (KernelsResult::fp32_matrix_ns) runs
//                    at the device's P peak instead of its FP32 vector peak:
//                    time x fp32 peak / P peak (device_specs.h). No estimate
//                    without a device row (CPU runs, unknown devices, a peak
//                    given by hand) or without the row's P figure. Memory:
//                    the training state and activations at P
//                    (training_memory.h), where the model is known.
//   checkpointing=full       the backward pass recomputes the forward: +2N of
//                    the 6N FLOPs per token (Korthikanti et al., "Reducing
//                    Activation Recomputation in Large Transformer Models",
//                    MLSys 2023, section 5: full recomputation adds the
//                    forward, a third of the model's compute), so kernel
//                    time (compute- plus memory-bound) grows by a third.
//   checkpointing=selective  only the attention scores are recomputed:
//                    4 b s^2 h of the 72 b s h^2 + 12 b s^2 h FLOPs a layer
//                    trains with (ibid., section 4.2 and equation 7), a share
//                    s / (18 h + 3 s) of kernel time; needs the model's width
//                    and sequence length. Memory for both from
//                    training_memory.h with the run's micro-batch.
//   batch=N          N sequences per micro-batch instead of the run's b (the
//                    model annotation's batch, else tokens per step / sequence
//                    length, else samples per step): kernel time x N / b, the
//                    stalls as they are (the loader, launches and gradient
//                    all-reduce do not grow with the batch in this estimate).
//                    A device a small batch underfills runs a larger one in
//                    less than N / b the time, so growing a small batch is an
//                    upper bound. Model FLOPs per step scale by N / b too.
//                    Memory: activations at N (training_memory.h).
// MFU after = MFU before x step before / step after (the model's FLOPs per
// step are fixed but for batch=N: x N / b), and x the old peak / the new one
// where the precision moves MFU's peak (mfu.h measures against the run's
// precision's peak).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/analyses/training_memory.h"
#include "analyzer/devices/device_specs.h"
#include "analyzer/result/analysis_result.h"
#include "base/result.h"

namespace damscope {

enum class WhatIfKind : uint8_t { kHideData, kOverlap, kPrecision, kCheckpointing, kBatch };

// One "KEY=VALUE" request.
struct WhatIf {
  WhatIfKind kind = WhatIfKind::kHideData;
  Precision precision = Precision::kBf16;              // kPrecision
  Checkpointing checkpointing = Checkpointing::kFull;  // kCheckpointing
  int64_t batch = 0;                                   // kBatch: sequences per micro-batch
  bool operator==(const WhatIf&) const = default;
};

// The keys and values parseWhatIf accepts, for messages and help:
// "data=hidden, overlap=on, precision=bf16|fp16|tf32, checkpointing=full|selective, batch=N".
std::string_view whatIfKeys();

// "precision=bf16" -> the request; the error quotes the text and lists the keys.
Result<WhatIf> parseWhatIf(std::string_view text);

// "precision=bf16", as parseWhatIf reads it.
std::string toText(const WhatIf& what_if);

// One estimate. Step times in ns per step, memory in bytes per GPU.
struct WhatIfEstimate {
  std::string request;  // "precision=bf16", or the requests joined by " + "
  std::string label;    // for people: "move FP32 matrix math to bf16 tensor cores"
  // False: no estimate (the run lacks what it needs); `basis` says why and
  // the "after" figures equal the "before" ones.
  bool estimated = false;
  std::string basis;  // the assumption in words, or why there is no estimate
  double step_before_ns = 0;
  double step_after_ns = 0;
  std::optional<double> mfu_before_pct;
  std::optional<double> mfu_after_pct;
  std::optional<double> memory_before_bytes;
  std::optional<double> memory_after_bytes;
  double changePct() const;  // of the step time, negative when faster
  bool operator==(const WhatIfEstimate&) const = default;
};

struct WhatIfReport {
  std::string source;  // the run's store or input
  std::string device;  // the device the peaks are of, as MFU names it
  double step_ns = 0;  // the mean analysed step
  int64_t steps = 0;   // analysed steps
  // Each request alone, against the recorded run, in the order given.
  std::vector<WhatIfEstimate> each;
  // With two or more requests: all of them, applied in order.
  std::optional<WhatIfEstimate> combined;
  bool operator==(const WhatIfReport&) const = default;
};

// The estimates for `requests` on one rank's result; an error when the run
// has no measured breakdown to start from (no scorecard or no steps).
Result<WhatIfReport> estimateWhatIfs(const RankResult& run, const std::vector<WhatIf>& requests);

// The what-ifs whose measured basis in `run` is not zero: a data stall,
// exposed communication, FP32 matrix time on a device whose row has a bf16
// (else fp16) figure. What the report's plan section shows; checkpointing
// trades time for memory and is left to the reader's question. Empty when
// the run has no breakdown.
std::vector<WhatIf> applicableWhatIfs(const RankResult& run);

}  // namespace damscope
