// The datasheet peak table (device_peaks.h).
//
// Sources (dense; the datasheets mark sparse tensor-core figures with an
// asterisk, "with sparsity", which are twice the dense rate):
//   A100: NVIDIA A100 Tensor Core GPU datasheet (2021): FP32 19.5 TFLOPS,
//         TF32 156, BF16 312 (SXM4 and PCIe alike).
//   H100: NVIDIA H100 Tensor Core GPU datasheet (2023): SXM FP32 67,
//         TF32 989*, BF16 1,979*; PCIe FP32 51, TF32 756*, BF16 1,513*;
//         NVL FP32 60, TF32 835*, BF16 1,671*.
//   H200: NVIDIA H200 Tensor Core GPU datasheet (2024): SXM as H100 SXM;
//         NVL FP32 60, TF32 835*, BF16 1,671*.
//   GH200: NVIDIA GH200 Grace Hopper Superchip datasheet (2023): the Hopper
//         GPU's FP32 67, TF32 494, BF16 990 (dense).
//   L40S: NVIDIA L40S datasheet (2023): FP32 91.6, TF32 183 | 366*, BF16
//         362.05 | 733* (its dense figure, a little under half the sparse one).
#include "reference_workloads/gpt2/cuda/device_peaks.h"

namespace damscope::gpt2 {
namespace {

struct PeakRow {
  std::string_view name_part;  // matched as a substring; the first matching row wins
  double fp32_tflops, tf32_tflops, bf16_tflops;
};

// More specific names first: "GH200" contains "H200", "H100 NVL" contains "H100".
constexpr PeakRow kPeaks[] = {
    {"GH200", 67.0, 494.0, 990.0},     {"H200 NVL", 60.0, 417.5, 835.5},
    {"H200", 67.0, 494.5, 989.5},      {"H100 NVL", 60.0, 417.5, 835.5},
    {"H100 PCIe", 51.0, 378.0, 756.5}, {"H100", 67.0, 494.5, 989.5},
    {"A100", 19.5, 156.0, 312.0},      {"L40S", 91.6, 183.0, 362.05},
};

}  // namespace

double datasheetPeakFlopsPerS(std::string_view device_name, Precision precision) {
  for (const PeakRow& row : kPeaks) {
    if (device_name.find(row.name_part) == std::string_view::npos) continue;
    switch (precision) {
      case Precision::kFp32:
        return row.fp32_tflops * 1e12;
      case Precision::kTf32:
        return row.tf32_tflops * 1e12;
      case Precision::kBf16:
        return row.bf16_tflops * 1e12;
    }
  }
  return 0;
}

}  // namespace damscope::gpt2
