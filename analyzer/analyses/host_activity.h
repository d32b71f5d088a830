// What each host thread was doing over time, for explaining GPU idle time.
//
// Per thread, the recorded activity is reduced to one timeline of
// non-overlapping segments, each labelled with the most telling thing the
// thread was inside at that moment, in this order of precedence:
//   1. kSync           a call that blocks until the GPU catches up
//                      (synchronize, synchronous or pageable copies)
//   2. kDataLoading    a data-loading range (DataLoader iteration, "data")
//   3. kCommunication  a collective's host range (nccl:all_reduce, c10d::...)
//   4. kCudaApi        any other CUDA/HIP API call (launches, allocations)
//   5. kFrameworkOp    a framework op on the CPU (ATen cpu_op ranges)
// Time covered by none of them is untraced: the trace does not say what the
// thread did (Python between ops, or time outside the profiler's view).
//
// Built once in O(n log n); a query walks the segments of [start, end) in
// O(log n + k). Each segment keeps the event that labelled it, as evidence.
#pragma once

#include <cstdint>
#include <vector>

#include "analyzer/analyses/analysis_input.h"

namespace damscope {

enum class HostActivity : uint8_t {
  kSync,
  kDataLoading,
  kCommunication,
  kCudaApi,
  kFrameworkOp,
  kUntraced
};
constexpr size_t kHostActivityCount = 6;

struct HostSegment {
  int64_t start = 0;
  int64_t end = 0;
  HostActivity activity = HostActivity::kUntraced;
  bool from_api = false;  // evidence row is in api_calls (else in ranges)
  int64_t row = -1;       // the event that labelled the segment
};

class HostActivityIndex {
 public:
  explicit HostActivityIndex(const AnalysisInput& input);

  // Calls visit(segment) for every labelled or untraced piece of [start, end)
  // on `thread` (a threads row), in time order, clipped to the range. An
  // unknown thread reads as untraced.
  template <typename Visit>
  void forEach(int64_t thread, int64_t start, int64_t end, Visit&& visit) const;

 private:
  // Segments of thread t: segments_[offsets_[t] .. offsets_[t + 1]).
  std::vector<HostSegment> segments_;
  std::vector<size_t> offsets_;
  const HostSegment* find(int64_t thread, int64_t start, const HostSegment** last) const;
};

template <typename Visit>
void HostActivityIndex::forEach(int64_t thread, int64_t start, int64_t end, Visit&& visit) const {
  if (end <= start) return;
  const HostSegment* last = nullptr;
  const HostSegment* it = find(thread, start, &last);
  int64_t cursor = start;
  for (; it && it != last && it->start < end; ++it) {
    if (it->start > cursor)
      visit(HostSegment{cursor, it->start, HostActivity::kUntraced, false, -1});
    HostSegment piece = *it;
    piece.start = std::max(piece.start, cursor);
    piece.end = std::min(piece.end, end);
    if (piece.end > piece.start) visit(piece);
    cursor = std::max(cursor, piece.end);
  }
  if (cursor < end) visit(HostSegment{cursor, end, HostActivity::kUntraced, false, -1});
}

}  // namespace damscope
