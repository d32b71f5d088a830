// What `damscope record [options] -- CMD ARGS...` does, as a library the
// thin CLI command calls (cli/record_command.cc).
//
// It checks the output location, sets the injection environment
// (CUDA_INJECTION64_PATH and NVTX_INJECTION64_PATH point at
// libdamscope_inject.so; DAMSCOPE_* carry the settings, collector_config.h),
// runs the command with the terminal's stdin/stdout/stderr, waits for it,
// and reports its exit status so the CLI can pass it through unchanged.
// While waiting, record ignores SIGINT and SIGQUIT (the terminal sends them
// to the command too, as with system()) and forwards SIGTERM and SIGHUP.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "collector/collector_config.h"
#include "base/result.h"

namespace damscope::collector {

struct RecordOptions {
  std::string output = "run.db";
  double duration_s = 0;  // 0: until the command exits
  double delay_s = 0;
  bool on_demand = false;
  bool force = false;  // remove the files of an earlier run with the same output name
  double sample_hz = 100;
  int64_t buffer_mb = 8;
  int64_t buffers = 16;
  int64_t max_size_mb = kDefaultMaxFileMb;  // 0: no limit
  std::optional<std::string> counters;      // --counters: "flops", "dram", "flops,dram"
  std::vector<std::string> command;
  std::string inject_library;  // empty: findInjectLibrary()
};

struct PreparedRecord {
  std::string output;          // absolute
  std::string inject_library;  // absolute
  std::vector<std::string> command;
  std::vector<std::string> environment;  // NAME=value, the command's whole environment
  CounterSelection counters;             // --counters, parsed
  // The rank this record itself runs as (its launcher's RANK, LOCAL_RANK or
  // OMPI_COMM_WORLD_RANK), -1 for none: then it owns that rank's files only.
  int32_t rank = -1;
};

// libdamscope_inject.so: $DAMSCOPE_INJECT_LIBRARY, else beside the damscope
// executable, in ../lib/damscope or ../lib, or where the build put it.
Result<std::string> findInjectLibrary();

// Validates the options (bad input is an Error naming the file or option;
// nothing has been started) and builds the command's environment from
// `environ`. With --force, removes the earlier run's files.
Result<PreparedRecord> prepareRecord(const RecordOptions& options);

// An error when the file system of `output` (a trace name) has less than
// kMinFreeBytes available: the disk is full, and no trace can be written.
constexpr int64_t kMinFreeBytes = int64_t{1} << 20;
Status checkOutputSpace(const std::string& output);

// How the command ended.
struct ChildStatus {
  int exit_code = 0;   // when it exited
  int signal = 0;      // when a signal killed it (then exit_code is 128 + signal)
  int64_t end_ns = 0;  // when record saw it end (CLOCK_REALTIME)
};

// Runs the prepared command and waits for it. An Error only when it could
// not be started at all (fork failed); a command that is not found exits 127
// after a message, as in a shell.
Result<ChildStatus> runRecorded(const PreparedRecord& record);

// Whether an NVIDIA kernel driver is loaded on this machine
// (/proc/driver/nvidia/version exists): without one, CUDA never initializes
// and never loads the collector.
bool nvidiaDriverPresent();

// The trace files of the run named `output` present now (output_naming.h);
// with rank >= 0, only those of that rank's processes.
std::vector<std::string> listRunOutputs(const std::string& output, int32_t rank = -1);

}  // namespace damscope::collector
