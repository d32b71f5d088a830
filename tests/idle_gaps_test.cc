// Gaps and their causes on the golden step (trace_builder.h), where each
// cause appears once, plus HTA's stream idle categories.
#include "analyzer/analyses/idle_gaps.h"

#include <gtest/gtest.h>

#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::us;

struct Analysed {
  TraceTables tables = testing::goldenStepTrace();
  AnalysisInput input = AnalysisInput::build(tables);
  StepReport steps = computeSteps(input, {});
  WindowReport window = computeWindow(input, steps, {});
  GapReport gaps = computeGaps(input, steps, window, {});

  const Gap* find(int64_t start_us, bool device) const {
    for (const Gap& g : gaps.gaps) {
      if (g.start == us(start_us) && g.deviceScope() == device) return &g;
    }
    return nullptr;
  }
  int64_t share(const Gap& g, GapCause c) const { return g.by_cause[static_cast<size_t>(c)]; }
};

TEST(IdleGaps, DeviceGapsCoverTheStepAndEachHasItsCause) {
  const Analysed a;
  EXPECT_EQ(a.gaps.device_gap_count, 7u);
  int64_t idle = 0;
  for (size_t i = 0; i < a.gaps.device_gap_count; ++i) idle += a.gaps.gaps[i].duration();
  EXPECT_EQ(idle, us(320 + 110 + 60 + 10 + 10 + 10 + 50));

  const Gap* data = a.find(0, true);
  ASSERT_NE(data, nullptr);
  EXPECT_EQ(data->cause, GapCause::kDataLoading);
  EXPECT_EQ(a.share(*data, GapCause::kDataLoading), us(300));
  EXPECT_EQ(a.share(*data, GapCause::kOther), us(10));  // untraced host time before the launch
  EXPECT_EQ(a.share(*data, GapCause::kHostLaunch), us(10));
  EXPECT_EQ(data->evidence_table, EvidenceTable::kRanges);
  EXPECT_EQ(a.tables.strings.get(a.tables.ranges.name[static_cast<size_t>(data->evidence_row)]),
            "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");

  const Gap* sync = a.find(400, true);
  ASSERT_NE(sync, nullptr);
  EXPECT_EQ(sync->cause, GapCause::kSynchronization);
  EXPECT_EQ(a.share(*sync, GapCause::kSynchronization), us(100));
  EXPECT_EQ(a.share(*sync, GapCause::kHostLaunch), us(10));
  EXPECT_EQ(sync->evidence_table, EvidenceTable::kApiCalls);
  EXPECT_EQ(a.tables.strings.get(a.tables.api_calls.name[static_cast<size_t>(sync->evidence_row)]),
            "cudaDeviceSynchronize");

  const Gap* launch = a.find(600, true);
  ASSERT_NE(launch, nullptr);
  EXPECT_EQ(launch->cause, GapCause::kHostLaunch);
  EXPECT_EQ(a.share(*launch, GapCause::kHostLaunch), us(60));

  const Gap* queued = a.find(700, true);
  ASSERT_NE(queued, nullptr);
  EXPECT_EQ(queued->cause, GapCause::kHostLaunch) << "queued work, gap under 30 µs: launch latency";

  const Gap* tail = a.find(950, true);
  ASSERT_NE(tail, nullptr);
  EXPECT_EQ(tail->cause, GapCause::kOther);
  EXPECT_EQ(tail->next_op, -1);
}

TEST(IdleGaps, DeviceGapSegmentsAreTimeResolvedAndAddUp) {
  const Analysed a;
  const Gap* data = a.find(0, true);
  ASSERT_NE(data, nullptr);
  ASSERT_EQ(data->segment_count, 3u);
  const CauseSegment* s = &a.gaps.segments[data->first_segment];
  EXPECT_EQ(s[0].cause, GapCause::kDataLoading);
  EXPECT_EQ(s[0].end, us(300));
  EXPECT_EQ(s[1].cause, GapCause::kOther);
  EXPECT_EQ(s[2].cause, GapCause::kHostLaunch);
  EXPECT_EQ(s[2].end, us(320));
}

TEST(IdleGaps, StreamGapsSeeCommunicationWaitsAndHtaCategories) {
  const Analysed a;
  const Gap* wait = a.find(750, false);
  ASSERT_NE(wait, nullptr);
  EXPECT_EQ(wait->stream, 7);
  EXPECT_EQ(wait->duration(), us(150));
  EXPECT_EQ(wait->cause, GapCause::kCommunicationWait);
  EXPECT_EQ(wait->hta, HtaIdleCategory::kOther);
  EXPECT_EQ(a.find(400, false)->hta, HtaIdleCategory::kHostWait);
  EXPECT_EQ(a.find(700, false)->hta, HtaIdleCategory::kKernelWait);

  // HTA's per-stream totals over the window.
  bool found = false;
  for (const StreamIdleSummary& s : a.gaps.hta_streams) {
    if (s.stream != 7) continue;
    found = true;
    EXPECT_EQ(s.host_wait_ns, us(110 + 60));
    EXPECT_EQ(s.kernel_wait_ns, us(10));
    EXPECT_EQ(s.other_ns, us(150));
  }
  EXPECT_TRUE(found);
}

TEST(IdleGaps, PageableCopyCallsCountAsSynchronization) {
  testing::TraceBuilder b;
  b.step(0, 100, 1);
  b.launchKernel(0, 0, 10, "k");
  // The copy's call starts at 20 and blocks until the copy begins at 60.
  b.memcpy(60, 10, b.call(20, 50, "cudaMemcpyAsync"), CopyKind::kHtoD, MemoryKind::kPageable);
  const TraceTables t = b.build();
  const AnalysisInput in = AnalysisInput::build(t);
  const StepReport steps = computeSteps(in, {});
  const WindowReport window = computeWindow(in, steps, {});
  const GapReport r = computeGaps(in, steps, window, {});
  ASSERT_GE(r.device_gap_count, 1u);
  const Gap& g = r.gaps[0];
  EXPECT_EQ(g.start, us(10));
  EXPECT_EQ(g.by_cause[static_cast<size_t>(GapCause::kSynchronization)], us(40));
}

}  // namespace
}  // namespace damscope
