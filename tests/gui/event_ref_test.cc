// Event references: from a finding's evidence to spans and names on the run.
#include "gui/models/event_ref.h"

#include <gtest/gtest.h>

#include "tests/gui/gui_test_support.h"
#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::analysedRunOf;
using testing::smallTrainingTrace;

TEST(EventRef, FindingEvidenceBecomesEventsWithSpansAndNames) {
  const AnalysedRun run = analysedRunOf(smallTrainingTrace());
  ASSERT_EQ(run.run.ranks.size(), 1u);
  const RankResult& rank = run.run.ranks[0];
  ASSERT_FALSE(rank.findings.findings.empty());
  const Finding& first = rank.findings.findings.front();
  const EventRefs refs = eventsOfFinding(first, 0);
  ASSERT_FALSE(refs.empty()) << first.rule;
  size_t events = 0;
  for (const EvidenceItem& item : first.evidence) {
    if (item.source != EvidenceSource::kCounters && item.source != EvidenceSource::kStats) {
      ++events;
    }
  }
  EXPECT_EQ(refs.size(), events);
  for (size_t i = 0; i < refs.size(); ++i) {
    const auto span = spanOf(refs[i], run);
    ASSERT_TRUE(span.has_value());
    EXPECT_FALSE(nameOf(refs[i], run).empty());
  }
  const auto all = spanOf(refs, run);
  ASSERT_TRUE(all.has_value());
  for (const EventRef& r : refs) {
    EXPECT_LE(all->ts, spanOf(r, run)->ts);
    EXPECT_GE(all->end(), spanOf(r, run)->end());
  }
}

TEST(EventRef, GapsAndKernelsAreNamedForPeople) {
  const AnalysedRun run = analysedRunOf(smallTrainingTrace());
  const RankResult& rank = run.run.ranks[0];
  ASSERT_FALSE(rank.gaps.empty());
  const EventRef gap{0, EventKind::kGap, 0};
  EXPECT_EQ(nameOf(gap, run).rfind("gap: ", 0), 0u);
  EXPECT_EQ(spanOf(gap, run)->ts, rank.gaps[0].ts);
  const EventRef kernel{0, EventKind::kKernel, 0};
  const std::string name = nameOf(kernel, run);
  EXPECT_TRUE(name == "volta_sgemm_128x64_nn" || name == "vectorized_elementwise_kernel") << name;
  EXPECT_EQ(nameOf({0, EventKind::kMemcpy, 0}, run), "memcpy HtoD");
}

TEST(EventRef, AnnotatedRangesAreNamedAsTheirOpOrCollective) {
  testing::TraceBuilder b;
  b.range(0, 10, "{\"op\":\"matmul_fwd\",\"name\":\"qkv\",\"flops\":1e6}", "", 0, "damscope");
  b.range(20, 10, "{\"collective\":\"all_reduce\",\"bucket\":0,\"bytes\":4096}", "", 1, "damscope");
  b.range(40, 10, "{\"something\":1}", "", 0, "damscope");
  const AnalysedRun run = analysedRunOf(b.build());
  EXPECT_EQ(nameOf({0, EventKind::kRange, 0}, run), "matmul_fwd(qkv)");
  EXPECT_EQ(nameOf({0, EventKind::kRange, 1}, run), "all_reduce");
  EXPECT_EQ(nameOf({0, EventKind::kRange, 2}, run), "{\"something\":1}");
}

TEST(EventRef, KernelsNamedAreEveryRunInTimeOrder) {
  const AnalysedRun run = analysedRunOf(smallTrainingTrace());
  const EventRefs gemms = kernelsNamed(run, 0, "volta_sgemm_128x64_nn");
  ASSERT_EQ(gemms.size(), 9u);  // 3 of the 6 kernels in each of 3 steps
  for (size_t i = 1; i < gemms.size(); ++i) {
    EXPECT_LT(spanOf(gemms[i - 1], run)->ts, spanOf(gemms[i], run)->ts);
  }
  EXPECT_TRUE(kernelsNamed(run, 0, "no such kernel").empty());
  EXPECT_TRUE(kernelsNamed(run, 5, "volta_sgemm_128x64_nn").empty());
}

TEST(EventRef, TheLaunchOfAKernelOrCopyIsTheCallWithItsCorrelationId) {
  testing::TraceBuilder b;
  b.device(0, 80);
  const int64_t copy_call = b.call(0, 5, "cudaMemcpyAsync");
  b.memcpy(10, 4, copy_call);
  b.launchKernel(20, 30, 5, "k");
  b.kernel(40, 5, "unlaunched", kNullInt);
  const AnalysedRun run = analysedRunOf(b.build());
  const TraceTables& t = run.tables[0];
  const auto copy = launchOf({0, EventKind::kMemcpy, 0}, run);
  ASSERT_TRUE(copy);
  EXPECT_EQ(copy->kind, EventKind::kApiCall);
  EXPECT_EQ(nameOf(*copy, run), "cudaMemcpyAsync");
  EXPECT_EQ(t.api_calls.correlation_id[static_cast<size_t>(copy->id)], t.memcpys.correlation_id[0]);
  size_t launched = 0;
  for (size_t k = 0; k < t.kernels.size(); ++k) {
    const auto call = launchOf({0, EventKind::kKernel, static_cast<int64_t>(k)}, run);
    if (t.strings.get(t.kernels.name[k]) == "unlaunched") {
      EXPECT_FALSE(call) << "no correlation id";
      continue;
    }
    ASSERT_TRUE(call);
    EXPECT_EQ(nameOf(*call, run), "cudaLaunchKernel");
    EXPECT_LT(spanOf(*call, run)->ts,
              spanOf({0, EventKind::kKernel, static_cast<int64_t>(k)}, run)->ts);
    ++launched;
  }
  EXPECT_EQ(launched, 1u);
  EXPECT_FALSE(launchOf(*copy, run)) << "a call launches, it is not launched";
  EXPECT_FALSE(launchOf({0, EventKind::kKernel, 99}, run)) << "a stale id";
}

TEST(EventRef, StaleReferencesNameNothing) {
  const AnalysedRun run = analysedRunOf(smallTrainingTrace());
  EXPECT_FALSE(spanOf(EventRef{0, EventKind::kKernel, 1 << 20}, run));
  EXPECT_FALSE(spanOf(EventRef{0, EventKind::kKernel, -1}, run));
  EXPECT_FALSE(spanOf(EventRef{3, EventKind::kKernel, 0}, run));
  EXPECT_EQ(nameOf(EventRef{0, EventKind::kGap, 99999}, run), "");
  EXPECT_FALSE(spanOf(EventRefs{}, run));
  EXPECT_FALSE(eventOfEvidence(EvidenceItem{EvidenceSource::kStats, 1}, 0));
}

TEST(EventRef, AGpuOperationNamesTheTableThatHoldsIt) {
  EXPECT_EQ(eventKindOf(GpuOpKind::kKernel), EventKind::kKernel);
  EXPECT_EQ(eventKindOf(GpuOpKind::kMemcpy), EventKind::kMemcpy);
  EXPECT_EQ(eventKindOf(GpuOpKind::kMemset), EventKind::kMemset);
  EXPECT_EQ(eventKindOf(GpuOpKind::kSync), EventKind::kSync);
}

}  // namespace
}  // namespace damscope
