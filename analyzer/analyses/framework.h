// Which framework recorded the run, read from what the trace holds, so that
// every recommendation speaks it (issue 29 §5): PyTorch advice for a PyTorch
// trace, XLA's for JAX, plain CUDA practice for a CUDA program, the bundled
// trainer's own flags for the trainer.
//
// Signs, first match wins:
//   trainer  the damscope model annotation of the bundled GPT-2 trainer
//            ({"model":"gpt2",...,"device":{...}}, model_annotation.h)
//   pytorch  Kineto's categories and names: cpu_op or python_function
//            ranges, ATen ops ("aten::"), ProfilerStep#N, DataLoader ranges
//   jax      XLA's names: ranges or kernels named XlaModule, jit_..., or
//            XLA's fusion kernels (loop_fusion, input_fusion, ...: the names
//            XLA:GPU gives the kernels it emits), as the JAX profiler and
//            nsys record them
//   cuda     none of those: a CUDA (or MPI + CUDA) program, raw kernels
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "analyzer/analyses/analysis_input.h"

namespace damscope {

enum class Framework : uint8_t { kCuda, kPyTorch, kJax, kTrainer };
constexpr size_t kFrameworkCount = 4;
std::string_view toText(Framework framework);  // "cuda", "pytorch", "jax", "trainer"
// "PyTorch", "JAX/XLA", "CUDA (no framework)", "gpt2-train (the bundled trainer)"
std::string_view frameworkLabel(Framework framework);

struct FrameworkReport {
  Framework framework = Framework::kCuda;
  std::string sign;  // what gave it away, e.g. `ranges "aten::mm" (cpu_op)`; "" for cuda
  bool operator==(const FrameworkReport&) const = default;
};

FrameworkReport detectFramework(const AnalysisInput& input);

}  // namespace damscope
