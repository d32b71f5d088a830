// Why the straggler is slow (issue 29 §4): for a rank named a straggler, what
// it spends per step that the median rank does not, from the ranks' stored
// results, so the cross-rank finding says what to look at ("rank 1 spends
// +150.2 ms per step on host/launch stall; its kernels take the same time as
// the median rank's").
//
// Compared per analysed step (each rank's figures over its own analysed
// steps): the scorecard axes, kernel time per category, and GPU time per top
// op (in the top-op tables of this rank and the others). Against each
// figure's median over the other ranks (the "median rank"). The largest
// excesses are named, those of at least kMinExcess of the median step;
// exposed communication and communication kernels are left out, as they are
// where the other ranks wait for the straggler, not what makes it slow.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "analyzer/result/analysis_result.h"

namespace damscope {

// The smallest excess named, as a share of the median rank's step.
constexpr double kMinExcess = 0.05;

struct RankExcess {
  std::string what;      // "host/launch stall", "gemm kernels", "op aten::mm"
  double rank_ns = 0;    // per step, this rank
  double median_ns = 0;  // per step, the median over the job's ranks
  bool operator==(const RankExcess&) const = default;
};

struct StragglerCause {
  std::vector<RankExcess> excesses;  // largest first, at most three
  // Computation kernel time per step: this rank's and the median rank's.
  double kernel_ns = 0;
  double median_kernel_ns = 0;
  bool operator==(const StragglerCause&) const = default;
};

// Empty excesses when no rank has analysed steps to compare per step.
StragglerCause stragglerCause(const RankResult& rank, std::span<const RankResult* const> job);

// "spends +150.2 ms per step on host/launch stall (151.0 against 0.8 ms on
// the median rank); its kernels take the same time as the median rank's
// (60.1 ms per step)"; empty when nothing stands out.
std::string stragglerCauseWords(const StragglerCause& cause);

}  // namespace damscope
