// Writes bench/synthetic_trace.h's training trace as a run.db, for the
// benchmarks that need a trace file of a size no shared trace has:
// bench/large_trace_bench.sh exports it to Kineto JSON and times the first
// analysis of that.
//   synthetic_run_db KERNELS OUT.db
// KERNELS kernels make about 2.1 x KERNELS events (a launch call per kernel,
// a range per ten); OUT.db is replaced if it exists.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench/synthetic_trace.h"
#include "trace/trace_writer.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: synthetic_run_db KERNELS OUT.db\n");
    return 2;
  }
  char* end = nullptr;
  const long long kernels = std::strtoll(argv[1], &end, 10);
  if (*end != '\0' || kernels <= 0) {
    std::fprintf(stderr, "synthetic_run_db: KERNELS must be a positive number, not %s\n", argv[1]);
    return 2;
  }
  const damscope::TraceTables trace = damscope::syntheticTrainingTrace(kernels);
  if (damscope::Status saved = damscope::saveTrace(trace, argv[2], /*overwrite=*/true);
      !saved.ok()) {
    std::fprintf(stderr, "synthetic_run_db: %s\n", saved.error().message().c_str());
    return 1;
  }
  std::printf("%s: %lld events\n", argv[2], static_cast<long long>(trace.eventCount()));
  return 0;
}
