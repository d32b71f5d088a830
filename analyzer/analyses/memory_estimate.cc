// The device memory training needs: see memory_estimate.h.
#include "analyzer/analyses/memory_estimate.h"

#include <cmath>

namespace damscope {

std::optional<MemoryEstimate> estimateTrainingMemory(const AnalysisInput& input,
                                                     const std::optional<ModelShape>& model,
                                                     Precision precision, double tokens_per_step,
                                                     std::optional<double> device_bytes) {
  if (!model || !(model->params > 0)) return std::nullopt;
  MemoryEstimate e;
  const double n = model->params;
  e.state_bytes = 16 * n;
  const TraceTables& t = input.tables();
  for (int32_t w : t.processes.world_size) {
    if (!isNull(w) && w > e.ranks) e.ranks = w;
  }
  const double ranks = e.ranks;
  e.zero_state_bytes = {(4 + 12 / ranks) * n, (2 + 14 / ranks) * n, 16 / ranks * n};

  if (const auto batch = input.model().batch) {
    e.micro_batch = *batch;
  } else if (model->seq_len && std::isfinite(tokens_per_step) && tokens_per_step > 0) {
    e.micro_batch =
        std::max<int64_t>(1, std::llround(tokens_per_step / static_cast<double>(*model->seq_len)));
    e.micro_batch_from_tokens = true;
  }
  if (model->layers && model->d_model && model->seq_len && model->heads && e.micro_batch > 0) {
    const double s = static_cast<double>(*model->seq_len), b = static_cast<double>(e.micro_batch);
    const double h = static_cast<double>(*model->d_model), a = static_cast<double>(*model->heads);
    const double per_layer = s * b * h * (34 + 5 * a * s / h);
    const bool sixteen_bit = precision == Precision::kBf16 || precision == Precision::kFp16 ||
                             precision == Precision::kFp8;
    e.activation_bytes = per_layer * static_cast<double>(*model->layers) * (sixteen_bit ? 1 : 2);
  }
  e.total_bytes = e.state_bytes + e.activation_bytes.value_or(0);
  if (device_bytes && *device_bytes > 0) {
    e.device_bytes = device_bytes;
    e.pct_of_device = 100.0 * e.total_bytes / *device_bytes;
  }
  return e;
}

}  // namespace damscope
