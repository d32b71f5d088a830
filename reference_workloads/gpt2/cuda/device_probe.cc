// probeCudaDevice (cuda_backend.h): the device's name, compute capability,
// memory and the two roofline figures the trainer annotates (peak FLOP/s
// from device_peaks.h, bandwidth from the device attributes).
#include <cuda_runtime_api.h>

#include <string>

#include "reference_workloads/gpt2/cuda/cuda_backend.h"
#include "reference_workloads/gpt2/cuda/device_peaks.h"

namespace damscope::gpt2 {

Result<CudaDeviceInfo> probeCudaDevice(int device, Precision precision) {
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess) {
    cudaGetLastError();  // not sticky; leave no error behind for later calls
    return Error(std::string("no CUDA device: ") + cudaGetErrorString(error), ErrorCode::kFailure);
  }
  if (count == 0) return Error("no CUDA device: none found", ErrorCode::kFailure);
  if (device < 0 || device >= count) {
    return Error("CUDA device " + std::to_string(device) + " does not exist (" +
                     std::to_string(count) + " found)",
                 ErrorCode::kBadInput);
  }
  cudaDeviceProp prop{};
  cudaError_t e = cudaGetDeviceProperties(&prop, device);
  if (e == cudaSuccess) e = cudaSetDevice(device);
  size_t free_bytes = 0, total_bytes = 0;
  if (e == cudaSuccess) e = cudaMemGetInfo(&free_bytes, &total_bytes);
  int memory_clock_khz = 0;
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, device);
  if (e != cudaSuccess) {
    return Error("CUDA device " + std::to_string(device) + ": " + cudaGetErrorString(e),
                 ErrorCode::kFailure);
  }
  CudaDeviceInfo info;
  info.name = prop.name;
  info.cc_major = prop.major;
  info.cc_minor = prop.minor;
  info.sms = prop.multiProcessorCount;
  info.total_memory_bytes = total_bytes;
  info.free_memory_bytes = free_bytes;
  info.peak_flops_per_s = datasheetPeakFlopsPerS(info.name, precision);
  // Peak DRAM bandwidth = memory clock x bus width x 2 transfers per clock
  // (the CUDA samples' deviceQuery and NVIDIA's "How to Implement
  // Performance Metrics in CUDA C/C++", Harris 2012, compute it so).
  info.bandwidth_bytes_per_s = double(memory_clock_khz) * 1e3 * (prop.memoryBusWidth / 8.0) * 2.0;
  return info;
}

}  // namespace damscope::gpt2
