// The human diff of two runs (`damscope diff`): the verdict change first, then
// the step time, then what moved: the D·A·M scorecard side by side, the HTA
// breakdown and GPU utilization, kernel categories, the kernels that moved
// most, and the findings that appeared or disappeared. Plain text, 100
// columns. A function of the diff model only (analyzer/result/run_diff.h).
#pragma once

#include <string>

#include "analyzer/result/run_diff.h"

namespace damscope {

std::string formatRankDiff(const RankDiff& diff);
std::string formatRunDiff(const RunDiff& diff);

}  // namespace damscope
