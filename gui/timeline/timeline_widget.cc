// The timeline widget: see timeline_widget.h.
#include "gui/timeline/timeline_widget.h"

#include <algorithm>
#include <cmath>

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include "analyzer/report/report_charts.h"
#include "gui/models/palette.h"
#include "gui/models/qt_text.h"

namespace damscope {
namespace {

// Zoom per wheel notch (120 eighths of a degree) and per W/S press.
constexpr double kWheelZoom = 1.25;
constexpr double kKeyZoom = 1.5;
// A/D pan by this fraction of the view.
constexpr double kKeyPanFraction = 0.1;
// A press that moves less than this is a click, not a drag.
constexpr int kClickSlopPx = 4;
// Margin around an event zoomed to, as a fraction of its duration on each side.
constexpr double kZoomMargin = 0.25;


QString durationText(int64_t ns) { return qtString(TimeScale::formatDuration(ns)); }

}  // namespace

std::shared_ptr<const TimelineData> buildTimelineData(const AnalysedRun& run, int rank) {
  auto data = std::make_shared<TimelineData>();
  data->rows = buildTimelineRows(run, rank);
  data->lod = LevelOfDetail(data->rows);
  return data;
}

TimelineWidget::TimelineWidget(QWidget* parent) : QWidget(parent) {
  vbar_ = new QScrollBar(Qt::Vertical, this);
  connect(vbar_, &QScrollBar::valueChanged, this, [this] { viewChanged(); });
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(true);
  setMinimumSize(400, 200);
}

TimelineWidget::~TimelineWidget() = default;

void TimelineWidget::setRun(std::shared_ptr<const AnalysedRun> run, int rank) {
  if (!run || rank < 0 || static_cast<size_t>(rank) >= run->tables.size()) {
    setData(nullptr, 0, nullptr);
    return;
  }
  auto data = buildTimelineData(*run, rank);
  setData(std::move(run), rank, std::move(data));
}

void TimelineWidget::setData(std::shared_ptr<const AnalysedRun> run, int rank,
                             std::shared_ptr<const TimelineData> data) {
  run_ = std::move(run);
  rank_ = rank;
  data_ = run_ ? std::move(data) : nullptr;
  selected_.reset();
  launch_.reset();
  highlighted_.clear();
  matches_.clear();
  search_text_.clear();
  elide_cache_.clear();
  layoutRows();
  scale_ = TimeScale();
  scale_.setWidth(plotWidth());
  if (data_) {
    scale_.setLimits(data_->rows.start, data_->rows.end);
    scale_.fitAll();
  }
  viewChanged();
}

int TimelineWidget::plotWidth() const {
  return std::max(1, width() - kGutterPx - vbar_->sizeHint().width());
}

void TimelineWidget::layoutRows() {
  lane_y_.clear();
  content_height_ = 0;
  if (data_) {
    const TimelineRows& rows = data_->rows;
    lane_y_.resize(rows.lanes.size());
    int y = 0;
    for (const TimelineRow& row : rows.rows) {
      for (int l = 0; l < row.lane_count; ++l) {
        const int lane = row.first_lane + l;
        lane_y_[static_cast<size_t>(lane)] = y;
        y += rows.lanes[static_cast<size_t>(lane)].kind == LaneKind::kCounter ? 2 * kLanePx
                                                                                : kLanePx;
      }
      y += kRowGapPx;
    }
    content_height_ = y;
  }
  const int visible = std::max(0, rowsBottom() - rowsTop());
  vbar_->setRange(0, std::max(0, content_height_ - visible));
  vbar_->setPageStep(std::max(1, visible));
  vbar_->setSingleStep(kLanePx);
}

double TimelineWidget::laneTop(int lane) const {
  return rowsTop() + lane_y_[static_cast<size_t>(lane)] - vbar_->value();
}

void TimelineWidget::resizeEvent(QResizeEvent*) {
  const int bar = vbar_->sizeHint().width();
  vbar_->setGeometry(width() - bar, rowsTop(), bar, std::max(0, rowsBottom() - rowsTop()));
  scale_.setWidth(plotWidth());
  layoutRows();
  viewChanged();
}

void TimelineWidget::viewChanged() {
  dirty_ = true;
  hover_ = nullptr;
  update();
}

void TimelineWidget::zoomToSpan(int64_t ts, int64_t end) {
  scale_.fit(ts, std::max(end, ts + 1));
  viewChanged();
}

void TimelineWidget::fit() {
  scale_.fitAll();
  viewChanged();
}

void TimelineWidget::showEvents(const EventRefs& events) {
  highlighted_ = events;
  if (!run_ || !data_ || events.empty()) {
    update();
    return;
  }
  if (auto span = spanOf(events.front(), *run_)) {
    const int64_t margin = std::max<int64_t>(
        static_cast<int64_t>(static_cast<double>(span->dur) * kZoomMargin), 50);
    zoomToSpan(span->ts - margin, span->end() + margin);
  }
  selected_ = events.front();
  launch_ = launchOf(events.front());
  ensureVisible(data_->rows.laneOf(events.front()));
  viewChanged();
}

void TimelineWidget::ensureVisible(int lane) {
  if (lane < 0) return;
  const int top = lane_y_[static_cast<size_t>(lane)];
  const int visible = rowsBottom() - rowsTop();
  if (top < vbar_->value() || top + kLanePx > vbar_->value() + visible) {
    vbar_->setValue(std::max(0, top - visible / 3));
  }
}

// --- Geometry ---------------------------------------------------------------

void TimelineWidget::rebuild() {
  dirty_ = false;
  hover_ = nullptr;
  items_.clear();
  const qreal dpr = devicePixelRatioF();
  if (base_.size() != size() * dpr) {
    base_ = QImage(size() * dpr, QImage::Format_ARGB32_Premultiplied);
    base_.setDevicePixelRatio(dpr);
  }
  base_.fill(palette().color(QPalette::Base));
  QPainter p(&base_);
  renderBase(p);
}

void TimelineWidget::renderBase(QPainter& p) {
  paintRuler(p);
  if (!data_) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect(), Qt::AlignCenter, run_ ? tr("No events on this rank") : tr("No run open"));
    return;
  }
  paintSteps(p);
  const TimelineRows& rows = data_->rows;
  const int top = rowsTop();
  const int bottom = rowsBottom();
  p.save();
  p.setClipRect(0, top, width(), bottom - top);
  for (size_t r = 0; r < rows.rows.size(); ++r) {
    const TimelineRow& row = rows.rows[r];
    const double y0 = laneTop(row.first_lane);
    const Lane& last = rows.lanes[static_cast<size_t>(row.first_lane + row.lane_count - 1)];
    const double y1 = laneTop(row.first_lane + row.lane_count - 1) +
                      (last.kind == LaneKind::kCounter ? 2 * kLanePx : kLanePx);
    if (y1 < top || y0 > bottom) continue;
    if (r % 2) p.fillRect(QRectF(0, y0, width(), y1 - y0), palette().color(QPalette::AlternateBase));
    p.setPen(palette().color(QPalette::Text));
    p.drawText(QRectF(4, y0, kGutterPx - 8, std::min<double>(y1 - y0, kLanePx)),
               Qt::AlignLeft | Qt::AlignVCenter,
               fontMetrics().elidedText(qtString(row.label), Qt::ElideMiddle, kGutterPx - 8));
    for (int l = 0; l < row.lane_count; ++l) {
      const int lane = row.first_lane + l;
      const double y = laneTop(lane);
      if (y > bottom || y + 2 * kLanePx < top) continue;
      if (rows.lanes[static_cast<size_t>(lane)].kind == LaneKind::kCounter) {
        paintCounter(p, lane, y);
      } else {
        paintLane(p, lane, y);
      }
    }
  }
  p.restore();
  p.setPen(palette().color(QPalette::Mid));
  p.drawLine(kGutterPx, top, kGutterPx, bottom);
  paintLegend(p);
}

