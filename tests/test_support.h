// Shared helpers for the test suites: temporary directories, fixture files
// (plain and gzip), running the damscope binary, and finding the real traces
// in ../shared/traces (tests that need them skip when they are absent).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace damscope::testing {

// ../shared/traces beside the project root, or $DAMSCOPE_SHARED_TRACES.
std::string sharedTracesDir();
bool haveSharedTraces();
std::string sharedTrace(const std::string& relative);  // e.g. "kineto/v100_rank1.json.gz"

#define DAMSCOPE_REQUIRE_SHARED_TRACES()                                        \
  do {                                                                          \
    if (!::damscope::testing::haveSharedTraces())                               \
      GTEST_SKIP() << "../shared/traces is absent; skipping real-trace checks"; \
  } while (0)

// A fresh directory under $TMPDIR, removed with everything in it on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

void writeFile(const std::string& path, std::string_view content);
std::string readFile(const std::string& path);
// Writes `content` gzip-compressed; keep_bytes > 0 truncates the compressed output.
void writeGzip(const std::string& path, std::string_view content, size_t keep_bytes = 0);

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};
// Runs `command` through /bin/sh, capturing stdout and stderr.
CommandResult runCommand(const std::string& command);
// Path of the built damscope binary.
std::string damscopeBinary();

// A PyTorch profiler (Kineto) JSON trace of `steps` ProfilerSteps: in each the
// host spends 600 µs (+ slow_us) in the DataLoader before launching 300 µs of
// GEMM, so the run is data-bound. `rank` goes into distributedInfo (world 2).
std::string dataBoundKinetoTrace(int rank, int slow_us, int steps = 3);
// One rank of a data-parallel job: each 1 ms step launches a GEMM and an NCCL
// all-reduce, the all-reduce entered `late_us` after the others' (a straggler
// when large).
std::string allReduceKinetoTrace(int rank, int world_size, int late_us, int steps = 4);

// dataBoundKinetoTrace with hostile names: the kernel, the device and the
// DataLoader range each carry a line break followed by a forged "VERDICT"
// line, a carriage return, and the invisible format controls that reorder
// or hide text (U+202E, U+2066/2069, U+200B, U+FEFF, U+E0001).
std::string forgedNamesKinetoTrace(int rank, int slow_us);
// The lines of `out` that start with "VERDICT", and whether `out` holds one of
// the format controls forgedNamesKinetoTrace puts in names, raw.
size_t linesStartingWithVerdict(const std::string& out);
bool hasRawFormatControl(const std::string& out);

}  // namespace damscope::testing
