// The recording's framework: see framework.h.
#include "analyzer/analyses/framework.h"

#include <fmt/format.h>

namespace damscope {
namespace {

bool pytorchName(std::string_view s) {
  return s == "cpu_op" || s == "python_function" || s.starts_with("aten::") ||
         s.starts_with("ProfilerStep#") || s.starts_with("enumerate(DataLoader)");
}

// XLA:GPU names its kernels after the fusion they run ("fusion", "fusion.12",
// "loop_add_fusion", "input_reduce_fusion_3"); the JAX profiler names the
// program XlaModule and the jitted functions jit_<name>.
bool xlaName(std::string_view s) {
  if (s.starts_with("XlaModule") || s.starts_with("jit_") || s.starts_with("xla::")) return true;
  if (s == "fusion" || s.starts_with("fusion.") || s.starts_with("fusion_")) return true;
  return (s.starts_with("loop_") || s.starts_with("input_")) &&
         s.find("fusion") != std::string_view::npos;
}

}  // namespace

std::string_view toText(Framework framework) {
  switch (framework) {
    case Framework::kCuda:
      return "cuda";
    case Framework::kPyTorch:
      return "pytorch";
    case Framework::kJax:
      return "jax";
    case Framework::kTrainer:
      return "trainer";
  }
  return "cuda";
}

std::string_view frameworkLabel(Framework framework) {
  switch (framework) {
    case Framework::kCuda:
      return "CUDA (no framework)";
    case Framework::kPyTorch:
      return "PyTorch";
    case Framework::kJax:
      return "JAX/XLA";
    case Framework::kTrainer:
      return "gpt2-train (the bundled trainer)";
  }
  return "CUDA (no framework)";
}

FrameworkReport detectFramework(const AnalysisInput& input) {
  const ModelAnnotation& model = input.model();
  if (model.present() && model.model == "gpt2" && model.device.kind) {
    return {Framework::kTrainer, "the trainer's model annotation"};
  }
  // Every name the trace holds is in its string pool once: the signs are
  // looked for there rather than per event. PyTorch first: a PyTorch program
  // may call into XLA-named code, not the other way round.
  const StringPool& strings = input.tables().strings;
  std::string xla;
  for (size_t i = 0; i < strings.size(); ++i) {
    const std::string_view s = strings.get(StringId{static_cast<int32_t>(i)});
    if (pytorchName(s)) return {Framework::kPyTorch, fmt::format("\"{}\"", s.substr(0, 60))};
    if (xla.empty() && xlaName(s)) xla = fmt::format("\"{}\"", s.substr(0, 60));
  }
  if (!xla.empty()) return {Framework::kJax, xla};
  return {Framework::kCuda, ""};
}

}  // namespace damscope
