// kernel_metrics rows from measured counters: each launch the range profiler
// measured (counter_session.h) joined to the kernels row of the same launch.
//
// The two halves arrive separately and in either order on the writer
// thread: a launch's values as soon as its replay is over, its kernel
// record when CUPTI completes the activity buffer holding it (about every
// half second, or earlier when a buffer fills). They meet on the correlation
// id: the counter session takes the id of the outermost launch call (the
// runtime's cudaLaunchKernel for a runtime launch, else the driver's), which
// is the id CUPTI gives the kernel ("identical to the correlation ID in the
// driver or runtime API activity record that launched the kernel",
// cupti_activity.h, CUpti_ActivityKernel10::correlationId). A measured
// launch is one kernel: launches the session brackets are single kernels
// (graph launches are not measured), so a correlation id names one row.
//
// Either half waits up to two commits (about a second) for the other, as
// GpuActivityRows waits for late correlations; values whose kernel never
// came are counted (unmatched()), kernels without values are not rows.
// Used by the writer thread only.
#pragma once

#include <cstdint>
#include <unordered_map>

#include "collector/capture_writer.h"
#include "collector/counter_metrics.h"

namespace damscope::collector {

class MeasuredKernelRows {
 public:
  MeasuredKernelRows(CaptureWriter& capture, const CounterSelection& selection);

  // The range profiler's values for the launch with `correlation_id`.
  void onMeasured(uint32_t correlation_id, const MetricValues& values);
  // A kernels row (its global id) was written for `correlation_id`.
  void onKernel(uint32_t correlation_id, int64_t kernel_row);
  // Before every commit: ages what waits; on the final commit everything
  // still waiting is given up.
  void resolvePending(bool final_commit = false);

  int64_t rows() const { return rows_; }
  int64_t unmatched() const { return unmatched_; }
  // Kernels that issued tensor-core instructions: their FLOPs are unknown.
  int64_t tensorKernels() const { return tensor_kernels_; }

 private:
  static constexpr int kWaitCommits = 2;
  struct Waiting {
    MetricValues values;
    int commits_left;
  };
  struct Seen {
    int64_t row;
    int commits_left;
  };
  void write(int64_t kernel_row, const MetricValues& values);

  CaptureWriter& capture_;
  const CounterSelection selection_;
  std::unordered_map<uint32_t, Waiting> values_;  // correlation -> values awaiting their kernel
  std::unordered_map<uint32_t, Seen> kernels_;    // correlation -> row awaiting its values
  int64_t rows_ = 0, unmatched_ = 0, tensor_kernels_ = 0;
};

}  // namespace damscope::collector
