// The learning rate at each step: constant, or cosine decay after a linear
// warm-up (as GPT-3 trains, Brown et al. 2020, appendix B: linear warm-up,
// then cosine decay to 10% of the peak rate, over the run's steps).
#pragma once

#include <string_view>

#include "base/result.h"

namespace damscope::gpt2 {

enum class LrSchedule { kConstant, kCosine };

Result<LrSchedule> parseLrSchedule(std::string_view name);
std::string_view lrScheduleName(LrSchedule s);

struct LrSettings {
  float lr = 3e-4f;  // the peak rate
  int warmup_steps = 0;
  LrSchedule schedule = LrSchedule::kConstant;
  int total_steps = 1;
};

// The rate for step (0-based). Warm-up applies to both schedules: step s <
// warmup runs at lr (s + 1) / warmup. After it the constant schedule holds
// lr; the cosine one decays from lr at the end of warm-up to 0.1 lr at the
// last step.
float learningRate(const LrSettings& settings, int step);

}  // namespace damscope::gpt2
