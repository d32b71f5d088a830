// Level-of-detail aggregates of the timeline's lanes: see level_of_detail.h.
#include "gui/timeline/level_of_detail.h"

#include <algorithm>
#include <cmath>

#include "base/duration_sum.h"

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

// Folds `item` into `into`, which starts no later.
void absorb(LodItem& into, const LodItem& item) {
  into.end = std::max(into.end, item.end);
  accumulateDuration(into.busy_ns, item.busy_ns);
  into.count += item.count;
  if (item.longest_ns > into.longest_ns) {
    into.longest_ns = item.longest_ns;
    into.id = item.id;
    into.kind = item.kind;
  }
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
      absorb(run, item);
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

// Appends items to `out`, folding each into the previous one when it adds no
// pixel column of its own (level_of_detail.h).
class PixelFold {
 public:
  PixelFold(std::vector<LodItem>& out, int64_t t0, int64_t t1, double ns_per_px)
      : out_(out), first_(out.size()), t0_(t0), ns_per_px_(ns_per_px), right_(x(t1)) {}

  void add(const LodItem& item) {
    const double x0 = std::max(-1.0, x(item.start));
    const double x1 = std::min(right_ + 1, x(item.end));
    const double cover = std::max(x1, x0 + 1);
    const bool whole = !item.summary() && x1 - x0 >= LevelOfDetail::kKeepWholePx;
    if (out_.size() > first_ && !whole && !back_whole_) {
      const double column = std::floor(covered_);
      if (std::floor(x1) <= column || (std::floor(x0) == column && x1 - x0 < 1)) {
        absorb(out_.back(), item);
        covered_ = std::max(covered_, cover);
        return;
      }
    }
    out_.push_back(item);
    covered_ = cover;
    back_whole_ = whole;
  }

 private:
  double x(int64_t t) const { return static_cast<double>(t - t0_) / ns_per_px_; }

  std::vector<LodItem>& out_;
  const size_t first_;
  const int64_t t0_;
  const double ns_per_px_;
  const double right_;       // x of t1
  double covered_ = 0;       // where out_.back()'s cover ends
  bool back_whole_ = false;  // out_.back() is an event kept whole
};

}  // namespace

LevelOfDetail::LevelOfDetail(const TimelineRows& rows, const Progress& progress) : rows_(&rows) {
  lanes_.resize(rows.lanes.size());
  double events = 0;
  for (const Lane& lane : rows.lanes) events += static_cast<double>(lane.events.size());
  double done = 0;
  for (size_t l = 0; l < rows.lanes.size(); ++l) {
    const Lane& lane = rows.lanes[l];
    progress.report(events > 0 ? done / events : 0);
    done += static_cast<double>(lane.events.size());
    std::vector<Level>& levels = lanes_[l];
    Level base;
    base.max_end = prefixMaxEnd(lane.events.size(), [&](size_t i) { return lane.events[i].end; });
    levels.push_back(std::move(base));
    if (lane.kind == LaneKind::kCounter || lane.kind == LaneKind::kSkew || lane.events.size() < 2) {
      continue;
    }
    const int64_t span = rows.end - rows.start;
    std::vector<LodItem> current(lane.events.size());
    std::transform(lane.events.begin(), lane.events.end(), current.begin(), itemOf);
    size_t stored = current.size();
    for (int64_t width = kBaseWidthNs; current.size() > 1 && width / kGrowth <= span;
         width *= kGrowth) {
      current = fold(current, width);
      if (static_cast<double>(current.size()) <= kKeepFraction * static_cast<double>(stored)) {
        Level level;
        level.width = width;
        level.items = current;
        level.max_end = prefixMaxEnd(current.size(), [&](size_t i) { return current[i].end; });
        stored = current.size();
        levels.push_back(std::move(level));
      }
      // The next width would pass kMaxWidthNs (and int64 after it): a span of
      // 2^60 ns or more ends the growth here, not at the span.
      if (width > kMaxWidthNs / kGrowth) break;
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
  PixelFold fold(out, t0, t1, ns_per_px);
  if (k == 0) {
    const auto& events = rows_->lanes[static_cast<size_t>(lane)].events;
    for (size_t i = first; i < events.size() && events[i].start < t1; ++i) {
      if (events[i].end > t0 || events[i].start >= t0) fold.add(itemOf(events[i]));
    }
    return;
  }
  for (size_t i = first; i < level.items.size() && level.items[i].start < t1; ++i) {
    const LodItem& item = level.items[i];
    if (item.end > t0 || item.start >= t0) fold.add(item);
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
