// Builds small TraceTables in memory for analysis tests: a host thread, step
// and other ranges, launch calls and the GPU operations they launch (linked
// by correlation id), in microseconds for readability (stored in ns).
// Events may be added in any order; build() sorts the tables as the store
// keeps them, unless told not to (to test unsorted input).
#pragma once

#include <string>

#include "trace/tables.h"

namespace damscope::testing {

class TraceBuilder {
 public:
  TraceBuilder();

  // Devices: a GPU with `sm_count` SMs and `memory_bytes` of memory.
  TraceBuilder& device(int32_t device, int32_t sm_count, int64_t memory_bytes = 0);

  // A host range on the main thread (or `thread`), times in µs.
  int64_t range(double start_us, double dur_us, const std::string& name,
                const std::string& category = "cpu_op", int64_t thread = 0,
                const std::string& domain = "");
  int64_t step(double start_us, double dur_us, int number) {
    return range(start_us, dur_us, "ProfilerStep#" + std::to_string(number), "user_annotation");
  }

  // A runtime call; returns its correlation id.
  int64_t call(double start_us, double dur_us, const std::string& name = "cudaLaunchKernel",
               int64_t thread = 0);

  // GPU operations launched by `correlation` (kNullInt: none).
  int64_t kernel(double start_us, double dur_us, const std::string& name, int64_t correlation,
                 int64_t stream = 7, int32_t device = 0, int32_t grid = 160,
                 double occupancy_pct = std::numeric_limits<double>::quiet_NaN());
  int64_t memcpy(double start_us, double dur_us, int64_t correlation,
                 CopyKind kind = CopyKind::kHtoD, MemoryKind host = MemoryKind::kPinned,
                 int64_t stream = 7, int32_t device = 0);

  // Convenience: a launch call at `launch_us` and the kernel it launches.
  int64_t launchKernel(double launch_us, double start_us, double dur_us, const std::string& name,
                       int64_t stream = 7);

  TraceTables build(bool sort = true);
  TraceTables& tables() { return t_; }

 private:
  TraceTables t_;
  int64_t next_correlation_ = 1;
};

// µs -> ns.
constexpr int64_t us(double v) {
  return static_cast<int64_t>(v * 1000.0 + (v >= 0 ? 0.5 : -0.5));
}

}  // namespace damscope::testing

namespace damscope::testing {

// One training step whose GPU idle time has every cause, with hand-computed
// expectations (µs; see the comment in trace_builder.cc):
//   device gaps [0,320) data 300 + other 10 + launch 10; [400,510) sync 100 +
//   launch 10; [600,660) launch 60; [700,710), [750,760), [890,900) queued
//   kernel waits of 10; [950,1000) other 50.
//   scorecard: data 300, host 110, sync 100, exposed comm 130, memory 130,
//   compute 170, other 60 (of 1000).
TraceTables goldenStepTrace();

// One 1 ms step on an A100 whose GEMM kernel (10..310 µs, 1 GFLOP annotated,
// a tenth of its roofline ceiling) is launched by aten::mm inside the module
// Linear_0: what a finding's evidence names as the op and module behind it.
// The builder is returned so that a test can add to it.
TraceBuilder gemmInModuleTrace();

}  // namespace damscope::testing
