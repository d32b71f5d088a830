// Data parallel's step: averaging every rank's gradients between backward()
// and the optimizer, bucket by bucket (gradient_buckets.h).
//
//   overlap off  after the backward pass, every bucket is packed and its
//                all-reduce started, then finish() waits: the whole
//                communication is exposed, after the compute.
//   overlap on   the model reports finished gradients (GradientListener);
//                a bucket is packed and its all-reduce started as soon as
//                its last gradient is issued, so it runs while the backward
//                pass goes on; finish() starts nothing new and only waits.
// Either way finish() then unpacks the averaged buckets into the gradient
// buffer, so the optimizer (and the global-norm clip before it) sees the
// same averaged gradients on every rank.
#pragma once

#include <cstddef>
#include <memory>

#include "reference_workloads/gpt2/dist/communicator.h"
#include "reference_workloads/gpt2/dist/gradient_buckets.h"
#include "reference_workloads/gpt2/model/backend.h"
#include "reference_workloads/gpt2/model/device_buffer.h"
#include "reference_workloads/gpt2/model/gradient_listener.h"
#include "base/result.h"

namespace damscope::gpt2 {

class GradientSync final : public GradientListener {
 public:
  // grads: the model's gradient buffer (backend memory, plan-sized layout).
  // backend and communicator must outlive this object.
  static Result<std::unique_ptr<GradientSync>> create(Backend& backend, Communicator& comm,
                                                      BucketPlan plan, bool overlap, float* grads);

  void gradientsReady(OpSite site, int layer) override;
  // After backward(): starts what has not started, waits, unpacks.
  void finish();

  const BucketPlan& plan() const { return plan_; }
  bool overlap() const { return overlap_; }

 private:
  GradientSync(Backend& backend, Communicator& comm, BucketPlan plan, bool overlap, float* grads);
  void start(int bucket);

  Backend& backend_;
  Communicator& comm_;
  BucketPlan plan_;
  bool overlap_;
  float* grads_;
  DeviceBuffer<float> packed_;
  size_t completed_ = 0;   // completions seen this step
  size_t next_bucket_ = 0;  // buckets started this step
};

}  // namespace damscope::gpt2
