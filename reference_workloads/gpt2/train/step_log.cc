// Step lines: see step_log.h.
#include "reference_workloads/gpt2/train/step_log.h"

#include <cmath>
#include <cstdio>

namespace damscope::gpt2 {
namespace {

// Non-finite values (a diverged loss) are written as null: JSON has no NaN.
std::string number(double v, const char* format) {
  if (!std::isfinite(v)) return "null";
  char text[48];
  std::snprintf(text, sizeof text, format, v);
  return text;
}

}  // namespace

std::string withThousands(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n), out = n < 0 ? "-" : "";
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string stepLine(const StepRecord& r) {
  char text[160];
  std::snprintf(text, sizeof text, "step %4d/%d | loss %.6f | %.1f ms | %s tok/s | MFU %.1f%%",
                r.step, r.steps, r.loss, r.step_ms,
                withThousands(std::llround(r.tokens_per_s)).c_str(), r.mfu_pct);
  return text;
}

std::string stepJson(const StepRecord& r) {
  return "{\"step\":" + std::to_string(r.step) + ",\"loss\":" + number(r.loss, "%.9g") +
         ",\"step_ms\":" + number(r.step_ms, "%.3f") +
         ",\"tokens_per_s\":" + number(r.tokens_per_s, "%.1f") +
         ",\"mfu_pct\":" + number(r.mfu_pct, "%.2f") + ",\"lr\":" + number(r.lr, "%.6g") +
         ",\"grad_norm\":" + number(r.grad_norm, "%.6g") + "}";
}

}  // namespace damscope::gpt2