void TimelineWidget::paintRuler(QPainter& p) {
  p.fillRect(QRect(0, 0, width(), kRulerPx), palette().color(QPalette::Window));
  if (!data_) return;
  p.setPen(palette().color(QPalette::WindowText));
  p.save();
  p.setClipRect(kGutterPx, 0, plotWidth(), height());
  for (const TimeScale::Tick& tick : scale_.ticks(data_->rows.start)) {
    const double x = kGutterPx + tick.x;
    p.drawLine(QPointF(x, kRulerPx - 6), QPointF(x, kRulerPx));
    p.drawText(QPointF(x + 3, kRulerPx - 8), qtString(tick.label));
  }
  p.restore();
  // The rank the trace names, as the rank selector shows it; its position
  // in the run when it names none.
  const std::optional<int32_t> named =
      run_ ? run_->run.ranks[static_cast<size_t>(rank_)].rank : std::nullopt;
  p.drawText(QRect(4, 0, kGutterPx - 8, kRulerPx), Qt::AlignLeft | Qt::AlignVCenter,
             tr("Rank %1 · %2 / div")
                 .arg(named ? *named : rank_)
                 .arg(durationText(scale_.tickStep())));
}

void TimelineWidget::paintSteps(QPainter& p) {
  const int y = kRulerPx;
  p.setPen(palette().color(QPalette::WindowText));
  p.drawText(QRect(4, y, kGutterPx - 8, kStepBandPx), Qt::AlignLeft | Qt::AlignVCenter,
             tr("steps"));
  p.save();
  p.setClipRect(kGutterPx, y, plotWidth(), kStepBandPx);
  const std::vector<StepBandItem>& steps = data_->rows.steps;
  for (size_t i = 0; i < steps.size(); ++i) {
    const double x0 = kGutterPx + std::max(-1.0, scale_.x(steps[i].ts));
    const double x1 = kGutterPx + std::min<double>(plotWidth() + 1, scale_.x(steps[i].ts + steps[i].dur));
    if (x1 < kGutterPx || x0 > kGutterPx + plotWidth()) continue;
    const QColor fill = i % 2 ? QColor(0x9a, 0xa5, 0xb1) : QColor(0xc3, 0xcb, 0xd3);
    const QRectF box(x0, y + 1, std::max(1.0, x1 - x0), kStepBandPx - 2);
    p.fillRect(box, fill);
    if (box.width() > kMinLabelPx) {
      p.setPen(textOn(fill));
      p.drawText(box, Qt::AlignCenter, tr("step %1").arg(steps[i].number));
    }
  }
  p.restore();
}

