// Training memory by component: see training_memory.h.
#include "analyzer/analyses/training_memory.h"

#include <algorithm>

namespace damscope {

std::string_view toText(Checkpointing checkpointing) {
  switch (checkpointing) {
    case Checkpointing::kNone:
      return "none";
    case Checkpointing::kSelective:
      return "selective";
    case Checkpointing::kFull:
      return "full";
  }
  return "none";
}

std::optional<Checkpointing> checkpointingFromText(std::string_view text) {
  for (Checkpointing c : {Checkpointing::kNone, Checkpointing::kSelective, Checkpointing::kFull}) {
    if (toText(c) == text) return c;
  }
  return std::nullopt;
}

bool isSixteenBitOrLess(Precision precision) {
  // FP8 training keeps its weights and gradients in 16 bits and casts to FP8
  // for the matrix multiplies (Micikevicius et al., "FP8 Formats for Deep
  // Learning", 2022, section 4).
  return precision == Precision::kFp16 || precision == Precision::kBf16 ||
         precision == Precision::kFp8;
}

TrainingState trainingState(double params, Precision precision, bool master_weights) {
  const bool mixed = isSixteenBitOrLess(precision);
  const double value_bytes = mixed ? 2 : precision == Precision::kFp64 ? 8 : 4;
  // Adam keeps two moments in fp32, or in fp64 when training is fp64.
  const double moment_bytes = precision == Precision::kFp64 ? 8 : 4;
  TrainingState s;
  s.weights = params * value_bytes;
  s.gradients = params * value_bytes;
  s.master_weights = mixed && master_weights ? params * 4 : 0;
  s.optimizer = params * 2 * moment_bytes;
  return s;
}

TrainingState shardedState(const TrainingState& state, int zero_stage, double ranks) {
  TrainingState s = state;
  const double d = std::max(ranks, 1.0);
  if (zero_stage >= 1) {
    s.optimizer /= d;
    s.master_weights /= d;
  }
  if (zero_stage >= 2) s.gradients /= d;
  if (zero_stage >= 3) s.weights /= d;
  return s;
}

double activationBytes(const ActivationShape& shape, Precision precision,
                       Checkpointing checkpointing, bool scores_stored) {
  const double s = shape.seq_len, b = shape.micro_batch, h = shape.width, a = shape.heads;
  if (!(s > 0 && b > 0 && h > 0 && a > 0 && shape.layers > 0)) return 0;
  const double scores = 5 * a * s / h;
  const double stored_layer = s * b * h * (34 + (scores_stored ? scores : 0));
  double bytes = 0;
  switch (checkpointing) {
    case Checkpointing::kNone:
      bytes = stored_layer * shape.layers;
      break;
    case Checkpointing::kSelective:
      bytes = s * b * h * 34 * shape.layers;
      break;
    case Checkpointing::kFull:
      bytes = 2 * s * b * h * shape.layers + stored_layer;
      break;
  }
  return isSixteenBitOrLess(precision) ? bytes : 2 * bytes;
}

}  // namespace damscope
