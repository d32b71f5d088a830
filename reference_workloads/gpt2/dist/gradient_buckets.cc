// The bucket plan: see gradient_buckets.h.
#include "reference_workloads/gpt2/dist/gradient_buckets.h"

#include "reference_workloads/gpt2/model/parameters.h"

namespace damscope::gpt2 {

BucketPlan::BucketPlan(const ModelConfig& config, size_t bucket_bytes) {
  const ParameterLayout layout(config);
  const size_t bucket_floats = std::max<size_t>(1, bucket_bytes / sizeof(float));
  for (const auto& [site, layer] : stepOrder(config)) {
    if (!paramGradientsFinished(site).empty()) completions_.push_back({site, layer});
  }
  GradientBucket current;
  auto close = [&] {
    if (current.floats == 0) return;
    current.packed_offset = packed_floats_;
    packed_floats_ += current.floats;
    buckets_.push_back(std::move(current));
    current = {};
  };
  for (size_t c = 0; c < completions_.size(); ++c) {
    const GradientCompletion& done = completions_[c];
    for (ParamTensor t : paramGradientsFinished(done.site)) {
      // Per-layer tensors finish one layer's slice; the others finish whole.
      const bool per_layer = done.layer >= 0;
      const GradientSlice slice{per_layer ? layout.offset(t, done.layer) : layout.offset(t),
                                per_layer ? layout.layerStride(t) : layout.size(t)};
      if (current.floats > 0 && current.floats + slice.count > bucket_floats) close();
      current.slices.push_back(slice);
      current.floats += slice.count;
      current.ready_after = static_cast<int>(c);
    }
  }
  close();
}

}  // namespace damscope::gpt2
