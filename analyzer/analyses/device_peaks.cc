// The peaks a run is measured against: see device_peaks.h.
#include "analyzer/analyses/device_peaks.h"

namespace damscope {
namespace {

void fromSpec(DevicePeaks& p, const DeviceSpec& spec) {
  p.spec = &spec;
  p.device = std::string(spec.name);
  p.bandwidth_bytes_per_s = spec.memory_bandwidth_bytes_per_s;
  if (spec.peer_link) p.peer_link_bytes_per_s = spec.peer_link->bytes_per_s;
}

}  // namespace

std::string_view toText(PeakSource source) {
  switch (source) {
    case PeakSource::kNone:
      return "none";
    case PeakSource::kUser:
      return "user";
    case PeakSource::kUserDevice:
      return "user_device";
    case PeakSource::kAnnotation:
      return "model_annotation";
    case PeakSource::kTraceDevice:
      return "trace_device";
  }
  return "none";
}

std::optional<double> DevicePeaks::peakFlopsPerS(Precision precision) const {
  if (user_flops_per_s) return user_flops_per_s;
  if (spec) return spec->peakFlopsPerS(precision);
  return std::nullopt;
}

DevicePeaks resolveDevicePeaks(const AnalysisInput& input, int32_t primary_device,
                               const DevicePeakOptions& options) {
  DevicePeaks p;
  if (options.peak_flops_per_s) {
    p.source = PeakSource::kUser;
    p.device = "the given peak";
    p.user_flops_per_s = options.peak_flops_per_s;
    p.bandwidth_bytes_per_s = options.bandwidth_bytes_per_s;
    if (options.device) {
      // The user's peak, the chosen device's bandwidth where none was given.
      if (!p.bandwidth_bytes_per_s)
        p.bandwidth_bytes_per_s = options.device->memory_bandwidth_bytes_per_s;
      p.device = std::string(options.device->name);
    }
    p.description = p.device + " (peak given by the user)";
    return p;
  }
  if (options.device) {
    fromSpec(p, *options.device);
    p.source = PeakSource::kUserDevice;
    p.description = p.device + " (chosen by the user)";
    if (options.bandwidth_bytes_per_s) p.bandwidth_bytes_per_s = options.bandwidth_bytes_per_s;
    return p;
  }
  const AnnotatedDevice& annotated = input.model().device;
  if (annotated.peak_flops_per_s) {
    p.source = PeakSource::kAnnotation;
    p.device =
        annotated.name.value_or(annotated.kind.value_or("device") == "cpu" ? "CPU" : "device");
    p.user_flops_per_s = annotated.peak_flops_per_s;
    p.bandwidth_bytes_per_s = annotated.bandwidth_bytes_per_s;
    p.description = p.device + " (peak from the workload's annotation)";
    return p;
  }
  const TraceTables& t = input.tables();
  for (size_t d = 0; d < t.devices.size(); ++d) {
    if (t.devices.device[d] != primary_device || t.devices.kind[d] != DeviceKind::kGpu) continue;
    const DeviceFacts facts = deviceFactsOf(t, d);
    if (auto match = findDeviceSpec(facts)) {
      fromSpec(p, *match->spec);
      p.source = PeakSource::kTraceDevice;
      p.description = match->describe();
      if (match->ambiguous) {
        p.notes.push_back({"device",
                           "the device \"" + facts.name +
                               "\" fits several rows of the device table; the figures are the "
                               "lowest of them (" +
                               p.device + ")",
                           Remedy::kDevice});
      }
    } else {
      p.notes.push_back(
          {"device",
           "the device \"" + facts.name +
               "\" is not in damscope's device table: MFU and the roofline's ceilings "
               "need its peak",
           Remedy::kDevice});
    }
    if (options.bandwidth_bytes_per_s) p.bandwidth_bytes_per_s = options.bandwidth_bytes_per_s;
    return p;
  }
  p.notes.push_back({"device",
                     "the trace names no device: MFU and the roofline's ceilings need its peak",
                     Remedy::kDevice});
  return p;
}

}  // namespace damscope
