// Measured counters joined to their kernels: see measured_kernel_rows.h.
#include "collector/measured_kernel_rows.h"

#include <limits>

namespace damscope::collector {

MeasuredKernelRows::MeasuredKernelRows(CaptureWriter& capture, const CounterSelection& selection)
    : capture_(capture), selection_(selection) {}

void MeasuredKernelRows::onMeasured(uint32_t correlation_id, const MetricValues& values) {
  if (auto it = kernels_.find(correlation_id); it != kernels_.end()) {
    write(it->second.row, values);
    kernels_.erase(it);
    return;
  }
  values_[correlation_id] = {values, kWaitCommits};
}

void MeasuredKernelRows::onKernel(uint32_t correlation_id, int64_t kernel_row) {
  if (auto it = values_.find(correlation_id); it != values_.end()) {
    write(kernel_row, it->second.values);
    values_.erase(it);
    return;
  }
  kernels_[correlation_id] = {kernel_row, kWaitCommits};
}

void MeasuredKernelRows::resolvePending(bool final_commit) {
  for (auto it = values_.begin(); it != values_.end();) {
    if (final_commit || --it->second.commits_left < 0) {
      ++unmatched_;
      it = values_.erase(it);
    } else {
      ++it;
    }
  }
  for (auto it = kernels_.begin(); it != kernels_.end();) {
    if (final_commit || --it->second.commits_left < 0) {
      it = kernels_.erase(it);
    } else {
      ++it;
    }
  }
}

void MeasuredKernelRows::write(int64_t kernel_row, const MetricValues& values) {
  const KernelCounts counts = kernelCounts(selection_, values);
  if (counts.used_tensor_cores) ++tensor_kernels_;
  if (!counts.flops && !counts.dram_bytes) return;
  KernelMetricTable::Row row;
  row.kernel_id = kernel_row;
  row.range_id = kNullInt;
  row.flops = counts.flops.value_or(std::numeric_limits<double>::quiet_NaN());
  row.dram_bytes = counts.dram_bytes.value_or(std::numeric_limits<double>::quiet_NaN());
  row.source = MetricSource::kMeasured;
  capture_.batch().kernel_metrics.append(row);
  ++rows_;
}

}  // namespace damscope::collector
