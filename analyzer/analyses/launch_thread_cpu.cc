// The launching thread's CPU during host/launch stall: see launch_thread_cpu.h.
#include "analyzer/analyses/launch_thread_cpu.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/median.h"

namespace damscope {
namespace {

struct Sample {
  int64_t start = 0;
  int64_t end = 0;
  double pct = 0;
};

// The main thread's utilization as a step function, in time order.
std::vector<Sample> mainThreadSamples(const AnalysisInput& in) {
  const TraceTables& t = in.tables();
  const StringId name = t.strings.find("cpu_thread_utilization_pct");
  std::vector<Sample> out;
  if (!name.valid() || isNull(in.mainThread())) return out;
  const CounterTable& c = t.counters;
  for (size_t i = 0; i < c.size(); ++i) {
    if (c.name[i] == name && c.thread_id[i] == in.mainThread()) {
      out.push_back({c.ts[i], c.ts[i], c.value[i]});
    }
  }
  std::sort(out.begin(), out.end(),
            [](const Sample& a, const Sample& b) { return a.start < b.start; });
  if (out.size() < 2) return {};
  std::vector<int64_t> intervals;
  for (size_t i = 0; i + 1 < out.size(); ++i) {
    out[i].end = out[i + 1].start;
    intervals.push_back(out[i].end - out[i].start);
  }
  out.back().end = out.back().start + static_cast<int64_t>(median(intervals));
  return out;
}

}  // namespace

LaunchThreadCpu launchThreadCpu(const AnalysisInput& in, const GapReport& gaps) {
  LaunchThreadCpu r;
  const std::vector<Sample> samples = mainThreadSamples(in);
  double weighted = 0;
  for (const Gap& g : gaps.gaps) {
    if (!g.deviceScope() || !g.in_window) continue;
    for (uint32_t s = g.first_segment; s < g.first_segment + g.segment_count; ++s) {
      const CauseSegment& seg = gaps.segments[s];
      if (seg.cause != GapCause::kHostLaunch || seg.end <= seg.start) continue;
      r.stall_ns += seg.end - seg.start;
      // The samples overlapping the segment.
      auto it = std::upper_bound(samples.begin(), samples.end(), seg.start,
                                 [](int64_t t, const Sample& x) { return t < x.end; });
      for (; it != samples.end() && it->start < seg.end; ++it) {
        const int64_t overlap = std::min(seg.end, it->end) - std::max(seg.start, it->start);
        if (overlap <= 0) continue;
        r.sampled_ns += overlap;
        weighted += it->pct * static_cast<double>(overlap);
      }
    }
  }
  if (r.sampled_ns > 0) r.busy_pct = weighted / static_cast<double>(r.sampled_ns);
  return r;
}

std::string launchThreadWords(const LaunchThreadCpu& cpu) {
  if (!cpu.busy_pct || 2 * cpu.sampled_ns < cpu.stall_ns) return "";
  const double pct = *cpu.busy_pct;
  if (pct >= kBusyPct) {
    return fmt::format(
        "the launching thread is busy on the CPU {:.0f} % of that time: framework and Python "
        "overhead between launches",
        pct);
  }
  if (pct <= kAsleepPct) {
    return fmt::format(
        "the launching thread is busy only {:.0f} % of that time: it waits on something (I/O, a "
        "lock, a sleep, another thread), not on launches",
        pct);
  }
  return fmt::format(
      "the launching thread is busy on the CPU {:.0f} % of that time: partly overhead, partly "
      "waiting",
      pct);
}

}  // namespace damscope
