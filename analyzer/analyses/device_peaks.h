// The peaks a run is measured against: the device's peak FLOP/s per
// precision and its memory and link bandwidth, for MFU (mfu.h) and the
// roofline's ceilings (roofline.h). Resolved once per rank, from the first of:
//   1. the user's figures (DevicePeakOptions::peak_flops_per_s, bandwidth):
//      a device damscope's table lacks, or a clock the user knows better;
//   2. the user's device (DevicePeakOptions::device, a row of the table);
//   3. the workload's own figures (model annotation "device": the CPU
//      trainer measures its CPU's peak and bandwidth);
//   4. the trace's primary device matched to the table
//      (analyzer/devices/device_specs.h: by name, board, or facts).
// Without any, figures that need a peak are unknown, and a note says which
// option supplies it. A user's peak applies to every precision (it is the
// one the user compares against); table peaks are per precision.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analyzer/analyses/analysis_input.h"
#include "analyzer/analyses/analysis_note.h"
#include "analyzer/devices/device_specs.h"

namespace damscope {

struct DevicePeakOptions {
  const DeviceSpec* device = nullptr;  // a row the user chose; null: match the trace's
  std::optional<double> peak_flops_per_s;
  std::optional<double> bandwidth_bytes_per_s;
};

enum class PeakSource : uint8_t { kNone, kUser, kUserDevice, kAnnotation, kTraceDevice };
constexpr size_t kPeakSourceCount = 5;
std::string_view toText(PeakSource source);  // "user", "user_device", ...

struct DevicePeaks {
  PeakSource source = PeakSource::kNone;
  std::string device;       // what the figures are of: "A100 SXM4 40GB", "CPU", ...
  std::string description;  // for people: "A100 SXM4 40GB (matched by board name PG509-200)"
  std::optional<double> user_flops_per_s;  // one peak for every precision (sources 1, 3)
  const DeviceSpec* spec = nullptr;        // per-precision peaks (sources 2, 4)
  std::optional<double> bandwidth_bytes_per_s;
  std::optional<double> peer_link_bytes_per_s;  // per direction, for collectives
  std::vector<AnalysisNote> notes;              // analysis "device", remedy kDevice

  // The peak at `precision`; unknown when the source has no figure for it.
  std::optional<double> peakFlopsPerS(Precision precision) const;
};

DevicePeaks resolveDevicePeaks(const AnalysisInput& input, int32_t primary_device,
                               const DevicePeakOptions& options);

}  // namespace damscope
