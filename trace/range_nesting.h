// Nesting of ranges: fills ranges.depth and ranges.parent_id.
//
// Ranges nest per timeline: a host thread (thread_id), or a GPU stream
// (device, stream) for GPU-side annotations. Within one timeline a range's
// parent is the innermost earlier range that fully contains it. Ranges that
// overlap without containment (NVTX start/end ranges may) get no parent but
// still a depth one below the open ranges, so that they draw on their own lane.
#pragma once

#include "trace/tables.h"

namespace damscope {

// Requires `ranges` sorted by (ts, -dur), as sortByTime leaves it.
void computeRangeNesting(RangeTable& ranges);

}  // namespace damscope
