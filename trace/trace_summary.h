// What a trace-store file holds, answered with SQL aggregates so that it is
// fast on large files without loading the events: the processes (ranks), the
// devices and how many events each ran, the row count of every table, the
// time span, and the import/record statistics. `damscope info` prints it.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"
#include "trace/sqlite_db.h"

namespace damscope {

struct ProcessSummary {
  int64_t pid = -1;
  std::string name;
  std::string hostname;
  int32_t rank = -1;        // -1: unknown
  int32_t world_size = -1;  // -1: unknown
  std::string comm_backend;
};

struct DeviceSummary {
  int32_t device = -1;
  std::string kind;
  std::string name;
  int32_t sm_count = -1;
  int64_t memory_bytes = -1;
  int32_t compute_major = -1;
  int32_t compute_minor = -1;
  int64_t kernels = 0;
  int64_t memcpys = 0;
  int64_t memsets = 0;
  int64_t gpu_ranges = 0;        // GPU-side ranges: annotations, profiled kernel ranges
  std::vector<int64_t> streams;  // streams that ran kernels, memcpys or memsets
  bool active() const { return kernels + memcpys + memsets + gpu_ranges > 0; }
};

struct TraceSummary {
  std::vector<std::pair<std::string, std::string>> meta;
  std::vector<ProcessSummary> processes;
  std::vector<DeviceSummary> devices;
  std::vector<std::pair<std::string, int64_t>> table_rows;        // table -> rows
  std::vector<std::pair<std::string, int64_t>> range_categories;  // category -> rows
  std::vector<std::pair<std::string, int64_t>> api_kinds;         // runtime/driver -> rows
  int64_t nccl_kernels = 0;  // kernels of a collective library (NCCL, RCCL)
  int64_t threads = 0;
  bool has_events = false;
  int64_t first_ts = 0;  // earliest event start, ns
  int64_t last_end = 0;  // latest event end, ns
  struct Stat {
    std::string name;
    int64_t value;
    std::string description;
  };
  std::vector<Stat> stats;

  std::string metaValue(const std::string& key) const;
  int64_t rows(const std::string& table) const;
};

Result<TraceSummary> summarizeTrace(Database& db);

}  // namespace damscope
