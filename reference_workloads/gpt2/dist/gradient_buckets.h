// Which gradients are all-reduced together, and when each group is ready:
// PyTorch DDP's gradient buckets (Li et al., "PyTorch Distributed", VLDB
// 2020, section 3.2.3). One all-reduce per gradient tensor costs a launch
// and a latency each; one for all gradients cannot start before the backward
// pass ends. Buckets of about --bucket-mb megabytes, filled in the order the
// backward pass finishes gradients, let each bucket's all-reduce start as
// soon as its last gradient is final and run under the rest of the backward
// pass (--overlap).
//
// The parameter layout is tensor-major (all layers of qkvw, then all of
// attprojw, ...: parameters.h), while the backward pass finishes gradients
// layer by layer, last layer first. A bucket is therefore a list of slices
// (one tensor of one layer each) that are packed into one contiguous buffer
// for the collective and unpacked after it, as DDP copies gradients into its
// bucket views. A slice larger than a bucket gets a bucket to itself; slices
// are never split.
#pragma once

#include <cstddef>
#include <vector>

#include "reference_workloads/gpt2/model/config.h"
#include "reference_workloads/gpt2/model/op_sites.h"

namespace damscope::gpt2 {

struct GradientSlice {
  size_t offset = 0;  // floats from the start of the gradient buffer
  size_t count = 0;   // floats
};

struct GradientBucket {
  std::vector<GradientSlice> slices;  // in the order they become final
  size_t packed_offset = 0;           // floats from the start of the packed buffer
  size_t floats = 0;                  // sum of the slices' counts
  int ready_after = 0;  // index of the backward completion (BucketPlan::completions) that finishes it
};

// A completion: the backward op at (site, layer) finished these gradients.
struct GradientCompletion {
  OpSite site;
  int layer = -1;
};

class BucketPlan {
 public:
  // Buckets of at most bucket_bytes (> 0) of fp32 gradients, in completion order.
  BucketPlan(const ModelConfig& config, size_t bucket_bytes);

  const std::vector<GradientBucket>& buckets() const { return buckets_; }
  // Every (site, layer) of backward() that finishes gradients, in order.
  const std::vector<GradientCompletion>& completions() const { return completions_; }
  // Floats of the packed buffer: every parameter gradient once.
  size_t packedFloats() const { return packed_floats_; }

 private:
  std::vector<GradientCompletion> completions_;
  std::vector<GradientBucket> buckets_;
  size_t packed_floats_ = 0;
};

}  // namespace damscope::gpt2
