// What the GUI tests share: small runs analysed in memory, as the GUI would
// hold them after opening a trace.
#pragma once

#include <vector>

#include "analyzer/pipeline/pipeline.h"
#include "trace/tables.h"

namespace damscope::testing {

// The ranks' tables analysed as one run, without touching a file.
AnalysedRun analysedRunOf(std::vector<TraceTables> ranks);
AnalysedRun analysedRunOf(TraceTables rank);

// A two-step run of one GPU with a data-loading stall before each step's
// kernels, a host-launch gap, a memcpy, NVTX-like ranges and launch calls:
// enough for every row kind of the timeline and a data-bound finding.
TraceTables smallTrainingTrace(int32_t rank = 0);

}  // namespace damscope::testing
