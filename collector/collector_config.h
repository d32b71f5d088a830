// The collector's settings and the environment that carries them.
//
// `damscope record` cannot pass arguments to a library that CUDA and NVTX
// load, so it passes them as DAMSCOPE_* environment variables, which every
// process of the recorded command inherits. This file is the one place that
// names them: record writes them with toEnvironment(), the injected library
// reads them with configFromEnvironment(). The same variables let a user
// inject damscope by hand (docs/collector.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"
#include "collector/counter_metrics.h"

namespace damscope::collector {

constexpr int64_t kDefaultMaxFileMb = 4096;
constexpr int64_t kDefaultMaxFileBytes = kDefaultMaxFileMb << 20;

struct CollectorConfig {
  // DAMSCOPE_OUTPUT: the base name of the trace files, an absolute path ending
  // in .db (output_naming.h derives each process's file from it).
  std::string output = "run.db";
  // DAMSCOPE_ON_DEMAND=1: load dormant and record only in windows that
  // `damscope attach` opens.
  bool on_demand = false;
  // DAMSCOPE_START_NS: when `record` launched the command (CLOCK_REALTIME ns).
  // Delay and duration count from it, so that all ranks share one window.
  // 0: from the moment the library starts in the process.
  int64_t start_ns = 0;
  int64_t delay_ns = 0;                        // DAMSCOPE_DELAY_S
  int64_t duration_ns = 0;                     // DAMSCOPE_DURATION_S; 0: until the process exits
  double sample_hz = 100;                      // DAMSCOPE_SAMPLE_HZ; 0 turns the CPU sampler off
  size_t buffer_bytes = size_t{8} << 20;       // DAMSCOPE_BUFFER_MB: one CUPTI buffer
  size_t buffer_count = 16;                    // DAMSCOPE_BUFFERS: the pool's buffers
  size_t nvtx_ring_bytes = size_t{256} << 10;  // DAMSCOPE_NVTX_RING_KB: per thread
  // DAMSCOPE_MAX_SIZE_MB; 0: unlimited. 4 GiB by default: a 10-minute NVTX
  // loop once wrote 16.8 GB unbounded (issue 8), and 4 GiB holds tens of
  // millions of events, minutes of a busy training run.
  int64_t max_file_bytes = kDefaultMaxFileBytes;
  std::string control_dir;  // DAMSCOPE_CONTROL_DIR; empty: control_socket.h's default
  std::string cupti_path;   // DAMSCOPE_CUPTI_PATH; empty: search (cupti_session.h)
  // DAMSCOPE_COUNTERS ("flops", "dram", "flops,dram"; unset or empty: none):
  // hardware counters per kernel with the CUPTI range profiler
  // (counter_session.h), which replays every kernel.
  CounterSelection counters;
};

// The longest delay or window: 10^7 s, about 115 days. Nothing longer is a
// recording, and the bound keeps start + delay + duration (CLOCK_REALTIME ns,
// about 1.8e18 today) far from int64 overflow at 9.2e18.
constexpr double kMaxWindowSeconds = 1e7;
constexpr int64_t kMaxWindowNs = 10'000'000'000'000'000;

// Seconds given for `option` (--duration, --delay, DAMSCOPE_DURATION_S, ...)
// as whole nanoseconds. An error names the option and what is wrong: not a
// finite number, negative, beyond kMaxWindowSeconds, or positive but under
// half a nanosecond (which would round to 0, "no limit").
Result<int64_t> windowSecondsToNs(const std::string& option, double seconds);

using GetEnv = std::function<const char*(const char*)>;

// Reads the DAMSCOPE_* variables; unset ones keep their defaults. A value
// that does not parse is an error naming the variable and the value.
Result<CollectorConfig> configFromEnvironment(const GetEnv& getenv);

// The variables that reproduce `config` (defaults included), for record.
std::vector<std::pair<std::string, std::string>> toEnvironment(const CollectorConfig& config);

}  // namespace damscope::collector
