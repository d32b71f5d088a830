// The D·A·M scorecard and verdict: where each step's time went, in the terms
// of the decision an engineer has to make, and which bottleneck to attack
// first.
//
// Every nanosecond of a step (its interval aligned to its GPU work, steps.h)
// on the rank's primary device (the one with the most GPU work) goes to
// exactly one axis, so the axes sum to 100 %:
//   compute_bound          a compute-bound kernel runs (GEMM, convolution,
//                          attention: kernel_categories.h)
//   memory_bound           else a memory-bound kernel, device copy or memset
//   exposed_communication  else a collective kernel or peer copy runs (it is
//                          not hidden behind computation), or the GPU idles
//                          waiting for one (gap cause communication_wait)
//   data_stall             else a host<->device copy runs, or the GPU idles
//                          while the host loads data (gap cause data_loading)
//   host_stall             the GPU idles for the host to launch work
//                          (gap cause host_launch)
//   sync_stall             the GPU idles after the host blocked on it
//                          (gap cause synchronization)
//   other_idle             the GPU idles for a reason the trace does not show
// Busy time takes precedence over idle time in that order; idle time is
// charged by the device gaps' cause segments (idle_gaps.h).
//
// The verdict follows the diagnostic order performance engineers use
// (Brendan Gregg's USE method applied to the GPU; NVIDIA's "optimize the
// pipeline before the kernels" advice in the PyTorch/Nsight performance
// guides): first, is the GPU starved? If the stall axes (everything but
// compute_bound and memory_bound) take at least
// ScorecardOptions::starved_pct of the time, no kernel optimization can
// help much, and the verdict is the largest stall: data -> "data-bound",
// host launch or sync -> "host-bound", exposed communication ->
// "communication-bound". If idle time the trace does not explain (other_idle)
// is the largest, the verdict says exactly that — "starved", the cause not in
// the trace — and names the largest known stall next (largestKnownStall),
// rather than charging the host with idle it was never seen causing: a
// verdict must not contradict its own bar (a trace called host-bound at
// 0.3 % host stall and 49.8 % unexplained idle misleads the reader into
// tuning launches). Otherwise the GPU is fed, and the larger of compute- and
// memory-bound kernel time names it: "compute-bound" (Algorithm) or
// "memory-bound" (Machine). The default threshold, 20 %, is where removing
// the stalls is worth at least 1.25x, more than typical kernel-level wins.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "analyzer/analyses/analysis_input.h"
#include "analyzer/analyses/analysis_window.h"
#include "analyzer/analyses/idle_gaps.h"
#include "analyzer/analyses/steps.h"
#include "base/result.h"

namespace damscope {

enum class Axis : uint8_t {
  kDataStall,
  kHostStall,
  kSyncStall,
  kExposedCommunication,
  kMemoryBound,
  kComputeBound,
  kOtherIdle,
};
constexpr size_t kAxisCount = 7;
std::string_view toText(Axis axis);
std::string_view axisLabel(Axis axis);  // for people: "data stall"

enum class Verdict : uint8_t {
  kNone,
  kDataBound,
  kHostBound,
  kCommunicationBound,
  kMemoryBound,
  kComputeBound,
  kStarved,  // the largest stall is idle the trace does not explain
};
constexpr size_t kVerdictCount = 7;
std::string_view toText(Verdict verdict);        // "data-bound"
// "the input pipeline starves the GPU"; `kind` kCpu speaks of a CPU run's ops.
std::string_view verdictLabel(Verdict verdict, DeviceKind kind = DeviceKind::kGpu);
// Data | Algorithm | Machine | Communication | Host | Unknown (starved)
std::string_view damTerm(Verdict verdict);

struct Scorecard {
  int64_t start = 0;
  int64_t end = 0;
  std::array<int64_t, kAxisCount> ns{};
  Verdict verdict = Verdict::kNone;
  Axis deciding_axis = Axis::kOtherIdle;  // the axis the verdict rests on

  // Sum of the axes: the time the scorecard splits (the steps' durations).
  int64_t total() const;
  double pct(Axis axis) const;
  double stallPct() const;  // everything but compute_bound and memory_bound
  // The largest stall the trace explains (data, host, sync or exposed
  // communication), ties to the earlier one; empty when none took any time.
  // A starved verdict names it next.
  std::optional<Axis> largestKnownStall() const;
  bool operator==(const Scorecard&) const = default;
};

struct ScorecardOptions {
  double starved_pct = 20.0;
};

struct ScorecardReport {
  bool valid = false;
  int32_t device = 0;            // the primary device
  Scorecard run;                 // the analysed steps together (or the window)
  std::vector<Scorecard> steps;  // one per StepReport step
  std::vector<std::string> notes;
};

ScorecardReport computeScorecard(const AnalysisInput& input, const StepReport& steps,
                                 const WindowReport& window, const GapReport& gaps,
                                 const ScorecardOptions& options);

// The verdict for a scorecard (exposed for tests and for per-step use).
void decideVerdict(Scorecard& card, const ScorecardOptions& options);

}  // namespace damscope
