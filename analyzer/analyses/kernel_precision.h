// The arithmetic precision a matrix kernel (GEMM, convolution, attention)
// runs at, read from its name, and the precision a run's matrix math mostly
// ran at: the peak MFU and the roofline compare against (mfu.h, roofline.h).
//
// Names say it in the library's conventions: cuBLAS/cuDNN type letters
// (volta_sgemm = FP32, hgemm/h1688/h16816 = FP16 HMMA), CUTLASS instruction
// shapes (tensorop_s1688 and s16816 = TF32 on Ampere and later; tensorop_h*
// = FP16, tensorop_bf16*), operand type words (bf16, fp16, half, tf32, e4m3 /
// e5m2 = FP8), cuDNN's <float> engines (FP32 SIMT) and winograd/implicit
// sgemm (FP32). A name that says nothing is unknown, never guessed.
// (NVIDIA, "Matrix Multiplication Background User's Guide" and the cuBLAS
// kernel naming of CUTLASS's profiler; CUTLASS docs, "Terminology".)
#pragma once

#include <optional>
#include <string_view>

#include "analyzer/analyses/analysis_input.h"
#include "analyzer/analyses/analysis_window.h"
#include "analyzer/devices/device_specs.h"

namespace damscope {

std::optional<Precision> precisionOfKernelName(std::string_view name);

// The precision the window's matrix kernels spent the most time in, with the
// share of matrix time it covers; empty when no matrix kernel's name says.
struct DominantPrecision {
  Precision precision = Precision::kFp32;
  double share_pct = 0;  // of the matrix kernel time whose precision is known
};
std::optional<DominantPrecision> dominantMatrixPrecision(const AnalysisInput& input,
                                                         const WindowReport& window);

// The precision the run's peak is taken at: the user's, else the model
// annotation's "precision", else the dominant matrix precision, else FP32.
enum class PrecisionSource : uint8_t { kUser, kAnnotation, kKernelNames, kDefault };
constexpr size_t kPrecisionSourceCount = 4;
std::string_view toText(PrecisionSource source);

struct RunPrecision {
  Precision precision = Precision::kFp32;
  PrecisionSource source = PrecisionSource::kDefault;
  std::optional<double> share_pct;  // kKernelNames: share of matrix time
  bool operator==(const RunPrecision&) const = default;
};
RunPrecision runPrecision(const AnalysisInput& input, const WindowReport& window,
                          std::optional<Precision> user);

}  // namespace damscope
