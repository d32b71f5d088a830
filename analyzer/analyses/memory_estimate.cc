// The device memory training needs: see memory_estimate.h.
#include "analyzer/analyses/memory_estimate.h"

#include <cmath>

#include "analyzer/analyses/training_memory.h"

namespace damscope {

std::optional<MemoryEstimate> estimateTrainingMemory(const AnalysisInput& input,
                                                     const std::optional<ModelShape>& model,
                                                     Precision precision, double tokens_per_step,
                                                     std::optional<double> device_bytes) {
  if (!model || !(model->params > 0)) return std::nullopt;
  MemoryEstimate e;
  const double n = model->params;
  // Master weights in mixed precision: 16 bytes per parameter either way.
  const TrainingState state = trainingState(n, precision, true);
  e.state_bytes = state.total();
  const TraceTables& t = input.tables();
  for (int32_t w : t.processes.world_size) {
    if (!isNull(w) && w > e.ranks) e.ranks = w;
  }
  for (int stage = 1; stage <= 3; ++stage) {
    e.zero_state_bytes[static_cast<size_t>(stage - 1)] = shardedState(state, stage, e.ranks).total();
  }

  if (const auto batch = input.model().batch) {
    e.micro_batch = *batch;
  } else if (model->seq_len && std::isfinite(tokens_per_step) && tokens_per_step > 0) {
    e.micro_batch =
        std::max<int64_t>(1, std::llround(tokens_per_step / static_cast<double>(*model->seq_len)));
    e.micro_batch_from_tokens = true;
  }
  if (model->layers && model->d_model && model->seq_len && model->heads && e.micro_batch > 0) {
    const ActivationShape shape{.seq_len = static_cast<double>(*model->seq_len),
                                .micro_batch = static_cast<double>(e.micro_batch),
                                .width = static_cast<double>(*model->d_model),
                                .heads = static_cast<double>(*model->heads),
                                .layers = static_cast<double>(*model->layers)};
    e.activation_bytes = activationBytes(shape, precision, Checkpointing::kNone, true);
  }
  e.total_bytes = e.state_bytes + e.activation_bytes.value_or(0);
  if (device_bytes && *device_bytes > 0) {
    e.device_bytes = device_bytes;
    e.pct_of_device = 100.0 * e.total_bytes / *device_bytes;
  }
  return e;
}

}  // namespace damscope
