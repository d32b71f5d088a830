// Find by name on the timeline, headless: a case-insensitive substring search
// over one rank's kernel, range and API call names, with next and previous
// from a position in time, wrapping at either end (the timeline's Ctrl+F,
// Enter, F3 and Shift+F3).
//
// Each distinct name (string id) is matched once and the name columns are
// then scanned by id, so a search costs one pass over the pool's strings and
// one over the ids, not a string compare per event. Matches are kept in time
// order (ties by the event reference), so next/previous are binary searches.
// Names are matched as they are stored (a range's JSON message included), the
// way `nsys stats` filters by name.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <QString>

#include "gui/models/event_ref.h"

namespace damscope {

// A match, or a position to search from: a time and, to break ties among
// events that start together, an event (id -1 sorts before every event).
struct SearchPosition {
  int64_t ts = 0;  // ns on the trace's clock
  EventRef event;
  // clang-tidy 14 reads the defaulted <=>'s comparison with 0 as a null pointer.
  auto operator<=>(const SearchPosition&) const = default;  // NOLINT(modernize-use-nullptr)
};

class TimelineSearch {
 public:
  TimelineSearch() = default;
  // The matches of `text` (case-insensitive, a substring) on `rank` of `run`;
  // none for empty text or a rank the run does not have.
  TimelineSearch(const AnalysedRun& run, int32_t rank, const QString& text);

  const QString& text() const { return text_; }
  int32_t rank() const { return rank_; }
  const std::vector<SearchPosition>& matches() const { return matches_; }
  bool empty() const { return matches_.empty(); }

  // The position of a time alone: before every event that starts at `ts`.
  SearchPosition at(int64_t ts) const { return {ts, EventRef{rank_, EventKind::kKernel, -1}}; }
  // The first match after `from`, or the first of all past the last one.
  std::optional<EventRef> next(const SearchPosition& from) const;
  // The last match before `from`, or the last of all before the first one.
  std::optional<EventRef> previous(const SearchPosition& from) const;
  // Where `match` stands among the matches (0 for the first), for "3 of 41";
  // none when it is not one of them.
  std::optional<size_t> indexOf(const SearchPosition& match) const;

 private:
  QString text_;
  int32_t rank_ = 0;
  std::vector<SearchPosition> matches_;
};

}  // namespace damscope
