// The timeline widget: see timeline_widget.h.
#include "gui/timeline/timeline_widget.h"

#include <algorithm>
#include <cmath>

#include <QContextMenuEvent>
#include <QElapsedTimer>
#include <QGuiApplication>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include "analyzer/report/text_format.h"
#include "gui/models/palette.h"
#include "gui/models/qt_text.h"
#include "gui/timeline/stacked_rows.h"

namespace damscope {
namespace {

// Zoom per wheel notch (120 eighths of a degree) and per W/S or +/- press.
constexpr double kWheelZoom = 1.25;
constexpr double kKeyZoom = 1.5;
// A/D and the arrows pan by this fraction of the view.
constexpr double kKeyPanFraction = 0.1;
// Up/Down scroll the rows by this many lanes.
constexpr int kKeyScrollLanes = 3;
// A search match narrower than this is zoomed to, with kMatchContext of its
// duration on each side, so that it can be seen.
constexpr double kMinMatchPx = 8.0;
constexpr double kMatchContext = 2.0;
// A press that moves less than this is a click, not a drag.
constexpr int kClickSlopPx = 4;
// Margin around an event zoomed to, as a fraction of its duration on each side.
constexpr double kZoomMargin = 0.25;
// How much the time outside the selected window is dimmed (alpha of 255).
constexpr int kOutsideWindowAlpha = 70;

QString durationText(int64_t ns) {
  return qtString(formatDuration(static_cast<double>(ns)));
}

}  // namespace

TimelineWidget::TimelineWidget(QWidget* parent)
    : QWidget(parent),
      painter_(palette(), font()),
      scan_codes_(scanCodesOf(QGuiApplication::platformName())) {
  vbar_ = new QScrollBar(Qt::Vertical, this);
  connect(vbar_, &QScrollBar::valueChanged, this, [this] { viewChanged(); });
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(true);
  setMinimumSize(400, 200);
}

TimelineWidget::~TimelineWidget() = default;

void TimelineWidget::setRun(std::shared_ptr<const AnalysedRun> run, int rank) {
  if (run && rank == kAllRanks && run->tables.size() > 1) {
    auto data = buildJobTimelineData(*run);
    setData(std::move(run), rank, std::move(data));
    return;
  }
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
  window_.reset();
  search_ = TimelineSearch();
  history_.clear();
  arrangement_ = RowArrangement();
  painter_.forgetLabels();
  collapsed_.assign(data_ ? data_->rows.groups.size() : 0, false);
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

TimelineFrame TimelineWidget::frame() const {
  TimelineFrame f;
  f.run = run_.get();
  f.rank = rank_;
  f.data = data_.get();
  f.scale = scale_;
  f.size = size();
  f.lane_y = layout_.lane_y;
  f.lane_h = layout_.lane_h;
  f.row_y = layout_.row_y;
  f.row_collapsed = layout_.row_collapsed;
  f.group_collapsed = layout_.group_collapsed;
  f.scroll_y = vbar_->value();
  f.pinned_height = layout_.pinned_height;
  return f;
}

void TimelineWidget::layoutRows() {
  layout_ = data_ ? layoutLanes(data_->rows, arrangement_, collapsed_) : LaneLayout();
  const int visible = std::max(0, rowsBottom() - rowsTop());
  vbar_->setRange(0, std::max(0, layout_.content_height - visible));
  vbar_->setPageStep(std::max(1, visible));
  vbar_->setSingleStep(kLanePx);
}

void TimelineWidget::resizeEvent(QResizeEvent*) {
  const int bar = vbar_->sizeHint().width();
  vbar_->setGeometry(width() - bar, rowsTop(), bar, std::max(0, rowsBottom() - rowsTop()));
  scale_.setWidth(plotWidth());
  layoutRows();
  viewChanged();
}

void TimelineWidget::changeEvent(QEvent* event) {
  if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) {
    painter_.setStyle(palette(), font());
    viewChanged();
  }
  QWidget::changeEvent(event);
}

void TimelineWidget::viewChanged() {
  dirty_ = true;
  hover_ = nullptr;
  update();
}

void TimelineWidget::leaveView(bool gradual) {
  history_.leave({scale_.start(), scale_.end()}, gradual);
}

void TimelineWidget::restoreView(const std::optional<ViewSpan>& view) {
  if (!view) return;
  scale_.fit(view->start, view->end);
  viewChanged();
}

void TimelineWidget::zoomToSpan(int64_t ts, int64_t end) {
  leaveView(false);
  scale_.fit(ts, std::max(end, ts + 1));
  viewChanged();
}

void TimelineWidget::fit() {
  leaveView(false);
  scale_.fitAll();
  viewChanged();
}

void TimelineWidget::goBack() {
  restoreView(history_.back({scale_.start(), scale_.end()}));
}

void TimelineWidget::goForward() {
  restoreView(history_.forward({scale_.start(), scale_.end()}));
}

void TimelineWidget::clearSelection() {
  selected_.reset();
  launch_.reset();
  highlighted_.clear();
  update();
}

void TimelineWidget::selectWindow(const TimeWindow& window) {
  if (!data_ || window.end <= window.start) return;
  window_ = window;
  update();
  emit windowSelected(window);
}

void TimelineWidget::setWindow(std::optional<TimeWindow> window) {
  window_ = window;
  update();
}

void TimelineWidget::showEvents(const EventRefs& events) {
  highlighted_ = events;
  if (!run_ || !data_ || events.empty()) {
    update();
    return;
  }
  if (auto span = viewSpan(events.front())) {
    const int64_t margin =
        std::max<int64_t>(static_cast<int64_t>(static_cast<double>(span->dur) * kZoomMargin), 50);
    zoomToSpan(span->ts - margin, span->end() + margin);
  }
  selected_ = events.front();
  launch_ = launchOf(events.front(), *run_);
  ensureVisible(data_->rows.laneOf(events.front()));
  viewChanged();
}

void TimelineWidget::ensureVisible(int lane) {
  if (lane < 0) return;
  const int group =
      data_->rows.rows[static_cast<size_t>(data_->rows.lanes[static_cast<size_t>(lane)].row)].group;
  if (group >= 0 && collapsed_[static_cast<size_t>(group)]) setCollapsed(group, false);
  if (layout_.lane_y[static_cast<size_t>(lane)] < 0) return;  // a hidden or collapsed row
  const int top = layout_.lane_y[static_cast<size_t>(lane)];
  const int pinned = layout_.pinned_height;
  if (top < pinned) return;  // the pinned rows are always in view
  // The scrolling rows show content y from value + pinned to value + visible.
  const int visible = rowsBottom() - rowsTop();
  if (top < vbar_->value() + pinned || top + kLanePx > vbar_->value() + visible) {
    vbar_->setValue(std::max(0, top - pinned - (visible - pinned) / 3));
  }
}

// --- Painting -----------------------------------------------------------------

void TimelineWidget::rebuild() {
  dirty_ = false;
  hover_ = nullptr;
  items_.clear();
  const qreal dpr = devicePixelRatioF();
  if (base_.size() != size() * dpr) {
    base_ = QImage(size() * dpr, QImage::Format_ARGB32_Premultiplied);
    base_.setDevicePixelRatio(dpr);
  }
  QElapsedTimer timer;
  timer.start();
  QPainter p(&base_);
  p.setFont(font());
  painter_.paint(p, frame(), &items_);
  frame_times_ = {static_cast<double>(timer.nsecsElapsed()) / 1e6, painter_.stats()};
}

QRectF TimelineWidget::eventRect(const EventRef& ref) const {
  if (!data_ || !run_) return {};
  const int lane = data_->rows.laneOf(ref);
  const auto span = viewSpan(ref);
  if (lane < 0 || !span || layout_.lane_y[static_cast<size_t>(lane)] < 0) return {};
  const double top = laneTop(lane);
  // A scrolling lane under the pinned rows is out of view.
  const int pinned =
      layout_.lane_y[static_cast<size_t>(lane)] < layout_.pinned_height ? 0 : layout_.pinned_height;
  if (top + kLanePx <= rowsTop() + pinned || top >= rowsBottom()) return {};
  const double x0 = std::max<double>(kGutterPx, xOf(span->ts));
  const double x1 = std::min<double>(kGutterPx + plotWidth(), xOf(span->end()));
  if (x1 < x0) return {};
  return QRectF(x0, top + 1, std::max(1.0, x1 - x0), kLanePx - 2);
}

void TimelineWidget::paintWindow(QPainter& p, const TimeWindow& window, bool dragging) {
  const double left = kGutterPx;
  const double right = kGutterPx + plotWidth();
  const double x0 = std::clamp(xOf(window.start), left, right);
  const double x1 = std::clamp(xOf(window.end), left, right);
  const double top = kRulerPx;
  const double bottom = rowsBottom();
  // Dim what lies outside the window, so the part the diagnosis describes
  // stands out; mark its edges.
  QColor dim = palette().color(QPalette::Shadow);
  dim.setAlpha(kOutsideWindowAlpha);
  p.fillRect(QRectF(left, top, x0 - left, bottom - top), dim);
  p.fillRect(QRectF(x1, top, right - x1, bottom - top), dim);
  const QColor edge = palette().color(QPalette::Highlight);
  p.setPen(QPen(edge, dragging ? 1 : 2));
  p.drawLine(QPointF(x0, top), QPointF(x0, bottom));
  p.drawLine(QPointF(x1, top), QPointF(x1, bottom));
  // Its extent in the ruler, as the chip says it.
  const QString label =
      tr("window %1 · %2")
          .arg(windowText(window, data_->rows.start), durationText(window.duration()));
  const int text_width = fontMetrics().horizontalAdvance(label) + 12;
  const QRectF box(std::clamp(x0, left, std::max(left, right - text_width)), 1, text_width,
                   kRulerPx - 2);
  p.fillRect(box, edge);
  p.setPen(palette().color(QPalette::HighlightedText));
  p.drawText(box, Qt::AlignCenter, label);
}

void TimelineWidget::paintOverlay(QPainter& p) {
  p.save();
  p.setClipRect(kGutterPx, 0, plotWidth(), rowsBottom());
  if (drag_ == Drag::kWindow && moved_) {
    paintWindow(p, draggedWindow(last_pos_), true);
  } else if (window_) {
    paintWindow(p, *window_, false);
  }
  p.restore();
  p.save();
  p.setClipRect(kGutterPx, rowsTop(), plotWidth(), rowsBottom() - rowsTop());
  p.setBrush(Qt::NoBrush);
  for (const EventRef& ref : highlighted_) {
    const QRectF r = eventRect(ref);
    if (!r.isEmpty()) TimelinePainter::paintEvidence(p, r);
  }
  if (hover_) {
    p.setPen(QPen(palette().color(QPalette::Text), 1));
    p.drawRect(hover_->rect);
  }
  if (selected_) {
    const QRectF r = eventRect(*selected_);
    if (!r.isEmpty()) TimelinePainter::paintSelection(p, r);
    p.setPen(QPen(palette().color(QPalette::Highlight), 2));
    if (launch_) {
      const QRectF from = eventRect(*launch_);
      if (!from.isEmpty() && !r.isEmpty()) {
        // From the launch call to the work it launched.
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
  if (drag_ == Drag::kZoom && moved_) {
    const int x0 = std::min(press_pos_.x(), last_pos_.x());
    const int x1 = std::max(press_pos_.x(), last_pos_.x());
    QColor shade = palette().color(QPalette::Highlight);
    shade.setAlpha(60);
    p.fillRect(QRect(x0, kRulerPx, x1 - x0, height() - kRulerPx), shade);
    p.setPen(palette().color(QPalette::Text));
    p.drawText(
        QRect(x0, 0, std::max(x1 - x0, 160), kRulerPx), Qt::AlignLeft | Qt::AlignVCenter,
        tr("zoom to %1").arg(durationText(scale_.ts(x1 - kGutterPx) - scale_.ts(x0 - kGutterPx))));
  }
}

void TimelineWidget::paintEvent(QPaintEvent*) {
  if (dirty_ || base_.size() != size() * devicePixelRatioF()) rebuild();
  QPainter p(this);
  p.drawImage(0, 0, base_);
  if (data_) paintOverlay(p);
  if (frame_times_shown_) paintFrameTimes(p);
}

QString frameTimesText(const FrameTimes& times) {
  return QObject::tr("paint %1 ms · %2 items drawn · %3 folded")
      .arg(times.paint_ms, 0, 'f', 2)
      .arg(times.stats.items)
      .arg(times.stats.folded);
}

void TimelineWidget::setFrameTimesShown(bool shown) {
  frame_times_shown_ = shown;
  update();
}

void TimelineWidget::paintFrameTimes(QPainter& p) {
  // Top right of the plot, below the ruler, as Tracy's and Orbit's frame
  // statistics sit over their timelines.
  const QString text = frameTimesText(frame_times_);
  const QFontMetrics metrics = fontMetrics();
  const int w = metrics.horizontalAdvance(text) + 12;
  const QRect box(kGutterPx + plotWidth() - w - 4, rowsTop() + 4, w, metrics.height() + 6);
  QColor back = palette().color(QPalette::ToolTipBase);
  back.setAlpha(230);
  p.fillRect(box, back);
  p.setPen(palette().color(QPalette::ToolTipText));
  p.drawRect(box.adjusted(0, 0, -1, -1));
  p.drawText(box, Qt::AlignCenter, text);
}

// --- Interaction --------------------------------------------------------------

const TimelineItem* TimelineWidget::itemAt(const QPoint& pos) const {
  if (dirty_) const_cast<TimelineWidget*>(this)->rebuild();
  // The lane under the pointer decides: a scrolling lane's item can lie under
  // the pinned rows.
  const int lane = laneAt(pos.y());
  for (const TimelineItem& d : items_) {
    if (d.lane == lane && d.rect.adjusted(-0.5, 0, 0.5, 0).contains(pos)) return &d;
  }
  return nullptr;
}

std::optional<EventRef> TimelineWidget::eventAt(const QPoint& pos) const {
  const TimelineItem* d = itemAt(pos);
  if (!d) return std::nullopt;
  return refOf(*d);
}

EventRef TimelineWidget::refOf(const TimelineItem& d) const {
  return EventRef{data_->rows.lanes[static_cast<size_t>(d.lane)].rank, d.item.kind, d.item.id};
}

std::optional<EventSpan> TimelineWidget::viewSpan(const EventRef& ref) const {
  auto span = spanOf(ref, *run_);
  if (span && data_) span->ts += data_->rows.offsetOf(ref.rank);
  return span;
}

int TimelineWidget::contentY(int y) const {
  const int below_top = y - rowsTop();
  return below_top < layout_.pinned_height ? below_top : below_top + vbar_->value();
}

int TimelineWidget::laneAt(int y) const {
  if (!data_ || y < rowsTop() || y >= rowsBottom()) return -1;
  const int content_y = contentY(y);
  for (size_t l = 0; l < layout_.lane_y.size(); ++l) {
    if (content_y >= layout_.lane_y[l] && content_y < layout_.lane_y[l] + layout_.lane_h[l]) {
      return static_cast<int>(l);
    }
  }
  return -1;
}

void TimelineWidget::setCollapsed(int group, bool collapsed) {
  if (group < 0 || static_cast<size_t>(group) >= collapsed_.size()) return;
  collapsed_[static_cast<size_t>(group)] = collapsed;
  layoutRows();
  viewChanged();
}

const CollectiveSkew* TimelineWidget::collectiveAt(const QPoint& pos) const {
  const int lane = laneAt(pos.y());
  if (lane < 0 || data_->rows.lanes[static_cast<size_t>(lane)].kind != LaneKind::kSkew) {
    return nullptr;
  }
  // The bar under the cursor, drawn at least 2 px wide (the painter's
  // minimum), with a pixel of slack each side.
  const std::vector<CollectiveSkew>& all = data_->rows.collectives;
  const CollectiveSkew* best = nullptr;
  for (const CollectiveSkew& c : all) {
    const double x0 = xOf(c.first_start) - 1;
    const double x1 = std::max(xOf(c.last_start), xOf(c.first_start) + 2) + 1;
    if (x0 > pos.x()) break;
    if (pos.x() <= x1 && (!best || c.skewNs() > best->skewNs())) best = &c;
  }
  return best;
}

TimeWindow TimelineWidget::draggedWindow(const QPoint& to) const {
  const double x0 = std::clamp(std::min(press_pos_.x(), to.x()) - kGutterPx, 0, plotWidth());
  const double x1 = std::clamp(std::max(press_pos_.x(), to.x()) - kGutterPx, 0, plotWidth());
  return {scale_.ts(x0), scale_.ts(x1)};
}

void TimelineWidget::select(const EventRef& ref, bool emit_signal) {
  selected_ = ref;
  launch_ = run_ ? launchOf(ref, *run_) : std::nullopt;
  update();
  if (emit_signal) emit eventSelected(ref);
}

void TimelineWidget::centreOn(const EventRef& ref) {
  const auto span = viewSpan(ref);
  if (!span) return;
  leaveView(false);
  const double width_px = scale_.x(span->end()) - scale_.x(span->ts);
  if (width_px > 0.8 * plotWidth()) {
    const int64_t margin = static_cast<int64_t>(static_cast<double>(span->dur) * kZoomMargin);
    scale_.fit(span->ts - margin, span->end() + margin);
  } else if (width_px < kMinMatchPx) {
    const int64_t margin =
        std::max<int64_t>(static_cast<int64_t>(static_cast<double>(span->dur) * kMatchContext), 50);
    scale_.fit(span->ts - margin, span->end() + margin);
  } else {
    scale_.pan(scale_.x(span->ts + span->dur / 2) - plotWidth() / 2.0);
  }
  ensureVisible(data_->rows.laneOf(ref));
  viewChanged();
}

bool TimelineWidget::find(const QString& text, bool forward) {
  if (!run_ || !data_ || text.isEmpty()) return false;
  // The stacked view searches its first rank (the one the diagnosis shows
  // unless the Rank box picks one).
  const int rank = rank_ == kAllRanks ? 0 : rank_;
  if (text != search_.text() || search_.rank() != rank) search_ = TimelineSearch(*run_, rank, text);
  SearchPosition from = search_.at(scale_.start() - data_->rows.offsetOf(rank));
  if (selected_ && selected_->rank == rank) {
    if (auto span = spanOf(*selected_, *run_)) from = {span->ts, *selected_};
  }
  const std::optional<EventRef> match = forward ? search_.next(from) : search_.previous(from);
  if (!match) return false;
  centreOn(*match);
  select(*match, true);
  return true;
}

std::optional<size_t> TimelineWidget::matchIndex() const {
  if (!selected_ || !run_) return std::nullopt;
  const auto span = spanOf(*selected_, *run_);
  if (!span) return std::nullopt;
  return search_.indexOf({span->ts, *selected_});
}

bool TimelineWidget::findNext(const QString& text) {
  return find(text, true);
}
bool TimelineWidget::findPrevious(const QString& text) {
  return find(text, false);
}

void TimelineWidget::wheelEvent(QWheelEvent* event) {
  const double notches = event->angleDelta().y() / 120.0;
  if (event->modifiers() & Qt::ShiftModifier) {
    vbar_->setValue(vbar_->value() - static_cast<int>(notches * 3 * kLanePx));
  } else {
    leaveView(true);
    scale_.zoom(std::pow(kWheelZoom, notches), event->position().x() - kGutterPx);
    viewChanged();
  }
  event->accept();
}

void TimelineWidget::mousePressEvent(QMouseEvent* event) {
  press_pos_ = last_pos_ = event->pos();
  moved_ = false;
  const bool left = event->button() == Qt::LeftButton;
  if (event->button() == Qt::RightButton || (left && (event->modifiers() & Qt::ControlModifier))) {
    drag_ = Drag::kZoom;
  } else if (left && (event->modifiers() & Qt::ShiftModifier)) {
    drag_ = Drag::kWindow;
  } else {
    drag_ = left ? Drag::kPan : Drag::kNone;
  }
}

void TimelineWidget::mouseMoveEvent(QMouseEvent* event) {
  const QPoint pos = event->pos();
  pointer_ = pos;
  if (drag_ != Drag::kNone && (pos - press_pos_).manhattanLength() >= kClickSlopPx) moved_ = true;
  if (drag_ == Drag::kPan && moved_) {
    leaveView(true);
    scale_.pan(last_pos_.x() - pos.x());
    const int dy = last_pos_.y() - pos.y();
    if (dy) vbar_->setValue(vbar_->value() + dy);
    last_pos_ = pos;
    viewChanged();
    return;
  }
  last_pos_ = pos;
  if (drag_ == Drag::kWindow || drag_ == Drag::kZoom) {
    update();
    return;
  }
  const TimelineItem* hover = itemAt(pos);
  if (hover != hover_) {
    hover_ = hover;
    update();
  }
}

void TimelineWidget::zoomIntoFoldAt(const QPoint& pos) {
  const TimelineItem* d = itemAt(pos);
  if (!d || !d->item.summary()) return;
  zoomToSpan(d->item.start, d->item.end);
}

void TimelineWidget::mouseDoubleClickEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton) zoomIntoFoldAt(event->pos());
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent* event) {
  const Drag drag = drag_;
  drag_ = Drag::kNone;
  if (event->button() == Qt::MiddleButton &&
      (event->pos() - press_pos_).manhattanLength() < kClickSlopPx) {
    zoomIntoFoldAt(event->pos());
    return;
  }
  if (drag == Drag::kZoom && moved_) {
    const int x0 = std::min(press_pos_.x(), event->pos().x()) - kGutterPx;
    const int x1 = std::max(press_pos_.x(), event->pos().x()) - kGutterPx;
    zoomToSpan(scale_.ts(x0), scale_.ts(x1));
    return;
  }
  if (drag == Drag::kWindow && moved_) {
    selectWindow(draggedWindow(event->pos()));
    return;
  }
  if (drag == Drag::kPan && !moved_ && event->button() == Qt::LeftButton) {
    const int lane = laneAt(event->pos().y());
    if (lane >= 0 && data_->rows.lanes[static_cast<size_t>(lane)].kind == LaneKind::kRankHeader) {
      const int group =
          data_->rows.rows[static_cast<size_t>(data_->rows.lanes[static_cast<size_t>(lane)].row)]
              .group;
      setCollapsed(group, !collapsed_[static_cast<size_t>(group)]);
      return;
    }
    const TimelineItem* d = itemAt(event->pos());
    if (d && data_->rows.lanes[static_cast<size_t>(d->lane)].kind != LaneKind::kCounter) {
      select(refOf(*d), true);
    }
  }
  update();
}

void TimelineWidget::setRowArrangement(const RowArrangement& arrangement) {
  arrangement_ = arrangement;
  layoutRows();
  viewChanged();
}

std::optional<int> TimelineWidget::rowAt(int y) const {
  if (!data_ || y < rowsTop() || y >= rowsBottom()) return std::nullopt;
  const int content_y = contentY(y);
  const TimelineRows& rows = data_->rows;
  for (size_t r = 0; r < rows.rows.size(); ++r) {
    const int top = layout_.row_y[r];
    if (top < 0 || content_y < top) continue;
    int bottom = top + kLanePx;
    if (!layout_.row_collapsed[r]) {
      const int last = rows.rows[r].first_lane + rows.rows[r].lane_count - 1;
      bottom = layout_.lane_y[static_cast<size_t>(last)] +
               TimelinePainter::laneHeight(rows.lanes[static_cast<size_t>(last)]);
    }
    if (content_y < bottom) return static_cast<int>(r);
  }
  return std::nullopt;
}

QMenu* TimelineWidget::rowMenu(int row) {
  auto* menu = new QMenu(this);
  // Each action edits the arrangement, then the rows are laid out again.
  auto add = [this, menu](const QString& text, auto edit) {
    return menu->addAction(text, this, [this, edit] {
      edit(arrangement_);
      layoutRows();
      viewChanged();
    });
  };
  if (row >= 0) {  // a row's header, not the space below the rows
    const bool collapsed = arrangement_.collapsed(row);
    const bool pinned = arrangement_.pinned(row);
    add(collapsed ? tr("Expand") : tr("Collapse"),
        [row, collapsed](RowArrangement& r) { r.setCollapsed(row, !collapsed); });
    add(tr("Hide"), [row](RowArrangement& r) { r.setHidden(row, true); });
    add(pinned ? tr("Unpin") : tr("Pin to the Top"),
        [row, pinned](RowArrangement& r) { r.setPinned(row, !pinned); });
    menu->addSeparator();
  }
  add(tr("Show All Rows"), [](RowArrangement& r) {
    r.showAll();
  })->setEnabled(arrangement_.anyHidden());
  return menu;
}

void TimelineWidget::contextMenuEvent(QContextMenuEvent* event) {
  if (event->pos().x() >= kGutterPx || !data_) {
    event->ignore();
    return;
  }
  drag_ = Drag::kNone;  // the right press that opened the menu zooms nothing
  QMenu* menu = rowMenu(rowAt(event->pos().y()).value_or(-1));
  menu->setAttribute(Qt::WA_DeleteOnClose);
  menu->popup(event->globalPos());
}

void TimelineWidget::leaveEvent(QEvent* event) {
  pointer_.reset();
  QWidget::leaveEvent(event);
}

double TimelineWidget::zoomAnchor() const {
  if (pointer_ && pointer_->x() >= kGutterPx && pointer_->x() < kGutterPx + plotWidth())
    return pointer_->x() - kGutterPx;
  return plotWidth() / 2.0;
}

void TimelineWidget::keyPressEvent(QKeyEvent* event) {
  const std::optional<TimelineAction> action =
      timelineActionOf(event->key(), event->modifiers(), event->nativeScanCode(), scan_codes_);
  const bool nothing_to_clear = !window_ && !selected_ && highlighted_.empty();
  if (!action || (*action == TimelineAction::kClear && nothing_to_clear)) {
    QWidget::keyPressEvent(event);  // Esc with nothing to clear: the window's
    return;
  }
  act(*action);
}

void TimelineWidget::act(TimelineAction action) {
  switch (action) {
    case TimelineAction::kZoomIn:
    case TimelineAction::kZoomOut:
      leaveView(true);
      scale_.zoom(action == TimelineAction::kZoomIn ? kKeyZoom : 1 / kKeyZoom, zoomAnchor());
      break;
    case TimelineAction::kPanLeft:
    case TimelineAction::kPanRight:
      leaveView(true);
      scale_.pan((action == TimelineAction::kPanLeft ? -1 : 1) * kKeyPanFraction * plotWidth());
      break;
    case TimelineAction::kScrollUp:
    case TimelineAction::kScrollDown:
      vbar_->setValue(vbar_->value() +
                      (action == TimelineAction::kScrollUp ? -1 : 1) * kKeyScrollLanes * kLanePx);
      return;
    case TimelineAction::kFit:
      fit();
      return;
    case TimelineAction::kBack:
      goBack();
      return;
    case TimelineAction::kForward:
      goForward();
      return;
    case TimelineAction::kFrameTimes:
      setFrameTimesShown(!frame_times_shown_);
      return;
    case TimelineAction::kClear:
      clearSelection();
      if (window_) {
        window_.reset();
        emit windowCleared();
      }
      return;
  }
  viewChanged();
}

QString TimelineWidget::counterTip(const QPoint& pos) const {
  if (!data_ || pos.x() < kGutterPx) return {};
  const int l = laneAt(pos.y());
  if (l < 0) return {};
  const TimelineRows& rows = data_->rows;
  const Lane& lane = rows.lanes[static_cast<size_t>(l)];
  if (lane.kind != LaneKind::kCounter) return {};
  const int64_t ts = scale_.ts(pos.x() - kGutterPx);
  const std::optional<double> value = counterValueAt(lane, ts);
  if (!value) return {};
  return tr("%1\n%2 at %3 (max %4)")
      .arg(qtNameTooltip(rows.rows[static_cast<size_t>(lane.row)].label),
           qtString(counterValueText(*value)), durationText(ts - rows.start),
           qtString(counterValueText(lane.max_value)));
}

QString TimelineWidget::lostTip(const QPoint& pos) const {
  if (!data_ || pos.x() < kGutterPx) return {};
  const int x = pos.x() - kGutterPx;
  const int64_t ts = scale_.ts(x);
  // Half the narrowest band drawn (TimelinePainter::kMinLostBandPx).
  const int64_t slack = scale_.ts(x + TimelinePainter::kMinLostBandPx) - ts;
  const LostBand* band = lostBandAt(data_->rows, ts, slack / 2);
  if (!band) return {};
  return lostBandTooltip(*band, data_->rows.start, !data_->rows.groups.empty());
}

bool TimelineWidget::event(QEvent* event) {
  if (event->type() != QEvent::ToolTip) return QWidget::event(event);
  auto* help = static_cast<QHelpEvent*>(event);
  if (const CollectiveSkew* skew = data_ ? collectiveAt(help->pos()) : nullptr) {
    QToolTip::showText(help->globalPos(), qtString(skewTooltip(*skew, *run_)), this);
    return true;
  }
  if (const QString counter = counterTip(help->pos()); !counter.isEmpty()) {
    QToolTip::showText(help->globalPos(), counter, this);
    return true;
  }
  const TimelineItem* d = data_ ? itemAt(help->pos()) : nullptr;
  if (!d || data_->rows.lanes[static_cast<size_t>(d->lane)].kind == LaneKind::kCounter) {
    if (const QString lost = lostTip(help->pos()); !lost.isEmpty()) {
      QToolTip::showText(help->globalPos(), lost, this);
      return true;
    }
    QToolTip::hideText();
    event->ignore();
    return true;
  }
  const TimelineRows& rows = data_->rows;
  const QString row = qtNameTooltip(
      rows.rows[static_cast<size_t>(rows.lanes[static_cast<size_t>(d->lane)].row)].label);
  const QString name = qtNameTooltip(nameOf(refOf(*d), *run_));
  QString text;
  if (d->item.summary()) {
    text = tr("%1 events, busy %2 of %3\nlongest: %4 (%5)\n%6")
               .arg(d->item.count)
               .arg(durationText(d->item.busy_ns), durationText(d->item.end - d->item.start), name,
                    durationText(d->item.longest_ns), row);
  } else {
    text = tr("%1\n%2\n%3").arg(name, durationText(d->item.end - d->item.start), row);
  }
  QToolTip::showText(help->globalPos(), text, this);
  return true;
}

}  // namespace damscope
