// Nesting of ranges: see range_nesting.h.
#include "trace/range_nesting.h"

#include <unordered_map>
#include <vector>

namespace damscope {
namespace {

struct TimelineKey {
  int64_t thread_id;
  int64_t device;
  int64_t stream;
  bool operator==(const TimelineKey&) const = default;
};

struct TimelineKeyHash {
  size_t operator()(const TimelineKey& k) const {
    return std::hash<int64_t>()(k.thread_id) ^ (std::hash<int64_t>()(k.device) << 1) ^
           (std::hash<int64_t>()(k.stream) << 2);
  }
};

}  // namespace

void computeRangeNesting(RangeTable& ranges) {
  // The stack of open ranges (row indexes) on each timeline.
  std::unordered_map<TimelineKey, std::vector<int64_t>, TimelineKeyHash> open;
  const size_t n = ranges.size();
  for (size_t i = 0; i < n; ++i) {
    const TimelineKey key = isNull(ranges.thread_id[i])
                                ? TimelineKey{kNullInt, ranges.device[i], ranges.stream[i]}
                                : TimelineKey{ranges.thread_id[i], kNullInt, kNullInt};
    auto& stack = open[key];
    const int64_t ts = ranges.ts[i];
    const int64_t end = ts + ranges.dur[i];
    while (!stack.empty() && ranges.ts[stack.back()] + ranges.dur[stack.back()] <= ts) {
      stack.pop_back();
    }
    ranges.depth[i] = static_cast<int32_t>(stack.size());
    ranges.parent_id[i] = kNullInt;
    if (!stack.empty()) {
      const int64_t top = stack.back();
      if (end <= ranges.ts[top] + ranges.dur[top]) ranges.parent_id[i] = top;
    }
    stack.push_back(static_cast<int64_t>(i));
  }
}

}  // namespace damscope
