// Why the straggler is slow (analyzer/pipeline/straggler_cause.h), on rank
// results made by hand: the excess against the median of the other ranks,
// per analysed step, the largest first; small ones, exposed communication and
// communication kernels left out; ops compared only where every rank lists
// them; and the words the finding appends.
#include "analyzer/pipeline/straggler_cause.h"

#include <gtest/gtest.h>

namespace damscope {
namespace {

// A rank of 4 analysed 100 ms steps: `host_ms` host stall and `data_ms` data
// stall per step, the rest compute-bound GEMMs and `comm_ms` of exposed
// all-reduce.
RankResult rankOf(double host_ms, double data_ms, double comm_ms, double gemm_ms) {
  RankResult r;
  r.window.step_count = 4;
  const auto ns = [](double per_step_ms) { return static_cast<int64_t>(per_step_ms * 4e6); };
  r.window.avg_step_ns = (host_ms + data_ms + comm_ms + gemm_ms) * 1e6;
  ScorecardResult card;
  card.run.ns[static_cast<size_t>(Axis::kHostStall)] = ns(host_ms);
  card.run.ns[static_cast<size_t>(Axis::kDataStall)] = ns(data_ms);
  card.run.ns[static_cast<size_t>(Axis::kExposedCommunication)] = ns(comm_ms);
  card.run.ns[static_cast<size_t>(Axis::kComputeBound)] = ns(gemm_ms);
  r.scorecard = card;
  r.kernels.categories = {{KernelCategory::kGemm, 40, ns(gemm_ms), 0},
                          {KernelCategory::kCommunication, 4, ns(comm_ms + 5), 0}};
  r.kernels.total_ns = ns(gemm_ms + comm_ms + 5);
  OpRow op;
  op.name = "aten::mm";
  op.gpu_total_ns = ns(gemm_ms);
  r.top_ops.push_back(op);
  return r;
}

std::vector<const RankResult*> jobOf(const std::vector<RankResult>& ranks) {
  std::vector<const RankResult*> job;
  job.reserve(ranks.size());
  for (const RankResult& r : ranks) job.push_back(&r);
  return job;
}

TEST(StragglerCause, NamesWhatItSpendsThatTheMedianRankDoesNot) {
  // Rank 3 spends 41 ms more on data; the others wait for it in the
  // all-reduce (their exposed communication), which is not its cause.
  std::vector<RankResult> ranks = {rankOf(2, 1, 45, 50), rankOf(3, 2, 44, 50), rankOf(2, 1, 46, 51),
                                   rankOf(2, 42, 2, 50)};
  const std::vector<const RankResult*> job = jobOf(ranks);
  const StragglerCause c = stragglerCause(ranks[3], job);
  ASSERT_EQ(c.excesses.size(), 1u);
  EXPECT_EQ(c.excesses[0].what, "data stall");
  EXPECT_DOUBLE_EQ(c.excesses[0].rank_ns, 42e6);
  EXPECT_DOUBLE_EQ(c.excesses[0].median_ns, 1e6);
  EXPECT_DOUBLE_EQ(c.kernel_ns, 50e6);  // GEMMs only: communication left out
  EXPECT_DOUBLE_EQ(c.median_kernel_ns, 50e6);
  EXPECT_EQ(stragglerCauseWords(c),
            "it spends +41.0 ms per step on data stall (42.0 ms against 1.0 ms on the median "
            "rank); its kernels take the same time as the median rank's (50.0 ms per step)");
}

TEST(StragglerCause, SlowerKernelsAreNamedByCategoryAndOp) {
  std::vector<RankResult> ranks = {rankOf(2, 1, 30, 50), rankOf(2, 1, 30, 50), rankOf(2, 1, 2, 80)};
  const std::vector<const RankResult*> job = jobOf(ranks);
  const StragglerCause c = stragglerCause(ranks[2], job);
  ASSERT_EQ(c.excesses.size(), 3u);
  // Three 30 ms excesses: in name order.
  EXPECT_EQ(c.excesses[0].what, "compute-bound kernels");
  EXPECT_EQ(c.excesses[1].what, "gemm kernels");
  EXPECT_EQ(c.excesses[2].what, "op aten::mm");
  EXPECT_NE(stragglerCauseWords(c).find("its kernels take 1.60x the median rank's"),
            std::string::npos)
      << stragglerCauseWords(c);
}

TEST(StragglerCause, NothingToSayWithoutStepsOrExcess) {
  std::vector<RankResult> ranks = {rankOf(2, 1, 30, 50), rankOf(2, 1, 30, 50)};
  const std::vector<const RankResult*> job = jobOf(ranks);
  const StragglerCause same = stragglerCause(ranks[1], job);
  EXPECT_TRUE(same.excesses.empty());
  EXPECT_EQ(stragglerCauseWords(same),
            "its kernels take the same time as the median rank's (50.0 ms per step)");
  ranks[1].window.step_count = 0;
  EXPECT_EQ(stragglerCauseWords(stragglerCause(ranks[1], job)), "");
}

}  // namespace
}  // namespace damscope
