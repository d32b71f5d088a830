// The lost_spans rows of a capture: see lost_span_rows.h.
#include "collector/lost_span_rows.h"

#include <algorithm>

#include "collector/capture_writer.h"

namespace damscope::collector {

void LostSpanRows::onLoss(const std::string& stat, int64_t from, int64_t to, int64_t events) {
  if (events <= 0 || to < from) return;
  LostSpanTable& spans = capture_.batch().lost_spans;
  auto last =
      std::find_if(last_.begin(), last_.end(), [&](const Last& l) { return l.stat == stat; });
  if (last != last_.end() && last->end == from) {
    last->end = to;
    last->events += events;
    if (capture_.inBatch(spans, last->id)) {
      const size_t i = capture_.batchIndex(spans, last->id);
      spans.dur[i] = last->end - last->ts;
      spans.events[i] = last->events;
    } else {
      capture_.update(LostSpanTable::kSqlName, "dur", last->id, last->end - last->ts);
      capture_.update(LostSpanTable::kSqlName, "events", last->id, last->events);
    }
    return;
  }
  const int64_t id = capture_.nextId(spans);
  spans.append({from, to - from, stat, events});
  if (last == last_.end()) {
    last_.push_back({stat, id, from, to, events});
  } else {
    *last = {stat, id, from, to, events};
  }
}

}  // namespace damscope::collector
