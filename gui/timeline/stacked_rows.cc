// Every rank of a job in one timeline: see stacked_rows.h.
#include "gui/timeline/stacked_rows.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <limits>

#include "analyzer/report/text_format.h"

namespace damscope {

std::string rankGroupLabel(const AnalysedRun& run, const RankGroup& group) {
  const size_t i = static_cast<size_t>(group.rank);
  std::string label =
      "rank " + std::to_string(run.run.ranks[i].rank.value_or(static_cast<int32_t>(i)));
  const std::string file = std::filesystem::path(run.run.ranks[i].source).filename().string();
  if (!file.empty()) label += " — " + file;
  if (group.offset_ns != 0) {
    label += std::string(" · shifted ") + (group.offset_ns > 0 ? "+" : "−") +
             formatDuration(static_cast<double>(std::abs(group.offset_ns)));
  }
  return label;
}

TimelineRows stackRanks(const AnalysedRun& run, const RankAlignment& alignment,
                        const Progress& progress) {
  TimelineRows out;
  out.rank = -1;
  out.alignment = alignment.description;
  out.collectives = alignment.collectives;
  const size_t n = std::min(run.tables.size(), alignment.offset_ns.size());

  TimelineRow skew_row;
  skew_row.kind = RowKind::kSkew;
  skew_row.label = "collective skew";
  skew_row.lane_count = 1;
  out.rows.push_back(std::move(skew_row));
  Lane skew_lane;
  skew_lane.kind = LaneKind::kSkew;
  for (size_t c = 0; c < out.collectives.size(); ++c) {
    const CollectiveSkew& s = out.collectives[c];
    skew_lane.events.push_back(
        {s.first_start, s.last_start, static_cast<int64_t>(c), EventKind::kKernel});
  }
  out.lanes.push_back(std::move(skew_lane));

  int64_t lo = std::numeric_limits<int64_t>::max();
  int64_t hi = std::numeric_limits<int64_t>::min();
  for (const CollectiveSkew& s : out.collectives) {
    lo = std::min(lo, s.first_start);
    hi = std::max(hi, s.last_start);
  }
  for (size_t r = 0; r < n; ++r) {
    const double each = 1.0 / static_cast<double>(n);
    TimelineRows one = buildTimelineRows(
        run, static_cast<int>(r),
        progress.part(each * static_cast<double>(r), each * static_cast<double>(r + 1)));
    const int64_t offset = alignment.offset_ns[r];
    RankGroup group;
    group.rank = static_cast<int32_t>(r);
    group.offset_ns = offset;
    group.header_row = static_cast<int>(out.rows.size());
    group.first_lane = static_cast<int>(out.lanes.size()) + 1;  // after the header's lane
    group.lane_of = std::move(one.lane_of);
    const int g = static_cast<int>(out.groups.size());

    TimelineRow header;
    header.kind = RowKind::kRankHeader;
    header.label = rankGroupLabel(run, group);
    header.first_lane = static_cast<int>(out.lanes.size());
    header.lane_count = 1;
    header.group = g;
    out.rows.push_back(std::move(header));
    Lane header_lane;
    header_lane.kind = LaneKind::kRankHeader;
    header_lane.row = group.header_row;
    header_lane.rank = group.rank;
    out.lanes.push_back(std::move(header_lane));

    const int row_base = static_cast<int>(out.rows.size());
    for (TimelineRow& row : one.rows) {
      row.first_lane += group.first_lane;
      row.group = g;
      out.rows.push_back(std::move(row));
    }
    for (Lane& lane : one.lanes) {
      lane.row += row_base;
      if (offset != 0) {
        for (LaneEvent& e : lane.events) {
          e.start += offset;
          e.end += offset;
        }
      }
      out.lanes.push_back(std::move(lane));
    }
    group.end_row = static_cast<int>(out.rows.size());
    if (!one.empty() || !one.steps.empty()) {
      lo = std::min(lo, one.start + offset);
      hi = std::max(hi, one.end + offset);
    }
    for (LostBand& band : one.lost) {
      band.start += offset, band.end += offset;
      out.lost.push_back(std::move(band));
    }
    if (r == 0) {
      out.steps = std::move(one.steps);
      for (StepBandItem& s : out.steps) s.ts += offset;
    }
    out.by_rank_categories.push_back(std::move(one.kernel_categories));
    out.groups.push_back(std::move(group));
  }
  std::stable_sort(out.lost.begin(), out.lost.end(),
                   [](const LostBand& a, const LostBand& b) { return a.start < b.start; });
  if (lo > hi) lo = hi = 0;
  out.start = lo;
  out.end = hi;
  return out;
}

std::shared_ptr<const TimelineData> buildJobTimelineData(const AnalysedRun& run,
                                                         const Progress& progress) {
  auto data = std::make_shared<TimelineData>();
  // Shares of the bar as in buildTimelineData (timeline_painter.cc).
  data->rows = stackRanks(run, alignRanks(run), progress.part(0, 0.16));
  data->lod = LevelOfDetail(data->rows, progress.part(0.16, 1));
  return data;
}

}  // namespace damscope