QColor TimelineWidget::colorOf(EventKind kind, int64_t id) const {
  const TraceTables& t = run_->tables[static_cast<size_t>(rank_)];
  const size_t i = static_cast<size_t>(id);
  switch (kind) {
    case EventKind::kKernel: {
      const StringId name = t.kernels.name[i];
      return categoryColor(name.valid() ? data_->rows.kernel_categories[static_cast<size_t>(name.value)]
                                        : KernelCategory::kOther);
    }
    case EventKind::kMemcpy: return {0x8d, 0x99, 0xa6};
    case EventKind::kMemset: return {0xa9, 0xb2, 0xbc};
    case EventKind::kApiCall: return {0xb8, 0xa9, 0x8f};
    case EventKind::kSync: return {0xd9, 0x88, 0x80};
    case EventKind::kRange: {
      // A stable mid-tone hue per name, so repeats of one op read alike.
      const int32_t name = t.ranges.name[i].value;
      return QColor::fromHsl(static_cast<int>((static_cast<uint32_t>(name) * 2654435761u) % 360),
                             110, 165);
    }
    case EventKind::kGap: return causeColor(run_->run.ranks[static_cast<size_t>(rank_)].gaps[i].cause);
  }
  return Qt::gray;
}

QString TimelineWidget::nameOf(EventKind kind, int64_t id) const {
  return qtString(damscope::nameOf(EventRef{rank_, kind, id}, *run_));
}

