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
// Built once, in linear time for the sorted tables the store keeps (O(n log n)
// otherwise); a query walks the segments of [start, end) in O(log n + k).
// Each segment keeps the event that labelled it, as evidence.
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
  int32_t row = -1;  // the event that labelled the segment (-1: none)
  HostActivity activity = HostActivity::kUntraced;
  bool from_api = false;  // the row is in api_calls (else in ranges)
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
  // One painted timeline per thread: segments_[offsets_[t] .. offsets_[t + 1]),
  // non-overlapping and in time order.
  struct Timeline {
    std::vector<HostSegment> segments;
    std::vector<size_t> offsets;
    std::pair<const HostSegment*, const HostSegment*> thread(int64_t thread, int64_t from) const;
  };
  // API calls (sync, other calls) and ranges (data loading, communication,
  // framework ops) are painted apart and combined per query: painting them
  // together would cut every op range into the pieces between its calls.
  Timeline calls_;
  Timeline ranges_;
};

template <typename Visit>
void HostActivityIndex::forEach(int64_t thread, int64_t start, int64_t end, Visit&& visit) const {
  if (end <= start) return;
  auto [a, a_end] = calls_.thread(thread, start);
  auto [r, r_end] = ranges_.thread(thread, start);
  int64_t cursor = start;
  while (cursor < end) {
    while (a != a_end && a->end <= cursor) ++a;
    while (r != r_end && r->end <= cursor) ++r;
    const bool in_call = a != a_end && a->start <= cursor;
    const bool in_range = r != r_end && r->start <= cursor;
    int64_t next = end;
    if (a != a_end) next = std::min(next, in_call ? a->end : a->start);
    if (r != r_end) next = std::min(next, in_range ? r->end : r->start);
    HostSegment piece{cursor, next, -1, HostActivity::kUntraced, false};
    // The more telling of the two (lower enum value) labels the piece.
    if (in_call && (!in_range || a->activity < r->activity)) {
      piece.activity = a->activity, piece.row = a->row, piece.from_api = true;
    } else if (in_range) {
      piece.activity = r->activity, piece.row = r->row, piece.from_api = false;
    }
    visit(piece);
    cursor = next;
  }
}

}  // namespace damscope
