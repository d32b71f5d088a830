// How the ranks of one job are put on one clock for the stacked timeline, and
// their collectives matched across ranks for the skew lane. Pure functions of
// the AnalysedRun (no Qt), safe off the UI thread.
//
// The clock, in order of preference:
//   - kOneRank: a single rank, shown as recorded;
//   - kCollectorClock: every rank was recorded on the same host (the trace's
//     processes name one hostname), so the collectors stamped one clock: the
//     CUPTI and Kineto timestamps of processes on one host come from the
//     same system clock (CLOCK_REALTIME or its GPU-synchronised image), and
//     the ranks are shown as recorded;
//   - kCollectiveEnds: otherwise, where the ranks share collectives, each
//     rank is shifted so that its matched collectives end when the first
//     rank's do (the median over the matched collectives of the difference,
//     so a few outliers do not move it). An NCCL collective cannot complete on
//     any rank before the last rank has joined it, so the matched ends of a
//     ring or tree collective lie within a link latency of each other while
//     their starts differ by the skew one wants to see (NCCL's collectives
//     are blocking across the communicator: docs.nvidia.com/deeplearning/
//     nccl/user-guide/docs/usage/collectives.html);
//   - kAsRecorded: no shared host and no collective common to all ranks: the
//     ranks are shown as recorded, and the view says their clocks may differ.
// Collectives are matched as the cross-rank analysis matches them
// (matchCollectives, analyzer/analyses/cross_rank.h: by name and occurrence).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/pipeline/pipeline.h"

namespace damscope {

enum class ClockAlignment : uint8_t { kOneRank, kCollectorClock, kCollectiveEnds, kAsRecorded };

// One matched collective on the view's clock: when the first and the last
// rank started it (the skew lane's bar), and which ranks those were.
struct CollectiveSkew {
  std::string name;
  int64_t first_start = 0;  // ns, on the view's clock
  int64_t last_start = 0;
  int32_t earliest_rank = 0;  // index into AnalysedRun::tables
  int32_t latest_rank = 0;
  int64_t skewNs() const { return last_start - first_start; }
  bool operator==(const CollectiveSkew&) const = default;
};

struct RankAlignment {
  ClockAlignment how = ClockAlignment::kOneRank;
  // Added to each rank's times (index into AnalysedRun::tables) to put them
  // on the view's clock; the first rank's is 0.
  std::vector<int64_t> offset_ns;
  // How the clock was chosen, for the view's status after "N ranks": "on the
  // collector's clock (one host: node7)", "aligned on 212 matched collective
  // ends (no common host)", "as recorded (...)".
  std::string description;
  // The matched collectives, on the view's clock, in order of first start.
  std::vector<CollectiveSkew> collectives;
};

// The alignment of every rank of `run` (run.tables must hold every rank).
RankAlignment alignRanks(const AnalysedRun& run);

// The skew lane's tooltip: the collective's name, the ranks that started it
// first and last (as the trace numbers them) and the skew.
std::string skewTooltip(const CollectiveSkew& skew, const AnalysedRun& run);

}  // namespace damscope
