// The lost_spans rows of a capture: see lost_span_rows.h.
#include "collector/lost_span_rows.h"

#include <algorithm>

#include "collector/capture_writer.h"

namespace damscope::collector {

void LostSpanRows::atCommit(const std::string& stat, int64_t total, int64_t now) {
  auto it =
      std::find_if(stats_.begin(), stats_.end(), [&](const Stat& s) { return s.stat == stat; });
  if (it == stats_.end()) it = stats_.insert(stats_.end(), Stat{stat});
  Stat& s = *it;
  const int64_t events = total - s.total;
  s.total = total;
  if (events <= 0 || now < checked_ns_) return;
  LostSpanTable& spans = capture_.batch().lost_spans;
  if (s.id >= 0 && s.end == checked_ns_) {
    s.end = now;
    s.events += events;
    if (capture_.inBatch(spans, s.id)) {
      const size_t i = capture_.batchIndex(spans, s.id);
      spans.dur[i] = s.end - s.ts;
      spans.events[i] = s.events;
    } else {
      capture_.update(LostSpanTable::kSqlName, "dur", s.id, s.end - s.ts);
      capture_.update(LostSpanTable::kSqlName, "events", s.id, s.events);
    }
    return;
  }
  s.id = capture_.nextId(spans);
  s.ts = checked_ns_, s.end = now, s.events = events;
  spans.append({s.ts, s.end - s.ts, stat, events});
}

}  // namespace damscope::collector