const QString& TimelineWidget::elided(EventKind kind, int64_t id, int width) {
  // Events that share a name share a label: key by the name's string id where
  // there is one, else by the event; widths in 8 px buckets.
  const TraceTables& t = run_->tables[static_cast<size_t>(rank_)];
  const size_t i = static_cast<size_t>(id);
  int64_t name_key = id;
  if (kind == EventKind::kKernel) name_key = t.kernels.name[i].value;
  if (kind == EventKind::kRange) name_key = t.ranges.name[i].value;
  if (kind == EventKind::kApiCall) name_key = t.api_calls.name[i].value;
  const int bucket = std::min(width / 8, 4095);
  const uint64_t key = (static_cast<uint64_t>(kind) << 56) ^
                       (static_cast<uint64_t>(name_key) << 12) ^ static_cast<uint64_t>(bucket);
  auto it = elide_cache_.find(key);
  if (it == elide_cache_.end()) {
    it = elide_cache_
             .emplace(key, fontMetrics().elidedText(nameOf(kind, id), Qt::ElideRight, bucket * 8 - 4))
             .first;
  }
  return it->second;
}

void TimelineWidget::paintLane(QPainter& p, int lane, double top) {
  const int64_t t0 = scale_.start();
  const int64_t t1 = scale_.end();
  query_.clear();
  data_->lod.query(lane, t0, t1, scale_.nsPerPx(), query_);
  const double right = kGutterPx + plotWidth();
  const QRectF lane_rect(kGutterPx, top + 1, plotWidth(), kLanePx - 2);
  const size_t first = items_.size();
  // Items that fall inside the pixel column the previous item already covers
  // fold into it, so a lane draws at most about one box per pixel.
  for (const LodItem& item : query_) {
    const double x0 = std::max<double>(kGutterPx - 1, kGutterPx + scale_.x(item.start));
    const double x1 = std::min(right + 1, kGutterPx + scale_.x(item.end));
    if (items_.size() > first) {
      DrawItem& prev = items_.back();
      if (std::floor(x1) <= std::floor(prev.rect.right()) ||
          (std::floor(x0) == std::floor(prev.rect.right()) && x1 - x0 < 1)) {
        LodItem& merged = prev.item;
        merged.end = std::max(merged.end, item.end);
        merged.busy_ns += item.busy_ns;
        merged.count += item.count;
        if (item.longest_ns > merged.longest_ns) {
          merged.longest_ns = item.longest_ns;
          merged.id = item.id;
          merged.kind = item.kind;
        }
        prev.rect.setRight(std::max(prev.rect.right(), std::max(x1, x0 + 1)));
        continue;
      }
    }
    items_.push_back({QRectF(x0, lane_rect.top(), std::max(1.0, x1 - x0), lane_rect.height()), lane, item});
  }
  QFont font = p.font();
  for (size_t i = first; i < items_.size(); ++i) {
    const DrawItem& d = items_[i];
    const QColor fill = colorOf(d.item.kind, d.item.id);
    if (d.item.summary()) {
      p.fillRect(d.rect, fill.lighter(125));
      if (d.rect.width() >= 3) p.fillRect(d.rect, QBrush(fill.darker(160), Qt::BDiagPattern));
      continue;
    }
    p.fillRect(d.rect, fill);
    if (d.rect.width() >= kMinLabelPx) {
      p.setPen(textOn(fill));
      const QRectF visible = d.rect.intersected(lane_rect);
      p.drawText(visible.adjusted(2, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
                 elided(d.item.kind, d.item.id, static_cast<int>(visible.width())));
    }
  }
}

void TimelineWidget::paintCounter(QPainter& p, int lane, double top) {
  const Lane& l = data_->rows.lanes[static_cast<size_t>(lane)];
  if (l.events.empty() || !(l.max_value > 0)) return;
  const int64_t t0 = scale_.start();
  const int64_t t1 = scale_.end();
  // From the last sample at or before t0 (its value holds into the view).
  auto it = std::upper_bound(l.events.begin(), l.events.end(), t0,
                             [](int64_t t, const LaneEvent& e) { return t < e.start; });
  size_t i = it == l.events.begin() ? 0 : static_cast<size_t>(it - l.events.begin()) - 1;
  const double height = 2 * kLanePx - 2;
  const double base = top + 2 * kLanePx - 1;
  // One point per pixel column, the column's largest value: the plot costs
  // pixels, not samples.
  QPolygonF area;
  area.reserve(2 * plotWidth() + 4);
  double column = -1e9;
  for (; i < l.events.size() && l.events[i].start < t1; ++i) {
    const double x = kGutterPx + std::max(0.0, scale_.x(l.events[i].start));
    const double y = base - height * l.values[i] / l.max_value;
    if (std::floor(x) == column && !area.isEmpty()) {
      area.back().setY(std::min(area.back().y(), y));
      continue;
    }
    if (area.isEmpty()) area << QPointF(x, base);
    else area << QPointF(x, area.back().y());  // a step: the value holds until the next sample
    area << QPointF(x, y);
    column = std::floor(x);
  }
  if (area.isEmpty()) return;
  const double end_x = std::min<double>(kGutterPx + plotWidth(), kGutterPx + scale_.x(l.events.back().end));
  area << QPointF(std::max(end_x, area.back().x()), area.back().y())
       << QPointF(std::max(end_x, area.back().x()), base);
  const QColor colour(0x4c, 0x8b, 0xb8);
  p.setPen(colour.darker(130));
  p.setBrush(QColor(colour.red(), colour.green(), colour.blue(), 140));
  p.drawPolygon(area);
  p.setBrush(Qt::NoBrush);
}

void TimelineWidget::paintLegend(QPainter& p) {
  const int y = rowsBottom();
  p.fillRect(QRect(0, y, width(), kLegendPx), palette().color(QPalette::Window));
  p.setPen(palette().color(QPalette::WindowText));
  int x = 4;
  p.drawText(QRect(x, y, 70, kLegendPx), Qt::AlignLeft | Qt::AlignVCenter, tr("bubbles:"));
  x += 70;
  for (size_t c = 0; c < kGapCauseCount; ++c) {
    const GapCause cause = static_cast<GapCause>(c);
    p.fillRect(QRect(x, y + 5, 12, kLegendPx - 10), causeColor(cause));
    const QString label = qtString(causeLabel(cause));
    p.drawText(QRect(x + 16, y, 200, kLegendPx), Qt::AlignLeft | Qt::AlignVCenter, label);
    x += 16 + fontMetrics().horizontalAdvance(label) + 14;
  }
  p.drawText(QRect(x, y, 300, kLegendPx), Qt::AlignLeft | Qt::AlignVCenter,
             tr("▨ folded: many short events"));
}

// --- Overlay ----------------------------------------------------------------

QRectF TimelineWidget::eventRect(const EventRef& ref) const {
  if (!data_ || !run_) return {};
  const int lane = data_->rows.laneOf(ref);
  const auto span = spanOf(ref, *run_);
  if (lane < 0 || !span) return {};
  const double top = laneTop(lane);
  if (top + kLanePx <= rowsTop() || top >= rowsBottom()) return {};
  const double x0 = std::max<double>(kGutterPx, kGutterPx + scale_.x(span->ts));
  const double x1 = std::min<double>(kGutterPx + plotWidth(), kGutterPx + scale_.x(span->end()));
  if (x1 < x0) return {};
  return QRectF(x0, top + 1, std::max(1.0, x1 - x0), kLanePx - 2);
}

void TimelineWidget::paintOverlay(QPainter& p) {
  p.save();
  p.setClipRect(kGutterPx, rowsTop(), plotWidth(), rowsBottom() - rowsTop());
  p.setBrush(Qt::NoBrush);
  p.setPen(QPen(QColor(0xff, 0xa5, 0x00), 2));
  for (const EventRef& ref : highlighted_) {
    const QRectF r = eventRect(ref);
    if (!r.isEmpty()) p.drawRect(r.adjusted(-1, -1, 1, 1));
  }
  if (hover_) {
    p.setPen(QPen(palette().color(QPalette::Text), 1));
    p.drawRect(hover_->rect);
  }
  if (selected_) {
    const QRectF r = eventRect(*selected_);
    p.setPen(QPen(palette().color(QPalette::Highlight), 2));
    if (!r.isEmpty()) p.drawRect(r.adjusted(-1, -1, 1, 1));
    if (launch_) {
      const QRectF from = eventRect(*launch_);
      if (!from.isEmpty() && !r.isEmpty()) {
        // From the bottom of the launch call to the top of the work it launched.
        const QPointF a(from.left(), from.center().y());
        const QPointF b(r.left(), r.center().y());
        p.setRenderHint(QPainter::Antialiasing);
        p.drawLine(a, b);
        const double angle = std::atan2(b.y() - a.y(), b.x() - a.x());
        QPolygonF head;
        head << b << b - QPointF(8 * std::cos(angle - 0.4), 8 * std::sin(angle - 0.4))
             << b - QPointF(8 * std::cos(angle + 0.4), 8 * std::sin(angle + 0.4));
        p.setBrush(palette().color(QPalette::Highlight));
        p.drawPolygon(head);
      }
    }
  }
  p.restore();
  if (drag_ == Drag::kRange) {
    const int x0 = std::min(press_pos_.x(), last_pos_.x());
    const int x1 = std::max(press_pos_.x(), last_pos_.x());
    QColor shade = palette().color(QPalette::Highlight);
    shade.setAlpha(60);
    p.fillRect(QRect(x0, kRulerPx, x1 - x0, height() - kRulerPx), shade);
    p.setPen(palette().color(QPalette::Text));
    p.drawText(QRect(x0, 0, std::max(x1 - x0, 120), kRulerPx), Qt::AlignLeft | Qt::AlignVCenter,
               durationText(scale_.ts(x1 - kGutterPx) - scale_.ts(x0 - kGutterPx)));
  }
}

void TimelineWidget::paintEvent(QPaintEvent*) {
  if (dirty_ || base_.size() != size() * devicePixelRatioF()) rebuild();
  QPainter p(this);
  p.drawImage(0, 0, base_);
  if (data_) paintOverlay(p);
}

// --- Interaction --------------------------------------------------------------

const TimelineWidget::DrawItem* TimelineWidget::itemAt(const QPoint& pos) const {
  if (dirty_) const_cast<TimelineWidget*>(this)->rebuild();
  for (const DrawItem& d : items_) {
    if (d.rect.adjusted(-0.5, 0, 0.5, 0).contains(pos)) return &d;
  }
  return nullptr;
}

std::optional<EventRef> TimelineWidget::eventAt(const QPoint& pos) const {
  const DrawItem* d = itemAt(pos);
  if (!d) return std::nullopt;
  return EventRef{rank_, d->item.kind, d->item.id};
}

std::optional<EventRef> TimelineWidget::launchOf(const EventRef& ref) const {
  if (!run_ || ref.rank != rank_) return std::nullopt;
  const TraceTables& t = run_->tables[static_cast<size_t>(rank_)];
  const size_t i = static_cast<size_t>(ref.id);
  int64_t correlation = kNullInt;
  if (ref.kind == EventKind::kKernel && i < t.kernels.size()) correlation = t.kernels.correlation_id[i];
  if (ref.kind == EventKind::kMemcpy && i < t.memcpys.size()) correlation = t.memcpys.correlation_id[i];
  if (ref.kind == EventKind::kMemset && i < t.memsets.size()) correlation = t.memsets.correlation_id[i];
  if (isNull(correlation)) return std::nullopt;
  // One scan per click: cheaper than an index over every call kept for the run.
  const auto& ids = t.api_calls.correlation_id;
  const auto it = std::find(ids.begin(), ids.end(), correlation);
  if (it == ids.end()) return std::nullopt;
  return EventRef{rank_, EventKind::kApiCall, static_cast<int64_t>(it - ids.begin())};
}

void TimelineWidget::select(const EventRef& ref, bool emit_signal) {
  selected_ = ref;
  launch_ = launchOf(ref);
  update();
  if (emit_signal) emit eventSelected(ref);
}

void TimelineWidget::centreOn(const EventRef& ref) {
  const auto span = spanOf(ref, *run_);
  if (!span) return;
  if (scale_.x(span->end()) - scale_.x(span->ts) > 0.8 * plotWidth()) {
    const int64_t margin = static_cast<int64_t>(static_cast<double>(span->dur) * kZoomMargin);
    scale_.fit(span->ts - margin, span->end() + margin);
  } else {
    scale_.pan(scale_.x(span->ts + span->dur / 2) - plotWidth() / 2.0);
  }
  ensureVisible(data_->rows.laneOf(ref));
  viewChanged();
}

bool TimelineWidget::find(const QString& text, bool forward) {
  if (!run_ || !data_ || text.isEmpty()) return false;
  const TraceTables& t = run_->tables[static_cast<size_t>(rank_)];
  if (text != search_text_) {
    search_text_ = text;
    matches_.clear();
    // Match each distinct name once, then scan the name columns by id.
    std::vector<uint8_t> hit(t.strings.size(), 0);
    for (size_t s = 0; s < t.strings.size(); ++s) {
      hit[s] = qtString(t.strings.get(StringId{static_cast<int32_t>(s)})).contains(text, Qt::CaseInsensitive);
    }
    auto scan = [&](const std::vector<StringId>& names, const std::vector<int64_t>& ts,
                    EventKind kind) {
      for (size_t i = 0; i < names.size(); ++i) {
        if (names[i].valid() && hit[static_cast<size_t>(names[i].value)]) {
          matches_.push_back({ts[i], EventRef{rank_, kind, static_cast<int64_t>(i)}});
        }
      }
    };
    scan(t.kernels.name, t.kernels.ts, EventKind::kKernel);
    scan(t.ranges.name, t.ranges.ts, EventKind::kRange);
    scan(t.api_calls.name, t.api_calls.ts, EventKind::kApiCall);
    std::sort(matches_.begin(), matches_.end());
  }
  if (matches_.empty()) return false;
  std::pair<int64_t, EventRef> current{scale_.start(), EventRef{rank_, EventKind::kKernel, -1}};
  if (selected_) {
    if (auto span = spanOf(*selected_, *run_)) current = {span->ts, *selected_};
  }
  size_t index = 0;
  if (forward) {
    auto it = std::upper_bound(matches_.begin(), matches_.end(), current);
    index = it == matches_.end() ? 0 : static_cast<size_t>(it - matches_.begin());
  } else {
    auto it = std::lower_bound(matches_.begin(), matches_.end(), current);
    index = it == matches_.begin() ? matches_.size() - 1
                                   : static_cast<size_t>(it - matches_.begin()) - 1;
  }
  const EventRef match = matches_[index].second;
  centreOn(match);
  select(match, true);
  return true;
}

bool TimelineWidget::findNext(const QString& text) { return find(text, true); }
bool TimelineWidget::findPrevious(const QString& text) { return find(text, false); }

void TimelineWidget::wheelEvent(QWheelEvent* event) {
  const double notches = event->angleDelta().y() / 120.0;
  if (event->modifiers() & Qt::ShiftModifier) {
    vbar_->setValue(vbar_->value() - static_cast<int>(notches * 3 * kLanePx));
  } else {
    scale_.zoom(std::pow(kWheelZoom, notches), event->position().x() - kGutterPx);
    viewChanged();
  }
  event->accept();
}

void TimelineWidget::mousePressEvent(QMouseEvent* event) {
  press_pos_ = last_pos_ = event->pos();
  moved_ = false;
  const bool range = event->button() == Qt::RightButton ||
                     (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier));
  drag_ = range ? Drag::kRange : event->button() == Qt::LeftButton ? Drag::kPan : Drag::kNone;
}

