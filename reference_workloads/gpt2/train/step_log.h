// What the trainer prints per step: llm.c's step line on stdout,
//   step    3/20 | loss 5.123456 | 41.2 ms | 49,700 tok/s | MFU 34.1%
// and, with --log-json FILE, one JSON object per line:
//   {"step":3,"loss":5.12345648,"step_ms":41.2,"tokens_per_s":49700,"mfu_pct":34.1,
//    "lr":0.0003,"grad_norm":1.234}
// step counts from 1; step_ms is the whole step, the wait for data included;
// loss has 9 significant digits, enough to tell any two floats apart.
#pragma once

#include <cstdint>
#include <string>

namespace damscope::gpt2 {

struct StepRecord {
  int step = 0;   // 1-based
  int steps = 0;  // of the run
  float loss = 0;
  double step_ms = 0;
  double tokens_per_s = 0;
  double mfu_pct = 0;
  float lr = 0;
  float grad_norm = 0;
};

std::string stepLine(const StepRecord& r);
std::string stepJson(const StepRecord& r);
// 49700 -> "49,700"
std::string withThousands(int64_t n);

}  // namespace damscope::gpt2
