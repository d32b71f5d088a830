// The trainer's datasheet peaks (reference_workloads/gpt2/cuda/device_peaks.h)
// and the analyzer's device table (analyzer/devices/device_specs.h) are two
// copies of NVIDIA's figures: the trainer depends on base/ only and cannot
// read the analyzer's table. This holds them equal: for every name the
// analyzer's table gives a GPU that the trainer's table also knows, the two
// give the same FP32 (CUDA cores), TF32 and BF16 (tensor cores, dense) peak,
// so the trainer's MFU and damscope's analysis of its run divide by one
// number.
#include <gtest/gtest.h>

#include "analyzer/devices/device_specs.h"
#include "reference_workloads/gpt2/cuda/device_peaks.h"

namespace damscope {
namespace {

TEST(DevicePeaks, TheTrainersTableAgreesWithTheAnalyzersForEveryGpuBothList) {
  int compared = 0;
  for (const DeviceSpec& spec : deviceSpecs()) {
    if (spec.kind != DeviceKind::kGpu) continue;
    for (std::string_view name : spec.names) {
      if (name.empty()) continue;
      const struct {
        gpt2::Precision trainer;
        std::optional<double> analyzer;
      } figures[] = {{gpt2::Precision::kFp32, spec.vector.fp32},
                     {gpt2::Precision::kTf32, spec.matrix.tf32},
                     {gpt2::Precision::kBf16, spec.matrix.bf16}};
      for (const auto& f : figures) {
        const double trainer = gpt2::datasheetPeakFlopsPerS(name, f.trainer);
        if (trainer == 0) continue;  // a GPU the trainer's table does not list
        ++compared;
        ASSERT_TRUE(f.analyzer) << spec.key << " (" << name << ") has no "
                                << gpt2::precisionName(f.trainer) << " peak";
        EXPECT_DOUBLE_EQ(trainer, *f.analyzer)
            << spec.key << " (" << name << ") " << gpt2::precisionName(f.trainer);
      }
    }
  }
  EXPECT_GE(compared, 3 * 6) << "A100, H100, H200, GH200, L40S at least: the test compares little";
}

}  // namespace
}  // namespace damscope
