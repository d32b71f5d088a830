// Learning-rate schedules: see lr_schedule.h.
#include "reference_workloads/gpt2/train/lr_schedule.h"

#include <cmath>
#include <numbers>
#include <string>

namespace damscope::gpt2 {

Result<LrSchedule> parseLrSchedule(std::string_view name) {
  if (name == "constant") return LrSchedule::kConstant;
  if (name == "cosine") return LrSchedule::kCosine;
  return Error("unknown learning-rate schedule '" + std::string(name) +
               "' (expected constant or cosine)");
}

std::string_view lrScheduleName(LrSchedule s) {
  return s == LrSchedule::kCosine ? "cosine" : "constant";
}

float learningRate(const LrSettings& s, int step) {
  if (step < s.warmup_steps) return s.lr * float(step + 1) / float(s.warmup_steps);
  if (s.schedule == LrSchedule::kConstant) return s.lr;
  constexpr float kFinalFraction = 0.1f;  // GPT-3: decay to 10% of the peak
  const int decay_steps = s.total_steps - s.warmup_steps;
  if (decay_steps <= 1) return s.lr;
  const double progress = double(step - s.warmup_steps) / double(decay_steps - 1);
  const double cosine = 0.5 * (1.0 + std::cos(std::numbers::pi * std::fmin(progress, 1.0)));
  return static_cast<float>(s.lr * (kFinalFraction + (1.0 - kFinalFraction) * cosine));
}

}  // namespace damscope::gpt2
