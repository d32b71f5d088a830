// What an analysis could not compute, and why. Where the user can supply what
// is missing (the device's peak, the model's size, the tokens per step) the
// note says which, as a Remedy, and each front end names it in its own terms:
// the CLI its flags, the GUI its settings. Libraries never name a front end's
// controls.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace damscope {

enum class Remedy : uint8_t {
  kNone,
  kDevice,  // the device (a row of the device table) or its peak FLOP/s
  kModel,   // the model: a preset, or its parameter count and shape
  kTokens,  // tokens (or samples) per step
};
constexpr size_t kRemedyCount = 4;
std::string_view toText(Remedy remedy);  // "", "device", "model", "tokens"

struct AnalysisNote {
  std::string analysis;  // "steps", "window", "mfu", ...
  std::string message;
  Remedy remedy = Remedy::kNone;
  bool operator==(const AnalysisNote&) const = default;
};

}  // namespace damscope
