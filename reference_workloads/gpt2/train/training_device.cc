// The CPU and CUDA training devices: see training_device.h.
#include "reference_workloads/gpt2/train/training_device.h"

#include <algorithm>
#include <cstdio>

#include "reference_workloads/gpt2/cpu/cpu_backend.h"
#include "reference_workloads/gpt2/train/peak_probe.h"
#include "reference_workloads/gpt2/train/system_info.h"

#if DAMSCOPE_GPT2_CUDA
#include "reference_workloads/gpt2/cuda/cuda_backend.h"
#endif

namespace damscope::gpt2 {
namespace {

std::string giga(double v, const char* unit) {
  char text[48];
  std::snprintf(text, sizeof text, "%.1f %s", v / 1e9, unit);
  return text;
}

class CpuDevice final : public TrainingDevice {
 public:
  explicit CpuDevice(int threads) : backend_(threads) {
    // The peak of the cores the run may use: threads beyond them share cores
    // (and the probe, timed by CPU time, would count each as a core).
    const int cores = std::min(threads, availableCpus());
    const PeakProbe peak = probePeak(cores);
    figures_.kind = "cpu";
    figures_.name = cpuModelName();
    figures_.cores = cores;
    figures_.peak_flops_per_s = peak.flops_per_s;
    figures_.bandwidth_bytes_per_s = peak.bytes_per_s;
    char line[384];
    std::snprintf(line, sizeof line,
                  "cpu %s, %d threads | peak %s fp32 on %d cores (%s FMA loop) | bandwidth %s "
                  "(STREAM triad, 3 x %zu MiB) | probe %.2f s",
                  figures_.name.c_str(), threads, giga(peak.flops_per_s, "GFLOP/s").c_str(), cores,
                  peak.isa.c_str(), giga(peak.bytes_per_s, "GB/s").c_str(), peak.array_bytes >> 20,
                  peak.seconds);
    figures_.description = line;
  }
  Backend& backend() override { return backend_; }

 private:
  CpuBackend backend_;
};

#if DAMSCOPE_GPT2_CUDA

Result<CudaOptions> cudaOptions(const DeviceRequest& r) {
  CudaOptions o;
  o.device = r.cuda_device;
  DAMSCOPE_ASSIGN_OR_RETURN(o.precision, parsePrecision(r.precision));
  if (!r.attention.empty()) {
    DAMSCOPE_ASSIGN_OR_RETURN(o.attention, parseAttention(r.attention));
  }
  o.pinned_copies = !r.pageable_copies;
  o.sync_every_op = r.sync_every_op;
  return o;
}

class CudaDevice final : public TrainingDevice {
 public:
  static Result<std::unique_ptr<TrainingDevice>> open(const DeviceRequest& r) {
    DAMSCOPE_ASSIGN_OR_RETURN(const CudaOptions options, cudaOptions(r));
    DAMSCOPE_ASSIGN_OR_RETURN(const CudaDeviceInfo info,
                              probeCudaDevice(options.device, options.precision));
    DAMSCOPE_ASSIGN_OR_RETURN(std::unique_ptr<CudaBackend> backend, CudaBackend::create(options));
    std::unique_ptr<CudaDevice> d(new CudaDevice(std::move(backend)));
    d->figures_.kind = "gpu";
    d->figures_.name = info.name;
    d->figures_.peak_flops_per_s = info.peak_flops_per_s;
    d->figures_.bandwidth_bytes_per_s = info.bandwidth_bytes_per_s;
    char line[384];
    std::snprintf(line, sizeof line,
                  "cuda %s (device %d, sm_%d%d, %d SMs, %.1f GB) | peak %s %s dense (datasheet) | "
                  "bandwidth %s | attention %s | batch copies %s%s",
                  info.name.c_str(), options.device, info.cc_major, info.cc_minor, info.sms,
                  info.total_memory_bytes / 1e9,
                  info.peak_flops_per_s > 0 ? (giga(info.peak_flops_per_s / 1e3, "TFLOP/s")).c_str()
                                            : "unknown",
                  precisionName(options.precision), giga(info.bandwidth_bytes_per_s, "GB/s").c_str(),
                  attentionName(options.attention),
                  options.pinned_copies ? "pinned, own stream" : "pageable (cudaMemcpy)",
                  options.sync_every_op ? " | sync after every op" : "");
    d->figures_.description = line;
    return std::unique_ptr<TrainingDevice>(std::move(d));
  }

  Backend& backend() override { return *backend_; }
  Status status() const override { return backend_->status(); }
  bool supportsGraphs() const override { return true; }
  Status beginCapture() override { return backend_->beginCapture(); }
  Status endCapture() override { return backend_->endCapture(); }
  Status replay() override { return backend_->replay(); }
  bool hasGraph() const override { return backend_->hasGraph(); }
  void* computeStream() const override { return backend_->computeStream(); }

 private:
  explicit CudaDevice(std::unique_ptr<CudaBackend> backend) : backend_(std::move(backend)) {}
  std::unique_ptr<CudaBackend> backend_;
};

#endif

}  // namespace

Status checkDeviceRequest(const DeviceRequest& r) {
  if (r.device == "cpu") {
    if (r.precision != "fp32") {
      return Error("--precision " + r.precision + ": the CPU backend computes in fp32 only");
    }
    if (!r.attention.empty() && r.attention != "naive") {
      return Error("--attention " + r.attention + ": the CPU backend has naive attention only");
    }
    if (r.pageable_copies) return Error("--pageable-copies needs --device cuda");
    if (r.sync_every_op) return Error("--sync-every-op needs --device cuda");
    return okStatus();
  }
  if (r.device != "cuda") return Error("unknown device '" + r.device + "' (expected cpu or cuda)");
#if DAMSCOPE_GPT2_CUDA
  DAMSCOPE_ASSIGN_OR_RETURN(const CudaOptions options, cudaOptions(r));
  (void)options;
  return okStatus();
#else
  return Error(
      "--device cuda: this gpt2-train was built without the CUDA backend (no CUDA toolkit or "
      "nvcc at configure time); use --device cpu");
#endif
}

Result<std::optional<uint64_t>> deviceMemoryAvailable(const DeviceRequest& r) {
#if DAMSCOPE_GPT2_CUDA
  if (r.device == "cuda") {
    DAMSCOPE_ASSIGN_OR_RETURN(const CudaOptions options, cudaOptions(r));
    auto info = probeCudaDevice(options.device, options.precision);
    if (!info) return Error("--device cuda: " + info.error().message());
    return std::optional<uint64_t>(info->free_memory_bytes);
  }
#endif
  (void)r;
  return memAvailableBytes();
}

Result<std::unique_ptr<TrainingDevice>> openTrainingDevice(const DeviceRequest& r) {
  DAMSCOPE_RETURN_IF_ERROR(checkDeviceRequest(r));
#if DAMSCOPE_GPT2_CUDA
  if (r.device == "cuda") return CudaDevice::open(r);
#endif
  return std::unique_ptr<TrainingDevice>(std::make_unique<CpuDevice>(r.threads));
}

}  // namespace damscope::gpt2
