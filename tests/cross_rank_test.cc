// Cross-rank comparison: stragglers against the median rank and the start
// skew of matched collectives.
#include "analyzer/analyses/cross_rank.h"

#include <gtest/gtest.h>

namespace damscope {
namespace {

RankTimeline rank(int32_t id, const std::vector<int64_t>& step_ns,
                  const std::vector<int64_t>& collective_starts) {
  RankTimeline t;
  t.rank = id;
  for (size_t i = 0; i < step_ns.size(); ++i) t.steps.push_back({int64_t(i) + 10, step_ns[i]});
  for (int64_t s : collective_starts) t.collectives.push_back({0, s});
  t.start_ns = 0, t.end_ns = 10'000;
  return t;
}

TEST(CrossRank, ConsistentlySlowRankIsAStraggler) {
  const std::vector<RankTimeline> ranks = {
      rank(0, {100, 100, 100, 100}, {0, 1000}), rank(1, {101, 99, 100, 100}, {5, 1005}),
      rank(2, {120, 121, 119, 130}, {40, 1090}),  // last into every collective
  };
  const CrossRankReport r = computeCrossRank(ranks, {});
  ASSERT_EQ(r.ranks.size(), 3u);
  EXPECT_FALSE(r.ranks[0].straggler);
  EXPECT_FALSE(r.ranks[1].straggler);
  EXPECT_TRUE(r.ranks[2].straggler);
  EXPECT_EQ(r.ranks[2].steps, 4);
  EXPECT_NEAR(r.ranks[2].slower_than_median_pct, 20.0, 1e-9);  // median of 18.8, 21, 19, 30
  EXPECT_EQ(r.ranks[0].collectives, 2);
  EXPECT_EQ(r.ranks[0].max_start_skew_ns, 90);
  EXPECT_EQ(r.ranks[0].median_start_skew_ns, 65);
  EXPECT_DOUBLE_EQ(r.ranks[2].last_to_start_pct, 100.0);
  EXPECT_DOUBLE_EQ(r.ranks[0].last_to_start_pct, 0.0);
  // Each waits inside the collectives for the last to arrive (rank 2).
  EXPECT_EQ(r.ranks[0].peer_wait_ns, (40 - 0) + (1090 - 1000));
  EXPECT_EQ(r.ranks[1].peer_wait_ns, (40 - 5) + (1090 - 1005));
  EXPECT_EQ(r.ranks[2].peer_wait_ns, 0);
}

TEST(CrossRank, RankOthersWaitForInSynchronisedStepsIsAStraggler) {
  // Data parallel with an all-reduce per step: every rank's step lasts as
  // long as rank 1's, which starts every all-reduce 30 ns (30 % of a step) late.
  const std::vector<RankTimeline> ranks = {
      rank(0, {100, 100, 100, 100}, {50, 150, 250, 350}),
      rank(1, {100, 100, 100, 100}, {80, 180, 280, 380}),
  };
  const CrossRankReport r = computeCrossRank(ranks, {});
  EXPECT_FALSE(r.ranks[0].straggler);
  EXPECT_TRUE(r.ranks[1].straggler);
  EXPECT_DOUBLE_EQ(r.ranks[1].slower_than_median_pct, 0.0) << "step times cannot show it";
  bool said = false;
  for (const auto& n : r.notes) said = said || n.find("rank 1 started last in 4 of the 4") == 0;
  EXPECT_TRUE(said);
}

TEST(CrossRank, SmallOrAlternatingStartSkewMakesNoStraggler) {
  // Skews under 5 % of a step, and sizeable ones that alternate between ranks.
  const CrossRankReport small = computeCrossRank(
      {rank(0, {100, 100, 100, 100}, {50, 150, 250, 350}),
       rank(1, {100, 100, 100, 100}, {53, 153, 253, 353})},
      {});
  EXPECT_FALSE(small.ranks[1].straggler);
  const CrossRankReport alternating = computeCrossRank(
      {rank(0, {100, 100, 100, 100}, {50, 180, 250, 380}),
       rank(1, {100, 100, 100, 100}, {80, 150, 280, 350})},
      {});
  EXPECT_FALSE(alternating.ranks[0].straggler);
  EXPECT_FALSE(alternating.ranks[1].straggler);
}

TEST(CrossRank, OccasionalSlowStepIsNotAStraggler) {
  const std::vector<RankTimeline> ranks = {
      rank(0, {100, 100, 100, 100}, {}),
      rank(1, {100, 100, 100, 100}, {}),
      rank(2, {100, 150, 100, 100}, {}),
  };
  const CrossRankReport r = computeCrossRank(ranks, {});
  EXPECT_FALSE(r.ranks[2].straggler);
  EXPECT_EQ(r.ranks[2].collectives, 0);
}

TEST(CrossRank, RanksThatDidNotRunTogetherGetNoSkew) {
  RankTimeline later = rank(1, {100, 100}, {1'000'005});
  later.start_ns = 1'000'000, later.end_ns = 1'010'000;
  const CrossRankReport r = computeCrossRank({rank(0, {100, 100}, {5}), later}, {});
  EXPECT_EQ(r.ranks[0].collectives, 0);
  EXPECT_EQ(r.ranks[0].steps, 2) << "step times still compare";
  bool said = false;
  for (const auto& n : r.notes) said = said || n.find("do not overlap") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(CrossRank, CollectivesMatchByNameAndOccurrenceWhateverTheClocks) {
  // Two names interleaved; the second rank has one all-gather fewer and a
  // clock far ahead (matching does not look at the clocks: computeCrossRank
  // checks the overlap first).
  RankTimeline a = rank(0, {}, {});
  a.collectives = {{0, 100}, {1, 200}, {0, 300}, {1, 400}};
  RankTimeline b = rank(1, {}, {});
  b.collectives = {{1, 1'000'210}, {0, 1'000'150}, {0, 1'000'330}};
  const std::vector<MatchedCollective> m = matchCollectives({a, b});
  EXPECT_EQ(m, (std::vector<MatchedCollective>{{0, {100, 1'000'150}},
                                               {0, {300, 1'000'330}},
                                               {1, {200, 1'000'210}}}));
  EXPECT_EQ(m[0].skewNs(), 1'000'050);
  EXPECT_TRUE(matchCollectives({a}).empty());
}

TEST(CrossRank, OneRankOrNoCommonStepsIsSaid) {
  EXPECT_EQ(computeCrossRank({rank(0, {100}, {})}, {}).notes.front(),
            "one rank: nothing to compare");
  RankTimeline other = rank(1, {100}, {});
  other.steps[0].number = 99;
  const CrossRankReport r = computeCrossRank({rank(0, {100}, {}), other}, {});
  EXPECT_EQ(r.ranks[0].steps, 0);
  bool said = false;
  for (const auto& n : r.notes) said = said || n.find("no step number") != std::string::npos;
  EXPECT_TRUE(said);
}

}  // namespace
}  // namespace damscope
