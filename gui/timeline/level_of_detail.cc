// Level-of-detail aggregates of the timeline's lanes: see level_of_detail.h.
#include "gui/timeline/level_of_detail.h"

#include <algorithm>

namespace damscope {
namespace {

LodItem itemOf(const LaneEvent& e) {
  return {e.start, e.end, e.end - e.start, e.id, e.end - e.start, 1, e.kind};
}

std::vector<int64_t> prefixMaxEnd(size_t n, auto endAt) {
  std::vector<int64_t> out(n);
  int64_t running = 0;
  for (size_t i = 0; i < n; ++i) {
    running = i == 0 ? endAt(i) : std::max(running, endAt(i));
    out[i] = running;
  }
  return out;
}

// One level of width `width` from the items of the level below.
std::vector<LodItem> fold(const std::vector<LodItem>& below, int64_t width) {
  std::vector<LodItem> out;
  out.reserve(below.size() / 2);
  bool open = false;
  LodItem run;
  for (const LodItem& item : below) {
    if (item.end - item.start >= width) {
      if (open) out.push_back(run);
      open = false;
      out.push_back(item);
      continue;
    }
    if (open && item.start < run.end + width) {
      run.end = std::max(run.end, item.end);
      run.busy_ns += item.busy_ns;
      run.count += item.count;
      if (item.longest_ns > run.longest_ns) {
        run.longest_ns = item.longest_ns;
        run.id = item.id;
        run.kind = item.kind;
      }
      continue;
    }
    if (open) out.push_back(run);
    run = item;
    open = true;
  }
  if (open) out.push_back(run);
  out.shrink_to_fit();
  return out;
}

}  // namespace

LevelOfDetail::LevelOfDetail(const TimelineRows& rows) : rows_(&rows) {
  lanes_.resize(rows.lanes.size());
  for (size_t l = 0; l < rows.lanes.size(); ++l) {
    const Lane& lane = rows.lanes[l];
    std::vector<Level>& levels = lanes_[l];
    Level base;
    base.max_end = prefixMaxEnd(lane.events.size(), [&](size_t i) { return lane.events[i].end; });
    levels.push_back(std::move(base));
    if (lane.kind == LaneKind::kCounter || lane.events.size() < 2) continue;
    const int64_t span = rows.end - rows.start;
    std::vector<LodItem> current(lane.events.size());
    std::transform(lane.events.begin(), lane.events.end(), current.begin(), itemOf);
    size_t stored = current.size();
    for (int64_t width = kBaseWidthNs; current.size() > 1 && width / kGrowth <= span;
         width *= kGrowth) {
      current = fold(current, width);
      if (static_cast<double>(current.size()) > kKeepFraction * static_cast<double>(stored)) {
        continue;
      }
      Level level;
      level.width = width;
      level.items = current;
      level.max_end = prefixMaxEnd(current.size(), [&](size_t i) { return current[i].end; });
      stored = current.size();
      levels.push_back(std::move(level));
    }
  }
}

void LevelOfDetail::query(int lane, int64_t t0, int64_t t1, double ns_per_px,
                          std::vector<LodItem>& out) const {
  if (lane < 0 || static_cast<size_t>(lane) >= lanes_.size()) return;
  const std::vector<Level>& levels = lanes_[static_cast<size_t>(lane)];
  size_t k = 0;
  while (k + 1 < levels.size() && static_cast<double>(levels[k + 1].width) <= ns_per_px) ++k;
  const Level& level = levels[k];
  // The first item whose running max end passes t0: every item before it ends by t0.
  const size_t first = static_cast<size_t>(
      std::upper_bound(level.max_end.begin(), level.max_end.end(), t0) - level.max_end.begin());
  if (k == 0) {
    const auto& events = rows_->lanes[static_cast<size_t>(lane)].events;
    for (size_t i = first; i < events.size() && events[i].start < t1; ++i) {
      if (events[i].end > t0 || events[i].start >= t0) out.push_back(itemOf(events[i]));
    }
    return;
  }
  for (size_t i = first; i < level.items.size() && level.items[i].start < t1; ++i) {
    const LodItem& item = level.items[i];
    if (item.end > t0 || item.start >= t0) out.push_back(item);
  }
}

int LevelOfDetail::levelCount(int lane) const {
  return static_cast<int>(lanes_[static_cast<size_t>(lane)].size());
}

int64_t LevelOfDetail::levelWidth(int lane, int level) const {
  return lanes_[static_cast<size_t>(lane)][static_cast<size_t>(level)].width;
}

std::vector<LodItem> LevelOfDetail::levelItems(int lane, int level) const {
  if (level == 0) {
    const auto& events = rows_->lanes[static_cast<size_t>(lane)].events;
    std::vector<LodItem> out(events.size());
    std::transform(events.begin(), events.end(), out.begin(), itemOf);
    return out;
  }
  return lanes_[static_cast<size_t>(lane)][static_cast<size_t>(level)].items;
}

size_t LevelOfDetail::bytes() const {
  size_t n = sizeof(*this) + lanes_.capacity() * sizeof(std::vector<Level>);
  for (const auto& levels : lanes_) {
    n += levels.capacity() * sizeof(Level);
    for (const Level& level : levels) {
      n += level.items.capacity() * sizeof(LodItem) + level.max_end.capacity() * sizeof(int64_t);
    }
  }
  return n;
}

}  // namespace damscope
