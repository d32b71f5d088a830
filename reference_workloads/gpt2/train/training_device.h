// The machine a run trains on: the backend, and the figures the trainer
// prints and annotates (the peak FLOP/s its MFU divides by, the memory
// bandwidth for the roofline, the memory a run may take). On the CPU the
// peaks are measured at start-up (peak_probe.h); on a CUDA GPU they come from
// the datasheet table (cuda/device_peaks.h) and the device's properties.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "reference_workloads/gpt2/model/backend.h"
#include "base/result.h"

namespace damscope::gpt2 {

struct DeviceRequest {
  std::string device = "cpu";  // "cpu" | "cuda"
  int threads = 1;             // cpu: OpenMP threads
  int cuda_device = 0;         // cuda: ordinal (LOCAL_RANK)
  std::string precision = "fp32";
  std::string attention;  // "" | "naive" | "fused"
  bool pageable_copies = false;
  bool sync_every_op = false;
};

struct DeviceFigures {
  std::string kind;  // "cpu" | "gpu", as the model annotation says it
  std::string name;
  int cores = 0;                    // cpu: the cores the compute threads use
  double peak_flops_per_s = 0;      // at the run's precision; 0: unknown
  double bandwidth_bytes_per_s = 0;
  std::string description;  // the header's first line, after "gpt2-train | "
};

class TrainingDevice {
 public:
  virtual ~TrainingDevice() = default;
  virtual Backend& backend() = 0;
  const DeviceFigures& figures() const { return figures_; }

  // The first error of an asynchronous backend's ops (checked after each step).
  virtual Status status() const { return okStatus(); }
  // CUDA graphs of forward + backward (--cuda-graph); the CPU has none.
  virtual bool supportsGraphs() const { return false; }
  virtual Status beginCapture() { return Error("CUDA graphs need --device cuda"); }
  virtual Status endCapture() { return Error("CUDA graphs need --device cuda"); }
  virtual Status replay() { return Error("CUDA graphs need --device cuda"); }
  virtual bool hasGraph() const { return false; }
  // The stream the ops run on (a cudaStream_t), which NCCL orders after; null on the CPU.
  virtual void* computeStream() const { return nullptr; }

 protected:
  DeviceFigures figures_;
};

// Checks the request against what this build and machine have, without
// allocating: an error for a flag the device does not take (--precision
// bf16 on the CPU, --device cuda in a build without CUDA, no GPU).
Status checkDeviceRequest(const DeviceRequest& request);

// Bytes the run may allocate on the device: MemAvailable on the CPU, the
// GPU's free memory; empty when unknown.
Result<std::optional<uint64_t>> deviceMemoryAvailable(const DeviceRequest& request);

// Opens the backend (and on the CPU probes its peaks, ~0.2 s).
Result<std::unique_ptr<TrainingDevice>> openTrainingDevice(const DeviceRequest& request);

}  // namespace damscope::gpt2
