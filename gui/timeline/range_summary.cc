// The summary of a stretch of the timeline: see range_summary.h.
#include "gui/timeline/range_summary.h"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "analyzer/report/text_format.h"
#include "analyzer/report/vocabulary.h"

namespace damscope {
namespace {

int64_t overlap(int64_t start, int64_t end, const TimeWindow& w) {
  return std::max<int64_t>(0, std::min(end, w.end) - std::max(start, w.start));
}

bool countsAsBusy(LaneKind kind, RowKind row) {
  switch (row) {
    case RowKind::kStream:
      return kind == LaneKind::kDeviceWork;
    case RowKind::kThread:
      return kind == LaneKind::kRanges || kind == LaneKind::kApiCalls;
    case RowKind::kBubbles:
    case RowKind::kCounter:
      return false;
  }
  return false;
}

// The union of the intervals' parts inside `w`.
int64_t unionInside(std::vector<std::pair<int64_t, int64_t>>& spans, const TimeWindow& w) {
  std::sort(spans.begin(), spans.end());
  int64_t busy = 0;
  int64_t covered_to = w.start;
  for (auto [start, end] : spans) {
    start = std::max(start, covered_to);
    end = std::min(end, w.end);
    if (end <= start) continue;
    busy += end - start;
    covered_to = end;
  }
  return busy;
}

std::string share(int64_t ns, const TimeWindow& w) {
  return fmt::format("{} ({:.1f} %)", formatDuration(static_cast<double>(ns)),
                     100.0 * static_cast<double>(ns) / static_cast<double>(w.duration()));
}

}  // namespace

RangeSummary summarizeRange(const TimelineRows& rows, const AnalysedRun& run,
                            const TimeWindow& window) {
  RangeSummary out;
  out.window = window;
  out.row_busy_ns.assign(rows.rows.size(), -1);
  if (window.end <= window.start || rows.rank < 0 ||
      static_cast<size_t>(rows.rank) >= run.tables.size())
    return out;
  const TraceTables& t = run.tables[static_cast<size_t>(rows.rank)];
  const std::vector<GapResult>& gaps = run.run.ranks[static_cast<size_t>(rows.rank)].gaps;
  std::vector<std::pair<int64_t, int64_t>> spans;
  for (size_t r = 0; r < rows.rows.size(); ++r) {
    const TimelineRow& row = rows.rows[r];
    spans.clear();
    bool has_busy = false;
    for (int l = row.first_lane; l < row.first_lane + row.lane_count; ++l) {
      const Lane& lane = rows.lanes[static_cast<size_t>(l)];
      const bool busy = countsAsBusy(lane.kind, row.kind);
      has_busy |= busy;
      // Lanes are sorted by start: nothing past the window's end counts.
      const auto last =
          std::lower_bound(lane.events.begin(), lane.events.end(), window.end,
                           [](const LaneEvent& e, int64_t ts) { return e.start < ts; });
      for (auto e = lane.events.begin(); e != last; ++e) {
        if (e->start < window.start && e->end <= window.start) continue;  // ended before
        const int64_t inside = overlap(e->start, e->end, window);
        if (busy) spans.emplace_back(e->start, e->end);
        if (lane.kind == LaneKind::kDeviceWork && e->kind == EventKind::kKernel) {
          const StringId name = t.kernels.name[static_cast<size_t>(e->id)];
          const KernelCategory category =
              name.valid() ? rows.kernel_categories[static_cast<size_t>(name.value)]
                           : KernelCategory::kOther;
          out.kernel_ns[static_cast<size_t>(category)] += inside;
          ++out.kernels[static_cast<size_t>(category)];
        } else if (lane.kind == LaneKind::kBubbles && row.kind == RowKind::kBubbles) {
          out.bubble_ns[static_cast<size_t>(gaps[static_cast<size_t>(e->id)].cause)] += inside;
        }
      }
    }
    if (has_busy) out.row_busy_ns[r] = unionInside(spans, window);
  }
  return out;
}

std::string busyShareText(const RangeSummary& s, size_t row) {
  if (row >= s.row_busy_ns.size() || s.row_busy_ns[row] < 0 || s.window.duration() <= 0) return {};
  const double pct =
      100.0 * static_cast<double>(s.row_busy_ns[row]) / static_cast<double>(s.window.duration());
  // One decimal under 10 %, where it tells 0.3 % (next to idle) from 3 %.
  return pct >= 10 || pct == 0 ? fmt::format("{:.0f} %", pct) : fmt::format("{:.1f} %", pct);
}

std::vector<std::pair<std::string, std::string>> rangeSummaryLines(const RangeSummary& s,
                                                                   const TimelineRows& rows) {
  std::vector<std::pair<std::string, std::string>> out;
  const TimeWindow& w = s.window;
  if (w.duration() <= 0) return out;
  out.emplace_back("Window", fmt::format("{} · {}", windowText(w, rows.start).toStdString(),
                                         formatDuration(static_cast<double>(w.duration()))));
  // Largest first: the order a reader wants to compare them in.
  auto by_size = [](const auto& ns) {
    std::vector<size_t> order(ns.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return ns[a] > ns[b]; });
    return order;
  };
  for (size_t c : by_size(s.kernel_ns)) {
    if (s.kernels[c] == 0) continue;
    out.emplace_back(fmt::format("Kernels: {}", toText(static_cast<KernelCategory>(c))),
                     fmt::format("{} · {} kernel{}", share(s.kernel_ns[c], w), s.kernels[c],
                                 s.kernels[c] == 1 ? "" : "s"));
  }
  for (size_t c : by_size(s.bubble_ns)) {
    if (s.bubble_ns[c] == 0) continue;
    out.emplace_back(fmt::format("Bubbles: {}", causeLabel(static_cast<GapCause>(c))),
                     share(s.bubble_ns[c], w));
  }
  for (size_t r = 0; r < rows.rows.size(); ++r) {
    if (s.row_busy_ns[r] <= 0) continue;
    out.emplace_back(fmt::format("Busy: {}", rows.rows[r].label), share(s.row_busy_ns[r], w));
  }
  return out;
}

}  // namespace damscope
