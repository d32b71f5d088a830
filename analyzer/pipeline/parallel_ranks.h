// Runs one piece of work per rank on several threads: the pipeline's ranks
// are independent until the cross-rank comparison, so a run of many ranks
// uses every core (issue 13). Each thread takes the next rank not yet taken,
// so memory holds at most `jobs` ranks' events at a time, and results go to
// the caller's slot for that rank: their order is the input order whatever
// order the threads finish in.
#pragma once

#include <cstddef>
#include <functional>

#include "base/result.h"

namespace damscope {

// The number of threads `jobs` asks for: itself when positive, else one per
// hardware thread; never more than `pieces` nor less than one.
size_t threadsFor(int jobs, size_t pieces);

// Calls work(i) for every i in [0, pieces) on threadsFor(jobs, pieces)
// threads. After a failure no further piece is started; the error returned is
// that of the lowest failing index, so it does not depend on the timing.
Status forEachPiece(size_t pieces, int jobs, const std::function<Status(size_t)>& work);

}  // namespace damscope
