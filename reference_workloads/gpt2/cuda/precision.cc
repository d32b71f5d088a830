// Names of the CUDA backend's precision and attention choices (precision.h).
#include "reference_workloads/gpt2/cuda/precision.h"

#include <string>

namespace damscope::gpt2 {

Result<Precision> parsePrecision(std::string_view text) {
  if (text == "fp32") return Precision::kFp32;
  if (text == "tf32") return Precision::kTf32;
  if (text == "bf16") return Precision::kBf16;
  return Error("unknown precision '" + std::string(text) + "' (fp32, tf32 or bf16)");
}

const char* precisionName(Precision precision) {
  switch (precision) {
    case Precision::kFp32:
      return "fp32";
    case Precision::kTf32:
      return "tf32";
    case Precision::kBf16:
      return "bf16";
  }
  return "fp32";
}

Result<AttentionKind> parseAttention(std::string_view text) {
  if (text == "naive") return AttentionKind::kNaive;
  if (text == "fused") return AttentionKind::kFused;
  return Error("unknown attention '" + std::string(text) + "' (naive or fused)");
}

const char* attentionName(AttentionKind kind) {
  return kind == AttentionKind::kNaive ? "naive" : "fused";
}

}  // namespace damscope::gpt2
