// Whether the launching thread was busy or asleep while the device waited
// for it (issue 29 §5): host/launch stall has two opposite causes, and the
// collector's CPU samples tell them apart. A thread that runs flat out
// between launches is framework or Python overhead (fewer, larger ops, CUDA
// graphs); one that sleeps is waiting on something (I/O, a lock, a sleep,
// another thread), which no launch-side fix touches.
//
// From the collector's per-thread utilization counters
// (cpu_thread_utilization_pct of the main thread, collector/cpu_sampler.h: a
// value covers its time until the thread's next sample; the last one sample
// interval, the median of the thread's), time-weighted over the
// host/launch-stall segments of the window's device gaps (idle_gaps.h).
// Thresholds: busy from kBusyPct, asleep up to kAsleepPct (damscope's: a
// Python launch loop measures 95-100 % of a core, a thread blocked in a read
// or a sleep near 0).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "analyzer/analyses/analysis_input.h"
#include "analyzer/analyses/idle_gaps.h"

namespace damscope {

constexpr double kBusyPct = 80;
constexpr double kAsleepPct = 30;

struct LaunchThreadCpu {
  int64_t stall_ns = 0;            // host/launch-stall time of the window's device gaps
  int64_t sampled_ns = 0;          // the part of it the main thread's samples cover
  std::optional<double> busy_pct;  // the thread's mean utilization over that part
};

LaunchThreadCpu launchThreadCpu(const AnalysisInput& input, const GapReport& gaps);

// "the launching thread is busy on the CPU 97 % of that time: framework and
// Python overhead between launches", "... busy only 3 % of that time: it
// waits on something (I/O, a lock, a sleep)", or "" without samples over at
// least half the stall.
std::string launchThreadWords(const LaunchThreadCpu& cpu);

}  // namespace damscope
