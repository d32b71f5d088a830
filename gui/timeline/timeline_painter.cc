// Painting a view of the timeline: see timeline_painter.h.
#include "gui/timeline/timeline_painter.h"

#include <algorithm>
#include <cmath>

#include <QFontMetrics>
#include <QFontMetricsF>
#include <QObject>
#include <QPainter>
#include <QPolygonF>
#include <QStringList>

#include "analyzer/report/text_format.h"
#include "analyzer/report/vocabulary.h"
#include "gui/models/lost_records.h"
#include "gui/models/palette.h"
#include "gui/models/qt_text.h"
#include "gui/models/text_layout.h"
#include "gui/timeline/step_labels.h"

namespace damscope {
namespace {

QString durationText(int64_t ns) {
  return qtString(formatDuration(static_cast<double>(ns)));
}

}  // namespace

std::shared_ptr<const TimelineData> buildTimelineData(const AnalysedRun& run, int rank,
                                                      const Progress& progress) {
  auto data = std::make_shared<TimelineData>();
  // The stages' shares of the bar are their shares of the time: rows 16 %,
  // levels 82 %, the summary 2 % on 10 M kernels (bench/gui_timeline_bench).
  data->rows = buildTimelineRows(run, rank, progress.part(0, 0.16));
  data->lod = LevelOfDetail(data->rows, progress.part(0.16, 0.98));
  progress.report(0.98);
  data->whole = summarizeRange(data->rows, run, {data->rows.start, data->rows.end});
  return data;
}

LaneLayout layoutLanes(const TimelineRows& rows, const RowArrangement& arrangement,
                       const std::vector<bool>& collapsed_groups) {
  LaneLayout out;
  out.lane_y.assign(rows.lanes.size(), -1);
  out.lane_h.assign(rows.lanes.size(), 0);
  out.row_y.assign(rows.rows.size(), -1);
  out.row_collapsed.assign(rows.rows.size(), 0);
  out.group_collapsed.assign(collapsed_groups.begin(), collapsed_groups.end());
  int y = 0;
  for (const int r : arrangement.order(rows.rows.size())) {
    const TimelineRow& row = rows.rows[static_cast<size_t>(r)];
    // A rank group folded under its header shows the header alone.
    if (row.kind != RowKind::kRankHeader && row.group >= 0 &&
        static_cast<size_t>(row.group) < collapsed_groups.size() &&
        collapsed_groups[static_cast<size_t>(row.group)]) {
      continue;
    }
    out.row_y[static_cast<size_t>(r)] = y;
    if (arrangement.collapsed(r)) {
      out.row_collapsed[static_cast<size_t>(r)] = 1;
      y += TimelinePainter::kLanePx + TimelinePainter::kRowGapPx;
      continue;
    }
    for (int l = 0; l < row.lane_count; ++l) {
      const size_t lane = static_cast<size_t>(row.first_lane) + static_cast<size_t>(l);
      out.lane_y[lane] = y;
      out.lane_h[lane] = TimelinePainter::laneHeight(rows.lanes[lane]);
      y += out.lane_h[lane];
    }
    y += TimelinePainter::kRowGapPx;
    if (arrangement.pinned(r)) out.pinned_height = y;
  }
  out.content_height = y;
  return out;
}

TimelinePainter::TimelinePainter(const QPalette& palette, const QFont& font)
    : palette_(palette), font_(font) {}

void TimelinePainter::setStyle(const QPalette& palette, const QFont& font) {
  palette_ = palette;
  if (font != font_) elided_.clear();
  font_ = font;
}

void TimelinePainter::paint(QPainter& p, const TimelineFrame& f, std::vector<TimelineItem>* items) {
  std::vector<TimelineItem>& drawn = items ? *items : own_items_;
  if (!items) own_items_.clear();
  stats_ = {};
  p.fillRect(QRect(QPoint(0, 0), f.size), palette_.color(QPalette::Base));
  paintRuler(p, f);
  if (!f.data) {
    p.setPen(palette_.color(QPalette::PlaceholderText));
    p.drawText(QRect(QPoint(0, 0), f.size), Qt::AlignCenter,
               f.run ? QObject::tr("No events on this rank") : QObject::tr("No run open"));
    return;
  }
  paintSteps(p, f);
  const TimelineRows& rows = f.data->rows;
  const int top = rowsTop();
  const int bottom = rowsBottom(f);
  const QFontMetrics metrics(font_);
  // The pinned block stays at the top; the other rows scroll under it.
  const int pinned_bottom = std::min(bottom, top + f.pinned_height);
  p.save();
  for (size_t r = 0; r < rows.rows.size(); ++r) {
    const TimelineRow& row = rows.rows[r];
    const int last_lane = row.first_lane + row.lane_count - 1;
    const bool collapsed = r < f.row_collapsed.size() && f.row_collapsed[r];
    if (r < f.row_y.size() && f.row_y[r] < 0) continue;  // hidden, or in a folded rank group
    const bool pinned = r < f.row_y.size() && f.row_y[r] < f.pinned_height;
    const int clip_top = pinned ? top : pinned_bottom;
    const int clip_bottom = pinned ? pinned_bottom : bottom;
    const double y0 = r < f.row_y.size() ? yOf(f, f.row_y[r]) : laneTop(f, row.first_lane);
    const double y1 = collapsed ? y0 + kLanePx : laneTop(f, last_lane) + laneHeight(f, last_lane);
    if (y1 <= clip_top || y0 >= clip_bottom) continue;
    p.setClipRect(0, clip_top, f.size.width(), clip_bottom - clip_top);
    if (row.kind == RowKind::kRankHeader) {
      paintRankHeader(p, f, row, y0);
      continue;
    }
    if (r % 2) {
      p.fillRect(QRectF(0, y0, f.size.width(), y1 - y0), palette_.color(QPalette::AlternateBase));
    }
    const QRectF header(4, y0, kGutterPx - 8, std::min<double>(y1 - y0, kLanePx));
    const QString busy = qtString(busyShareText(f.data->whole, r));
    const int busy_width = busy.isEmpty() ? 0 : metrics.horizontalAdvance(busy) + 6;
    p.setPen(palette_.color(QPalette::PlaceholderText));
    p.drawText(header, Qt::AlignRight | Qt::AlignVCenter, busy);
    p.setPen(palette_.color(QPalette::Text));
    paintRowLabel(p, row, collapsed, y0, std::min<double>(y1 - y0, 2 * kLanePx), busy_width,
                  metrics);
    if (collapsed) continue;
    for (int l = 0; l < row.lane_count; ++l) {
      const int lane = row.first_lane + l;
      const double y = laneTop(f, lane);
      if (y >= clip_bottom || y + laneHeight(f, lane) <= clip_top) continue;
      const LaneKind kind = rows.lanes[static_cast<size_t>(lane)].kind;
      if (kind == LaneKind::kCounter) {
        paintCounter(p, f, lane, y);
      } else if (kind == LaneKind::kSkew) {
        paintSkew(p, f, lane, y);
      } else {
        paintLane(p, f, lane, y, drawn);
      }
    }
  }
  p.restore();
  paintLostBands(p, f);
  p.setPen(palette_.color(QPalette::Mid));
  p.drawLine(kGutterPx, top, kGutterPx, bottom);
  // Where the scrolling rows pass under the pinned ones.
  if (f.pinned_height > 0 && pinned_bottom < bottom) {
    p.drawLine(0, pinned_bottom - 1, f.size.width(), pinned_bottom - 1);
  }
  paintLegend(p, f);
}

void TimelinePainter::paintRowLabel(QPainter& p, const TimelineRow& row, bool collapsed, double top,
                                    double height, int reserved_right,
                                    const QFontMetrics& metrics) {
  // A collapsed row says so, as a folded tree item does.
  const QString label = collapsed ? "▸ " + qtName(row.label) : qtName(row.label);
  const int width = kGutterPx - 8 - reserved_right;
  // A counter row is two lanes tall: a name too long for one line goes on
  // two, split before its qualifier ("(GPU 0)", "(thread 12)"), so that
  // counters of one name on different devices or threads stay told apart.
  const qsizetype split = label.indexOf(" (");
  if (collapsed || row.kind != RowKind::kCounter || metrics.horizontalAdvance(label) <= width ||
      split <= 0) {
    p.drawText(QRectF(4, top, width, std::min<double>(height, kLanePx)),
               Qt::AlignLeft | Qt::AlignVCenter, metrics.elidedText(label, Qt::ElideMiddle, width));
    return;
  }
  p.drawText(QRectF(4, top, width, height / 2), Qt::AlignLeft | Qt::AlignVCenter,
             metrics.elidedText(label.left(split), Qt::ElideMiddle, width));
  p.drawText(QRectF(4, top + height / 2, width, height / 2), Qt::AlignLeft | Qt::AlignVCenter,
             metrics.elidedText(label.mid(split + 1), Qt::ElideMiddle, width));
}

void TimelinePainter::paintSelection(QPainter& p, const QRectF& rect) {
  p.save();
  p.setBrush(Qt::NoBrush);
  p.setPen(QPen(selectionOuterColor(), 2));
  p.drawRect(rect.adjusted(-2, -2, 2, 2));
  p.setPen(QPen(selectionInnerColor(), 1));
  p.drawRect(rect.adjusted(-0.5, -0.5, 0.5, 0.5));
  p.restore();
}

void TimelinePainter::paintEvidence(QPainter& p, const QRectF& rect) {
  p.save();
  p.setBrush(Qt::NoBrush);
  const QRectF ring = rect.adjusted(-1.5, -1.5, 1.5, 1.5);
  p.setPen(QPen(selectionInnerColor(), 2));
  p.drawRect(ring);
  QPen dashes(selectionOuterColor(), 2, Qt::CustomDashLine, Qt::FlatCap);
  dashes.setDashPattern({2, 2});  // in pen widths: 4 px dark, 4 px light
  p.setPen(dashes);
  p.drawRect(ring);
  p.restore();
}

void TimelinePainter::paintRuler(QPainter& p, const TimelineFrame& f) {
  p.fillRect(QRect(0, 0, f.size.width(), kRulerPx), palette_.color(QPalette::Window));
  if (!f.data) return;
  p.setPen(palette_.color(QPalette::WindowText));
  p.save();
  p.setClipRect(kGutterPx, 0, f.scale.width(), f.size.height());
  const QFontMetrics metrics(font_);
  const double right = kGutterPx + f.scale.width();
  for (const TimeScale::Tick& tick : f.scale.ticks(f.data->rows.start)) {
    const double x = kGutterPx + tick.x;
    p.drawLine(QPointF(x, kRulerPx - 6), QPointF(x, kRulerPx));
    // A label that would run off the plot's edge is left out, not cut.
    const QString label = qtString(tick.label);
    if (x + 3 + metrics.horizontalAdvance(label) <= right) {
      p.drawText(QPointF(x + 3, kRulerPx - 8), label);
    }
  }
  p.restore();
  // The rank the trace names, as the rank selector shows it; its position
  // in the run when it names none.
  const QString step = durationText(f.scale.tickStep());
  if (!f.data->rows.groups.empty()) {
    p.drawText(QRect(4, 0, kGutterPx - 8, kRulerPx), Qt::AlignLeft | Qt::AlignVCenter,
               QObject::tr("All ranks · %1 / div").arg(step));
    return;
  }
  const int32_t named =
      f.run ? f.run->run.ranks[static_cast<size_t>(f.rank)].rank.value_or(f.rank) : f.rank;
  p.drawText(QRect(4, 0, kGutterPx - 8, kRulerPx), Qt::AlignLeft | Qt::AlignVCenter,
             QObject::tr("Rank %1 · %2 / div").arg(named).arg(step));
}

void TimelinePainter::paintSteps(QPainter& p, const TimelineFrame& f) {
  const int y = kRulerPx;
  const int width = f.scale.width();
  p.setPen(palette_.color(QPalette::WindowText));
  p.drawText(QRect(4, y, kGutterPx - 8, kStepBandPx), Qt::AlignLeft | Qt::AlignVCenter,
             QObject::tr("steps"));
  p.save();
  p.setClipRect(kGutterPx, y, width, kStepBandPx);
  const std::vector<StepBandItem>& steps = f.data->rows.steps;
  std::vector<StepExtent> shown;
  std::vector<size_t> stripe;  // the step index of each shown step
  for (size_t i = 0; i < steps.size(); ++i) {
    const double x0 = kGutterPx + std::max(-1.0, f.scale.x(steps[i].ts));
    const double x1 =
        kGutterPx + std::min<double>(width + 1, f.scale.x(steps[i].ts + steps[i].dur));
    if (x1 < kGutterPx || x0 > kGutterPx + width) continue;
    p.fillRect(QRectF(x0, y + 1, std::max(1.0, x1 - x0), kStepBandPx - 2), stepBandColor(i));
    // Labels only over the part of the step in view.
    shown.push_back({std::max<double>(x0, kGutterPx), std::min<double>(x1, kGutterPx + width),
                     steps[i].number});
    stripe.push_back(i);
  }
  for (const StepLabel& label : layoutStepLabels(shown, QFontMetricsF(font_))) {
    p.setPen(textOn(stepBandColor(stripe[label.step])));
    p.drawText(QRectF(label.x0, y, label.x1 - label.x0, kStepBandPx), Qt::AlignCenter, label.text);
  }
  p.restore();
}

QColor TimelinePainter::colorOf(const TimelineFrame& f, int32_t rank, EventKind kind,
                                int64_t id) const {
  const TraceTables& t = f.run->tables[static_cast<size_t>(rank)];
  const size_t i = static_cast<size_t>(id);
  switch (kind) {
    case EventKind::kKernel: {
      const StringId name = t.kernels.name[i];
      return categoryColor(name.valid()
                               ? f.data->rows.categoriesOf(rank)[static_cast<size_t>(name.value)]
                               : KernelCategory::kOther);
    }
    case EventKind::kRange:
      return rangeColor(t.ranges.name[i].value);
    case EventKind::kGap:
      return causeColor(f.run->run.ranks[static_cast<size_t>(rank)].gaps[i].cause);
    case EventKind::kMemcpy:
    case EventKind::kMemset:
    case EventKind::kApiCall:
    case EventKind::kSync:
      break;
  }
  return eventKindColor(kind);
}

const QString& TimelinePainter::elided(const TimelineFrame& f, int32_t rank, EventKind kind,
                                       int64_t id, int width) {
  // Events that share a name share a label: key by the rank (each has its own
  // string ids) and the name's string id where there is one, else by the
  // event; widths in 8 px buckets.
  const TraceTables& t = f.run->tables[static_cast<size_t>(rank)];
  const size_t i = static_cast<size_t>(id);
  int64_t name_key = id;
  if (kind == EventKind::kKernel) name_key = t.kernels.name[i].value;
  if (kind == EventKind::kRange) name_key = t.ranges.name[i].value;
  if (kind == EventKind::kApiCall) name_key = t.api_calls.name[i].value;
  const int bucket = std::min(width / 8, 4095);
  const uint64_t key = (static_cast<uint64_t>(rank) << 59) ^ (static_cast<uint64_t>(kind) << 56) ^
                       (static_cast<uint64_t>(name_key) << 12) ^ static_cast<uint64_t>(bucket);
  auto it = elided_.find(key);
  if (it == elided_.end()) {
    const QString name = qtName(nameOf(EventRef{rank, kind, id}, *f.run));
    it = elided_.emplace(key, QFontMetrics(font_).elidedText(name, Qt::ElideRight, bucket * 8 - 4))
             .first;
  }
  return it->second;
}

void TimelinePainter::paintLane(QPainter& p, const TimelineFrame& f, int lane, double top,
                                std::vector<TimelineItem>& items) {
  query_.clear();
  f.data->lod.query(lane, f.scale.start(), f.scale.end(), f.scale.nsPerPx(), query_);
  const double right = kGutterPx + f.scale.width();
  const QRectF lane_rect(kGutterPx, top + 1, f.scale.width(), kLanePx - 2);
  const size_t first = items.size();
  const int32_t rank = f.data->rows.lanes[static_cast<size_t>(lane)].rank;
  // One box per item: the query folded what shares a pixel column.
  for (const LodItem& item : query_) {
    const double x0 = std::max<double>(kGutterPx - 1, kGutterPx + f.scale.x(item.start));
    const double x1 = std::min(right + 1, kGutterPx + f.scale.x(item.end));
    items.push_back(
        {QRectF(x0, lane_rect.top(), std::max(1.0, x1 - x0), lane_rect.height()), lane, item});
  }
  stats_.items += static_cast<int>(items.size() - first);
  for (size_t i = first; i < items.size(); ++i) {
    const TimelineItem& d = items[i];
    const QColor fill = colorOf(f, rank, d.item.kind, d.item.id);
    if (d.item.summary()) {
      // Its ink follows its busy fraction (palette.h: foldColor); the hatch
      // says it is a fold.
      ++stats_.folded;
      const double busy = d.item.busyFraction();
      p.fillRect(d.rect, foldColor(fill, busy));
      if (d.rect.width() >= 3) {
        p.fillRect(d.rect, QBrush(foldColor(fill.darker(160), busy), Qt::BDiagPattern));
      }
      continue;
    }
    p.fillRect(d.rect, fill);
    if (d.rect.width() >= kMinLabelPx) {
      p.setPen(textOn(fill));
      const QRectF visible = d.rect.intersected(lane_rect);
      p.drawText(visible.adjusted(2, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
                 elided(f, rank, d.item.kind, d.item.id, static_cast<int>(visible.width())));
    }
  }
}

void TimelinePainter::paintCounter(QPainter& p, const TimelineFrame& f, int lane, double top) {
  const Lane& l = f.data->rows.lanes[static_cast<size_t>(lane)];
  if (l.events.empty() || !(l.max_value > 0)) return;
  const int64_t t0 = f.scale.start();
  const int64_t t1 = f.scale.end();
  // From the last sample at or before t0 (its value holds into the view).
  auto it = std::upper_bound(l.events.begin(), l.events.end(), t0,
                             [](int64_t t, const LaneEvent& e) { return t < e.start; });
  size_t i = it == l.events.begin() ? 0 : static_cast<size_t>(it - l.events.begin()) - 1;
  const double height = 2 * kLanePx - 2;
  const double base = top + 2 * kLanePx - 1;
  // One point per pixel column, the column's largest value: the plot costs
  // pixels, not samples.
  QPolygonF area;
  area.reserve(2 * f.scale.width() + 4);
  double column = -1e9;
  for (; i < l.events.size() && l.events[i].start < t1; ++i) {
    const double x = kGutterPx + std::max(0.0, f.scale.x(l.events[i].start));
    const double y = base - height * l.values[i] / l.max_value;
    if (std::floor(x) == column && !area.isEmpty()) {
      area.back().setY(std::min(area.back().y(), y));
      continue;
    }
    if (area.isEmpty()) {
      area << QPointF(x, base);
    } else {
      area << QPointF(x, area.back().y());  // a step: the value holds until the next sample
    }
    area << QPointF(x, y);
    column = std::floor(x);
  }
  if (area.isEmpty()) return;
  const double end_x =
      std::min<double>(kGutterPx + f.scale.width(), kGutterPx + f.scale.x(l.events.back().end));
  area << QPointF(std::max(end_x, area.back().x()), area.back().y())
       << QPointF(std::max(end_x, area.back().x()), base);
  const QColor colour = counterColor();
  p.setPen(colour.darker(130));
  p.setBrush(QColor(colour.red(), colour.green(), colour.blue(), 140));
  p.drawPolygon(area);
  p.setBrush(Qt::NoBrush);
  // The scale: the value the lane's top stands for.
  p.setPen(palette_.color(QPalette::Text));
  p.drawText(QRectF(kGutterPx + 3, top, f.scale.width() - 6, kLanePx - 2),
             Qt::AlignLeft | Qt::AlignTop,
             QObject::tr("max %1").arg(qtString(counterValueText(l.max_value))));
}

void TimelinePainter::paintSkew(QPainter& p, const TimelineFrame& f, int lane, double top) {
  const Lane& l = f.data->rows.lanes[static_cast<size_t>(lane)];
  const double left = kGutterPx;
  const double right = kGutterPx + f.scale.width();
  // A bar from the first rank's start to the last rank's, at least 2 px so a
  // collective the ranks joined together still shows; bars that share a pixel
  // column are drawn once (their union). Skews are short next to the gaps
  // between collectives, so a bar never hides one far from it.
  const QColor colour = categoryColor(KernelCategory::kCommunication).darker(130);
  double drawn_to = -1;
  for (const LaneEvent& e : l.events) {
    if (e.start > f.scale.end()) break;
    if (e.end < f.scale.start()) continue;
    const double x0 = std::max(left - 1, kGutterPx + f.scale.x(e.start));
    const double x1 = std::min(right + 1, std::max(x0 + 2, kGutterPx + f.scale.x(e.end)));
    if (x1 <= drawn_to) continue;
    const double from = std::max(x0, drawn_to);
    p.fillRect(QRectF(from, top + 3, x1 - from, kLanePx - 6), colour);
    drawn_to = x1;
  }
}

void TimelinePainter::paintRankHeader(QPainter& p, const TimelineFrame& f, const TimelineRow& row,
                                      double top) {
  const auto g = static_cast<size_t>(row.group);
  const bool collapsed = g < f.group_collapsed.size() && f.group_collapsed[g];
  const QRectF band(0, top, f.size.width(), kLanePx);
  p.fillRect(band, palette_.color(QPalette::Button));
  p.setPen(palette_.color(QPalette::Mid));
  p.drawLine(band.topLeft(), band.topRight());
  QFont bold = font_;
  bold.setBold(true);
  p.save();
  p.setFont(bold);
  p.setPen(palette_.color(QPalette::ButtonText));
  p.drawText(band.adjusted(4, 0, -4, 0), Qt::AlignLeft | Qt::AlignVCenter,
             (collapsed ? QStringLiteral("▸ ") : QStringLiteral("▾ ")) + qtName(row.label));
  p.restore();
}

void TimelinePainter::paintLostBands(QPainter& p, const TimelineFrame& f) {
  const TimelineRows& rows = f.data->rows;
  if (rows.lost.empty()) return;
  const int top = rowsTop();
  const int bottom = rowsBottom(f);
  const double left = kGutterPx;
  const double right = kGutterPx + f.scale.width();
  const QColor colour = lostRecordsColor();
  QColor hatch = colour;
  hatch.setAlpha(150);
  p.save();
  p.setClipRect(QRectF(left, 0, right - left, bottom));
  for (const LostBand& band : rows.lost) {
    if (band.start > f.scale.end() || band.end < f.scale.start()) continue;
    double x0 = kGutterPx + f.scale.x(band.start);
    double x1 = kGutterPx + f.scale.x(band.end);
    if (x1 - x0 < kMinLostBandPx) {
      const double middle = (x0 + x1) / 2;
      x0 = middle - kMinLostBandPx / 2.0, x1 = middle + kMinLostBandPx / 2.0;
    }
    x0 = std::max(x0, left - 1), x1 = std::min(x1, right + 1);
    // One rank's loss covers its own rows in a stacked view.
    double y0 = top, y1 = bottom;
    for (const RankGroup& g : rows.groups) {
      if (g.rank != band.rank) continue;
      const auto header = static_cast<size_t>(g.header_row);
      const auto next = static_cast<size_t>(g.end_row);
      y0 = header < f.row_y.size() && f.row_y[header] >= 0 ? yOf(f, f.row_y[header]) : top;
      y1 = next < f.row_y.size() && f.row_y[next] >= 0 ? yOf(f, f.row_y[next]) : bottom;
    }
    y0 = std::max<double>(y0, top), y1 = std::min<double>(y1, bottom);
    if (y1 > y0) p.fillRect(QRectF(x0, y0, x1 - x0, y1 - y0), QBrush(hatch, Qt::DiagCrossPattern));
    p.fillRect(QRectF(x0, kRulerPx - 4, x1 - x0, 4), colour);
  }
  p.restore();
}

std::vector<TimelinePainter::LegendItem> TimelinePainter::legendItems(const AnalysedRun* run,
                                                                      int rank) {
  std::vector<LegendItem> items;
  items.push_back({QObject::tr("bubbles:"), std::nullopt});
  for (size_t c = 0; c < kGapCauseCount; ++c) {
    const GapCause cause = static_cast<GapCause>(c);
    items.push_back({qtString(causeLabel(cause)), causeColor(cause)});
  }
  items.push_back({QObject::tr("▨ folded events, as opaque as busy"), std::nullopt});
  // Records lost on the way in, and how many of them the crosshatched bands
  // place (lost_records.h); one rank's, or in the stacked view each rank's
  // that lost any.
  if (!run) return items;
  const auto& ranks = run->run.ranks;
  QStringList parts;
  for (size_t r = 0; r < ranks.size(); ++r) {
    if (rank >= 0 && r != static_cast<size_t>(rank)) continue;
    const QString text = lostRecordsText(ranks[r].data_loss, run->tables[r].lost_spans);
    if (text.isEmpty()) continue;
    parts << (rank >= 0 ? text : QObject::tr("rank %1: %2").arg(r).arg(text));
  }
  if (!parts.isEmpty()) items.push_back({"⚠ " + parts.join(QStringLiteral("; ")), std::nullopt});
  return items;
}

std::vector<QRect> TimelinePainter::legendLayout(const std::vector<LegendItem>& items,
                                                 int width) const {
  const QFontMetrics metrics(font_);
  std::vector<int> widths;
  widths.reserve(items.size());
  for (const LegendItem& item : items) {
    widths.push_back((item.swatch ? 16 : 0) + metrics.horizontalAdvance(item.text));
  }
  return flowRows(widths, std::max(1, width - 8), kLegendPx, 14, 0);
}

int TimelinePainter::legendHeight(const AnalysedRun* run, int rank, int width) const {
  return std::max(kLegendPx, flowHeight(legendLayout(legendItems(run, rank), width)));
}

void TimelinePainter::paintLegend(QPainter& p, const TimelineFrame& f) {
  const int y = rowsBottom(f);
  p.fillRect(QRect(0, y, f.size.width(), f.size.height() - y), palette_.color(QPalette::Window));
  p.setPen(palette_.color(QPalette::WindowText));
  const QFontMetrics metrics(font_);
  const std::vector<LegendItem> items = legendItems(f.run, f.rank);
  const std::vector<QRect> rects = legendLayout(items, f.size.width());
  for (size_t i = 0; i < items.size(); ++i) {
    QRect r = rects[i].translated(4, y);
    if (items[i].swatch) {
      p.fillRect(QRect(r.left(), r.top() + 5, 12, kLegendPx - 10), *items[i].swatch);
      r.setLeft(r.left() + 16);
    }
    // Whole, unless one entry is wider than the view (the lost records).
    p.drawText(r.adjusted(0, 0, 4, 0), Qt::AlignLeft | Qt::AlignVCenter,
               metrics.elidedText(items[i].text, Qt::ElideRight,
                                  std::max(0, f.size.width() - 4 - r.left())));
  }
}

}  // namespace damscope
