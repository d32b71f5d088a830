// Cross-rank comparison, when several ranks of one job are analysed together:
// step time per rank, stragglers, and how far apart the ranks enter their
// collectives.
//
//  - Steps are matched across ranks by step number; for each step the median
//    over ranks is the reference. A rank's slowdown is the median over its
//    matched steps of (its step time / the step's median - 1). A straggler
//    is consistently slower than the median: slower by more than
//    CrossRankOptions::straggler_pct in at least `consistency` of the matched
//    steps. (With two ranks the median is their mean.)
//  - Collectives are matched by order: NCCL requires every rank of a
//    communicator to issue the same collectives in the same order, so the
//    n-th communication kernel of a given name on each rank belongs to the
//    same collective. Its start skew is the latest start minus the earliest;
//    the rank that starts last is the one the others waited for (HTA's
//    straggler reasoning over collective start times: hta/analyzers/
//    straggler.py).
//  - When collectives synchronise the ranks (data parallel all-reduce every
//    step), the fast ranks wait for the slow one inside the collective and
//    every rank's step lasts as long: step times show no straggler. A
//    collective is then "waited at" when its start skew exceeds
//    straggler_pct of the median step; if there are such waits on at least
//    `consistency` of the matched steps and one rank started last in at
//    least `consistency` of them, that rank is a straggler too, and a note
//    says how many waits it caused.
// Ranks must share a clock (CLOCK_REALTIME on one host, or synchronized
// clocks across hosts); the report says so, since clock offset adds to skew.
// Ranks whose analysed time ranges do not overlap at all cannot be one job on
// one clock: no skew is computed for them, and the report says why.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"

namespace damscope {

struct RankStepTime {
  int64_t number = 0;
  int64_t dur_ns = 0;
};

struct RankCollective {
  int32_t name = 0;  // an id that is equal for equal kernel names across ranks
  int64_t start_ns = 0;
  bool operator==(const RankCollective&) const = default;
};

struct RankTimeline {
  int32_t rank = 0;
  std::string source;
  std::vector<RankStepTime> steps;          // analysed steps
  std::vector<RankCollective> collectives;  // communication kernels in time order
  int64_t start_ns = 0;                     // the rank's analysed time range
  int64_t end_ns = 0;
};

struct CrossRankOptions {
  double straggler_pct = 5.0;
  double consistency = 0.75;
};

struct RankComparison {
  int32_t rank = 0;
  std::string source;
  int64_t steps = 0;  // matched steps
  int64_t median_step_ns = 0;
  double slower_than_median_pct = 0;  // median over matched steps
  bool straggler = false;
  int64_t collectives = 0;           // matched collectives
  int64_t median_start_skew_ns = 0;  // over the matched collectives (same for every rank)
  int64_t max_start_skew_ns = 0;
  double last_to_start_pct = 0;  // share of matched collectives this rank started last
  // Communication: waiting for peers versus transfer (issue 29 §3). Inside a
  // collective a rank first waits for the last rank to arrive, then moves
  // data: peer_wait_ns sums, over the matched collectives, the latest rank's
  // start minus this rank's. Of the rank's exposed communication (its
  // scorecard axis), waiting_pct is that wait (at most all of it) and
  // transfer_pct the rest, both % of its analysed steps' time; filled by the
  // pipeline, which has the scorecard.
  int64_t peer_wait_ns = 0;
  double waiting_pct = 0;
  double transfer_pct = 0;
  bool operator==(const RankComparison&) const = default;
};

struct CrossRankReport {
  std::vector<RankComparison> ranks;  // in input order
  std::vector<std::string> notes;
};

CrossRankReport computeCrossRank(const std::vector<RankTimeline>& ranks,
                                 const CrossRankOptions& options);

// One collective matched across the ranks by (name, occurrence), as above:
// start_ns[r] is when ranks[r] started it. The skew is the latest start
// minus the earliest.
struct MatchedCollective {
  int32_t name = 0;
  std::vector<int64_t> start_ns;  // one per rank, in input order
  int64_t skewNs() const;
  bool operator==(const MatchedCollective&) const = default;
};
// The collectives common to every rank, by name id then occurrence; empty with
// fewer than two ranks. It matches whatever the clocks: computeCrossRank
// checks first that the ranks' time ranges overlap.
std::vector<MatchedCollective> matchCollectives(const std::vector<RankTimeline>& ranks);

}  // namespace damscope