void TimelineWidget::mouseMoveEvent(QMouseEvent* event) {
  const QPoint pos = event->pos();
  if (drag_ != Drag::kNone && (pos - press_pos_).manhattanLength() >= kClickSlopPx) moved_ = true;
  if (drag_ == Drag::kPan && moved_) {
    scale_.pan(last_pos_.x() - pos.x());
    const int dy = last_pos_.y() - pos.y();
    if (dy) vbar_->setValue(vbar_->value() + dy);
    last_pos_ = pos;
    viewChanged();
    return;
  }
  last_pos_ = pos;
  if (drag_ == Drag::kRange) {
    update();
    return;
  }
  const DrawItem* hover = itemAt(pos);
  if (hover != hover_) {
    hover_ = hover;
    update();
  }
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent* event) {
  const Drag drag = drag_;
  drag_ = Drag::kNone;
  if (drag == Drag::kRange && moved_) {
    const int x0 = std::min(press_pos_.x(), event->pos().x()) - kGutterPx;
    const int x1 = std::max(press_pos_.x(), event->pos().x()) - kGutterPx;
    zoomToSpan(scale_.ts(x0), scale_.ts(x1));
    return;
  }
  if (drag == Drag::kPan && !moved_ && event->button() == Qt::LeftButton) {
    if (auto ref = eventAt(event->pos())) {
      const DrawItem* d = itemAt(event->pos());
      if (d && data_->rows.lanes[static_cast<size_t>(d->lane)].kind != LaneKind::kCounter) {
        select(*ref, true);
      }
    }
  }
  update();
}

