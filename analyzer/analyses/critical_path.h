// The critical path of a step: the longest chain of dependent work through
// the host threads and the GPU streams, and what bounds each piece of it.
// The scorecard says where the time went; the critical path says which time
// a fix can take away: a stall hidden behind other work is not on it, and
// removing one that is shortens the step only until another chain becomes
// the longest (issue 29 §1).
//
// The graph follows HTA's critical path analysis (HolisticTraceAnalysis,
// hta/analyzers/critical_path_analysis.py, CPGraph, at f4d0062c), so that
// its path lengths agree with HTA's on the same trace (tests pin three):
//   - nodes: the start and the end of every host op (framework ops, data
//     loading ranges), runtime call and GPU operation (kernel, copy, memset)
//     whose launch starts inside the window, events of zero length left out;
//   - host edges, per thread, walking its nested events depth first: from
//     the last node seen to the next start or end. Between two top-level
//     events the edge weighs nothing (the thread's time outside any event is
//     not work the trace can name); inside an event it weighs the time
//     between the two nodes, except the time a blocking call (synchronize,
//     synchronous copy) waits, which belongs to the GPU work it waits for;
//   - the CUDA runtime lock: cudaLaunchKernel, cudaMemcpyAsync and
//     cudaHostAlloc on different threads serialize, in the order they end;
//   - launch: runtime call start -> GPU operation start, weighing the launch
//     delay when the stream's queue was empty at the call and at the start
//     (queue: calls launched and not yet started, per stream); otherwise the
//     edge weighs nothing and the stream's previous operation's end -> this
//     start weighs the gap between them, when under kKernelGapLimitNs;
//   - GPU operation start -> end weighs its duration;
//   - synchronization: a stream sync waits for the stream's last operation,
//     a context sync for every stream's (the edge ends at the end of the
//     runtime call that synchronized).
// The critical path is the longest path through this graph (weights are
// non-negative; each node's longest distance in topological order).
//
// Where this differs from HTA: HTA also links cudaStreamWaitEvent and
// cudaEventSynchronize to the kernel before the recorded event, which needs
// the event record's correlation id Kineto writes only in newer traces; the
// store does not keep it, so cross-stream event waits are not edges here.
// HTA reads data loading only when told which ranges load data; here the
// data loading ranges the host activity knows (name_patterns.h) are always
// nodes. HTA remaps the backward thread onto the forward one when exactly
// one thread has each; so does this. On a CPU run (no GPU: the device ops
// are the ranges themselves) the op ranges are the work, and traces without
// framework ops (NVTX-annotated programs, the bundled trainer) take their
// host ranges as ops.
//
// Each edge with a weight is bounded by one thing (HTA's bound_by): the CPU,
// data loading, a kernel, communication, a launch delay or a gap between
// kernels. `without_ns` answers "what if this were free": the path length
// less what giving every edge of one bound no weight takes off the longest
// path, recomputed, so the answer accounts for the next-longest chain. The
// what-ifs also follow each stream's order where HTA's graph has no edge
// (two operations more than kKernelGapLimitNs apart, or the second one
// waiting for its launch): with a faster host the second would wait for the
// first instead.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "analyzer/analyses/analysis_input.h"
#include "analyzer/analyses/analysis_window.h"
#include "analyzer/analyses/steps.h"

namespace damscope {

enum class PathBound : uint8_t {
  kCpu,            // host work: framework ops, runtime calls
  kData,           // data loading ranges on the host
  kKernel,         // GPU operations (kernels, copies, memsets); device ops on a CPU run
  kCommunication,  // collective kernels and peer copies
  kLaunchDelay,    // runtime call start to its GPU operation's start, queue empty
  kKernelGap,      // idle time between consecutive operations on a stream
};
constexpr size_t kPathBoundCount = 6;
std::string_view toText(PathBound bound);

// HTA's KERNEL_KERNEL_DELAY_THRESHOLD_US (1.5 ms): a longer gap between two
// operations on a stream is a dependency the trace does not show, not a
// delay between them.
constexpr int64_t kKernelGapLimitNs = 1'500'000;

struct CriticalPath {
  int64_t length_ns = 0;                              // the sum of the path's edge weights
  std::array<int64_t, kPathBoundCount> bound_ns{};    // length_ns, split by bound
  std::array<int64_t, kPathBoundCount> without_ns{};  // length with a bound free
  bool operator==(const CriticalPath&) const = default;
};

// The critical path of the work launched within [start, end) (HTA's window:
// host events that start in it, GPU operations whose launch call does; HTA
// closes it at `end` too, which hands an event starting exactly at a step's
// end to two consecutive steps).
CriticalPath computeCriticalPath(const AnalysisInput& input, int64_t start, int64_t end);

struct StepCriticalPath {
  size_t step = 0;  // index into StepReport::steps
  CriticalPath path;
  bool operator==(const StepCriticalPath&) const = default;
};

// One critical path per analysed step, over its host range (HTA's
// annotation window for ProfilerStep); with more than kMaxCriticalPathSteps
// analysed steps, that many spread evenly over them (the first, and every
// k-th after it): a graph per step of a 1,000-step trace of a million
// kernels would cost as much as all the other analyses together, while the
// projections are medians over the steps.
constexpr size_t kMaxCriticalPathSteps = 64;
std::vector<StepCriticalPath> computeStepCriticalPaths(const AnalysisInput& input,
                                                       const StepReport& steps,
                                                       const WindowReport& window);

// What freeing one bound's time would do, over the analysed steps: its share
// of their critical paths, and the median step with it free (each step's
// duration less what freeing it takes off that step's path) next to the
// median step measured. Medians, as a warm-up or checkpoint step would
// drag a mean. Empty without paths or when the paths hold none of it.
struct PathProjection {
  double on_path_pct = 0;
  int64_t step_ns = 0;
  int64_t projected_step_ns = 0;
  bool operator==(const PathProjection&) const = default;
};
std::optional<PathProjection> projectWithout(PathBound bound, const std::vector<int64_t>& step_ns,
                                             const std::vector<CriticalPath>& paths);

}  // namespace damscope
