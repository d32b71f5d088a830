// A time window of one rank's trace: what a Shift-drag on the timeline
// selects and the diagnosis, scorecard and statistics are then re-scoped to
// (analyzer/pipeline/window_analysis.h). [start, end) in ns on the trace's
// clock; a person reads it relative to the trace's start, as the ruler shows
// time.
#pragma once

#include <cstdint>

#include <QMetaType>
#include <QString>

namespace damscope {

struct TimeWindow {
  int64_t start = 0;  // ns
  int64_t end = 0;    // ns, > start for a window that holds anything
  int64_t duration() const { return end - start; }
  bool contains(int64_t ts) const { return ts >= start && ts < end; }
  bool operator==(const TimeWindow&) const = default;
};

// "1.20–1.45 s": both ends relative to `origin` (the trace's start) in one
// unit, the end's natural one (ns, µs, ms or s), with the decimals that show
// the window's length to two significant digits.
QString windowText(const TimeWindow& window, int64_t origin);

}  // namespace damscope

Q_DECLARE_METATYPE(damscope::TimeWindow)