void TimelineWidget::keyPressEvent(QKeyEvent* event) {
  const double centre = plotWidth() / 2.0;
  switch (event->key()) {
    case Qt::Key_W: scale_.zoom(kKeyZoom, centre); break;
    case Qt::Key_S: scale_.zoom(1 / kKeyZoom, centre); break;
    case Qt::Key_A: scale_.pan(-kKeyPanFraction * plotWidth()); break;
    case Qt::Key_D: scale_.pan(kKeyPanFraction * plotWidth()); break;
    case Qt::Key_F: scale_.fitAll(); break;
    default: QWidget::keyPressEvent(event); return;
  }
  viewChanged();
}

bool TimelineWidget::event(QEvent* event) {
  if (event->type() != QEvent::ToolTip) return QWidget::event(event);
  auto* help = static_cast<QHelpEvent*>(event);
  const DrawItem* d = data_ ? itemAt(help->pos()) : nullptr;
  if (!d || data_->rows.lanes[static_cast<size_t>(d->lane)].kind == LaneKind::kCounter) {
    QToolTip::hideText();
    event->ignore();
    return true;
  }
  const QString row = qtString(data_->rows.rows[static_cast<size_t>(data_->rows.lanes[static_cast<size_t>(d->lane)].row)].label);
  QString text;
  if (d->item.summary()) {
    text = tr("%1 events, busy %2 of %3\nlongest: %4 (%5)\n%6")
               .arg(d->item.count)
               .arg(durationText(d->item.busy_ns), durationText(d->item.end - d->item.start),
                    nameOf(d->item.kind, d->item.id), durationText(d->item.longest_ns), row);
  } else {
    text = tr("%1\n%2\n%3").arg(nameOf(d->item.kind, d->item.id),
                                durationText(d->item.end - d->item.start), row);
  }
  QToolTip::showText(help->globalPos(), text, this);
  return true;
}

}  // namespace damscope
