// What every analysis reads: the trace tables of one rank plus the indexes
// built from them once (DESIGN.md "Analyses"; STYLE.md rule 11).
//
// AnalysisInput::build() is the only place that interprets raw rows for the
// analyses: it merges kernels, memcpys, memsets and stream syncs into one
// time-ordered list of GPU operations, resolves each one's launch call
// through CUPTI's correlation id, classifies kernel names (once per distinct
// name), flags API calls that block the host, and picks the launching thread.
// It copes with what real and damaged traces contain: events out of order are
// sorted, negative durations count as zero, missing correlation ids leave the
// launch unknown (counted, so analyses can say what they could not do). It
// also parses the workload's model annotation (model_annotation.h).
//
// On a CPU run the kernels are the ops of a cpu device (cpu_device_work.h):
// nothing launches them, and each knows the op range it came from.
//
// The input holds a reference to the tables, which must outlive it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/analyses/kernel_categories.h"
#include "analyzer/analyses/model_annotation.h"
#include "trace/tables.h"

namespace damscope {

enum class GpuOpKind : uint8_t { kKernel, kMemcpy, kMemset, kSync };

// What a GPU operation spends its time on, for the scorecard and breakdowns.
enum class GpuWork : uint8_t {
  kComputeBound,   // GEMM, convolution, attention kernels
  kMemoryBound,    // other kernels, device-to-device copies, memsets
  kCommunication,  // collective kernels, peer-to-peer copies
  kHostTransfer,   // copies between host and device memory
  kSyncWait,       // a stream synchronization event (Kineto cuda_sync)
};

struct GpuOp {
  int64_t ts = 0;
  int64_t end = 0;      // ts + max(dur, 0)
  int64_t stream = 0;   // kNullInt when unknown
  int64_t row = 0;      // row in the table of `kind`
  int64_t launch = -1;  // api_calls row of the launching call, -1 unknown
  int32_t device = 0;   // kNullInt32 when unknown
  GpuOpKind kind = GpuOpKind::kKernel;
  GpuWork work = GpuWork::kMemoryBound;
  KernelCategory category = KernelCategory::kOther;  // kernels; kMemory for copies
};

// Bits of AnalysisInput::api_flags.
constexpr uint8_t kApiLaunchesGpuWork = 1;  // a GPU operation carries its correlation id
constexpr uint8_t kApiBlocksHost = 2;       // synchronize, sync memcpy, pageable copy

class AnalysisInput {
 public:
  static AnalysisInput build(const TraceTables& tables);

  const TraceTables& tables() const { return *tables_; }
  const KernelClassifier& kernels() const { return classifier_; }
  // The workload's model annotation (empty when the trace has none).
  const ModelAnnotation& model() const { return model_; }

  // Kernels, memcpys, memsets and stream-sync events, sorted by (ts, -dur).
  const std::vector<GpuOp>& gpu() const { return gpu_; }
  // Per api_calls row: kApi* bits.
  const std::vector<uint8_t>& apiFlags() const { return api_flags_; }
  // The api_calls row that carries `correlation_id` (the earliest one if
  // several do), or -1.
  int64_t launchOf(int64_t correlation_id) const;

  // The host thread that launched the most GPU work (threads row), or on a
  // CPU run the thread that ran the most ops; -1 when none.
  int64_t mainThread() const { return main_thread_; }
  // True when `op` ran on a cpu device (an op derived from a range).
  bool onCpu(const GpuOp& op) const {
    return op.kind == GpuOpKind::kKernel && !cpu_op_range_.empty() &&
           cpu_op_range_[static_cast<size_t>(op.row)] != kNullInt;
  }
  // The ranges row a cpu-device op came from, or kNullInt for GPU work.
  int64_t opRange(const GpuOp& op) const {
    return onCpu(op) ? cpu_op_range_[static_cast<size_t>(op.row)] : kNullInt;
  }
  // The thread that ran a cpu-device op, or launched a GPU op; kNullInt: unknown.
  int64_t hostThreadOf(const GpuOp& op) const;
  // True when there is device work and all of it ran on cpu devices: what
  // only GPUs have (launch calls, streams, SMs) does not apply.
  bool cpuRun() const { return cpu_run_; }
  // Devices that ran GPU work, ascending.
  const std::vector<int32_t>& activeDevices() const { return active_devices_; }
  // SM count of `device` from the devices table; 0 when unknown.
  int32_t smCount(int32_t device) const;

  // GPU operations (not syncs) with and without a resolvable launch call.
  int64_t opsWithLaunch() const { return ops_with_launch_; }
  int64_t opsWithoutLaunch() const { return ops_without_launch_; }
  // Events whose negative duration was read as zero.
  int64_t negativeDurations() const { return negative_durations_; }

  // Re-reads the compute- or memory-bound side of the given kernels (kernels
  // rows) from their roofline points (roofline.h), which know better than a
  // name. Called once, before the analyses that read GpuOp::work.
  void applyBoundOverrides(const std::vector<std::pair<int64_t, GpuWork>>& overrides);

 private:
  explicit AnalysisInput(const TraceTables& tables);

  const TraceTables* tables_;
  KernelClassifier classifier_;
  ModelAnnotation model_;
  std::vector<GpuOp> gpu_;
  std::vector<uint8_t> api_flags_;
  // Correlation lookup: dense (correlation - base) -> row when ids are dense,
  // else sorted (correlation, row) pairs.
  int64_t dense_base_ = 0;
  std::vector<int64_t> dense_;
  std::vector<std::pair<int64_t, int64_t>> sparse_;
  int64_t main_thread_ = -1;
  std::vector<int64_t> cpu_op_range_;  // per kernels row; empty: no cpu device
  bool cpu_run_ = false;
  std::vector<int32_t> active_devices_;
  int64_t ops_with_launch_ = 0;
  int64_t ops_without_launch_ = 0;
  int64_t negative_durations_ = 0;
};

}  // namespace damscope
