// Find by name on the timeline: see timeline_search.h.
#include "gui/models/timeline_search.h"

#include <algorithm>

#include "gui/models/qt_text.h"

namespace damscope {

TimelineSearch::TimelineSearch(const AnalysedRun& run, int32_t rank, const QString& text)
    : text_(text), rank_(rank) {
  if (text.isEmpty() || rank < 0 || static_cast<size_t>(rank) >= run.tables.size()) return;
  const TraceTables& t = run.tables[static_cast<size_t>(rank)];
  std::vector<uint8_t> hit(t.strings.size(), 0);
  for (size_t s = 0; s < t.strings.size(); ++s) {
    hit[s] = qtString(t.strings.get(StringId{static_cast<int32_t>(s)}))
                 .contains(text, Qt::CaseInsensitive);
  }
  auto scan = [&](const std::vector<StringId>& names, const std::vector<int64_t>& ts,
                  EventKind kind) {
    for (size_t i = 0; i < names.size(); ++i) {
      if (names[i].valid() && hit[static_cast<size_t>(names[i].value)]) {
        matches_.push_back({ts[i], EventRef{rank, kind, static_cast<int64_t>(i)}});
      }
    }
  };
  scan(t.kernels.name, t.kernels.ts, EventKind::kKernel);
  scan(t.ranges.name, t.ranges.ts, EventKind::kRange);
  scan(t.api_calls.name, t.api_calls.ts, EventKind::kApiCall);
  std::sort(matches_.begin(), matches_.end());
}

std::optional<EventRef> TimelineSearch::next(const SearchPosition& from) const {
  if (matches_.empty()) return std::nullopt;
  const auto it = std::upper_bound(matches_.begin(), matches_.end(), from);
  return (it == matches_.end() ? matches_.front() : *it).event;
}

std::optional<EventRef> TimelineSearch::previous(const SearchPosition& from) const {
  if (matches_.empty()) return std::nullopt;
  const auto it = std::lower_bound(matches_.begin(), matches_.end(), from);
  return (it == matches_.begin() ? matches_.back() : *std::prev(it)).event;
}

std::optional<size_t> TimelineSearch::indexOf(const SearchPosition& match) const {
  const auto it = std::lower_bound(matches_.begin(), matches_.end(), match);
  if (it == matches_.end() || *it != match) return std::nullopt;
  return static_cast<size_t>(it - matches_.begin());
}

}  // namespace damscope
