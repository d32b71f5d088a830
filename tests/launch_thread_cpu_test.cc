// The launching thread's CPU during host/launch stall
// (analyzer/analyses/launch_thread_cpu.h), on traces built by hand: kernels
// launched late, and the main thread's utilization samples over the gaps
// busy, asleep, or missing; and the launch_overhead finding's words.
#include "analyzer/analyses/launch_thread_cpu.h"

#include <gtest/gtest.h>

#include "analyzer/analyses/rank_analysis.h"
#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::TraceBuilder;
using testing::us;

// Ten steps of 1 ms: a 100 µs kernel launched at the step's start, then host
// work until a second is launched at 800 µs: the GPU waits ~700 µs per step
// for the host. The
// main thread samples `pct` every 100 µs (from `from_us`, if given).
TraceTables lateLaunches(double pct, double from_us = 0) {
  TraceBuilder b;
  b.device(0, 80);
  for (int s = 0; s < 10; ++s) {
    const double t = s * 1000.0;
    b.step(t, 1000, s + 1);
    b.launchKernel(t + 1, t + 5, 100, "ampere_sgemm_128x64_nn");
    b.range(t + 110, 690, "aten::add");  // host work before the next launch
    b.launchKernel(t + 800, t + 805, 150, "ampere_sgemm_128x64_nn");
  }
  const StringId name = b.tables().strings.intern("cpu_thread_utilization_pct");
  for (double t = from_us; t < 10000; t += 100) {
    b.tables().counters.append({us(t), name, pct, kNullInt32, 0});
  }
  return b.build();
}

LaunchThreadCpu cpuOf(const TraceTables& t) {
  const RankAnalysis a = analyzeRank(t, {}).value();
  return launchThreadCpu(*a.input, a.gaps);
}

TEST(LaunchThreadCpu, BusyAndAsleepAreToldApart) {
  const TraceTables busy_trace = lateLaunches(97);
  const LaunchThreadCpu busy = cpuOf(busy_trace);
  EXPECT_GT(busy.stall_ns, us(5000));
  EXPECT_EQ(busy.sampled_ns, busy.stall_ns);
  ASSERT_TRUE(busy.busy_pct);
  EXPECT_DOUBLE_EQ(*busy.busy_pct, 97);
  EXPECT_EQ(launchThreadWords(busy),
            "the launching thread is busy on the CPU 97 % of that time: framework and Python "
            "overhead between launches");

  const TraceTables asleep_trace = lateLaunches(3);
  EXPECT_EQ(launchThreadWords(cpuOf(asleep_trace)),
            "the launching thread is busy only 3 % of that time: it waits on something (I/O, a "
            "lock, a sleep, another thread), not on launches");
  EXPECT_NE(launchThreadWords(cpuOf(lateLaunches(55))).find("partly overhead, partly waiting"),
            std::string::npos);
}

TEST(LaunchThreadCpu, TooFewSamplesSayNothing) {
  // Samples only over the last 3 of 10 steps: under half the stall.
  const TraceTables late = lateLaunches(97, 7000);
  const LaunchThreadCpu cpu = cpuOf(late);
  EXPECT_GT(cpu.sampled_ns, 0);
  EXPECT_LT(2 * cpu.sampled_ns, cpu.stall_ns);
  EXPECT_EQ(launchThreadWords(cpu), "");
  // No samples at all.
  TraceTables none = lateLaunches(97);
  none.counters = {};
  EXPECT_FALSE(cpuOf(none).busy_pct);
}

TEST(LaunchThreadCpu, TheLaunchOverheadFindingSaysWhichItIs) {
  const RankAnalysis a = analyzeRank(lateLaunches(3), {}).value();
  const Finding* f = nullptr;
  for (const Finding& x : a.findings.findings) {
    if (x.rule == "launch_overhead") f = &x;
  }
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->title.find("; the launching thread is busy only 3 %"), std::string::npos)
      << f->title;
}

}  // namespace
}  // namespace damscope
