// Bucketed gradient averaging: see gradient_sync.h.
#include "reference_workloads/gpt2/dist/gradient_sync.h"

#include <cassert>

namespace damscope::gpt2 {

GradientSync::GradientSync(Backend& backend, Communicator& comm, BucketPlan plan, bool overlap,
                           float* grads)
    : backend_(backend), comm_(comm), plan_(std::move(plan)), overlap_(overlap), grads_(grads) {}

Result<std::unique_ptr<GradientSync>> GradientSync::create(Backend& backend, Communicator& comm,
                                                           BucketPlan plan, bool overlap,
                                                           float* grads) {
  std::unique_ptr<GradientSync> sync(
      new GradientSync(backend, comm, std::move(plan), overlap, grads));
  DAMSCOPE_ASSIGN_OR_RETURN(sync->packed_,
                            DeviceBuffer<float>::allocate(backend, sync->plan_.packedFloats(),
                                                          "gradient buckets"));
  return sync;
}

void GradientSync::start(int b) {
  const GradientBucket& bucket = plan_.buckets()[b];
  float* packed = packed_.get() + bucket.packed_offset;
  for (const GradientSlice& s : bucket.slices) {
    backend_.copy(packed, grads_ + s.offset, s.count * sizeof(float));
    packed += s.count;
  }
  comm_.startAllReduce(packed_.get() + bucket.packed_offset, bucket.floats, b);
}

void GradientSync::gradientsReady(OpSite site, int layer) {
  // The model reports completions in the order the plan was made from.
  [[maybe_unused]] const std::vector<GradientCompletion>& completions = plan_.completions();
  assert(completed_ < completions.size() && completions[completed_].site == site &&
         completions[completed_].layer == layer);
  (void)site, (void)layer;
  const int done = static_cast<int>(completed_++);
  if (!overlap_) return;
  const std::vector<GradientBucket>& buckets = plan_.buckets();
  while (next_bucket_ < buckets.size() && buckets[next_bucket_].ready_after <= done) {
    start(static_cast<int>(next_bucket_++));
  }
}

void GradientSync::finish() {
  const std::vector<GradientBucket>& buckets = plan_.buckets();
  while (next_bucket_ < buckets.size()) start(static_cast<int>(next_bucket_++));
  comm_.wait();
  for (const GradientBucket& bucket : buckets) {
    const float* packed = packed_.get() + bucket.packed_offset;
    for (const GradientSlice& s : bucket.slices) {
      backend_.copy(grads_ + s.offset, packed, s.count * sizeof(float));
      packed += s.count;
    }
  }
  completed_ = 0;
  next_bucket_ = 0;
}

}  // namespace damscope::gpt2
