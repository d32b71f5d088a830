// Trace-level metadata of a Kineto (PyTorch profiler) trace: the devices the
// process saw ("deviceProperties") and its place in a distributed job
// ("distributedInfo"). Kineto writes these either as JSON or, in many
// released versions, as a Python literal inside a JSON string
// ("[{'id': 0, 'name': 'NVIDIA A100', ...}]"); both are accepted.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace damscope {

// Rewrites a Python literal (single-quoted strings, True/False/None) as JSON.
std::string pythonLiteralToJson(std::string_view text);

struct KinetoDevice {
  int32_t id = -1;
  std::string name;
  int64_t total_memory_bytes = -1;
  int32_t compute_major = -1;
  int32_t compute_minor = -1;
  int32_t sm_count = -1;
  int32_t warp_size = -1;
  int32_t max_threads_per_block = -1;
  int32_t max_threads_per_sm = -1;
  int32_t registers_per_block = -1;
  int32_t registers_per_sm = -1;
  int64_t shared_memory_per_block_bytes = -1;
  int64_t shared_memory_per_sm_bytes = -1;
};

struct KinetoDistributedInfo {
  int32_t rank = -1;
  int32_t world_size = -1;
  std::string backend;
};

// `json` is the value's JSON text: an array, or a string holding a literal.
Result<std::vector<KinetoDevice>> parseKinetoDevices(std::string_view json);
Result<KinetoDistributedInfo> parseKinetoDistributedInfo(std::string_view json);

}  // namespace damscope
