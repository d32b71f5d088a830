// The timeline widget: one rank's rows, painted by a TimelinePainter
// (timeline_painter.h says what is drawn where), and the interaction around
// them: mouse, keys, wheel, tooltips, the selected and highlighted events and
// the selected time window, drawn as an overlay. What it shows lives in
// TimelineData, which buildTimelineData makes as a pure function of the run
// (so the app may build it off the UI thread and hand it over with setData).
//
// Two redraw levels: zoom, pan, scrolling, resizing and new data repaint the
// view once into a cached image (the painter answers where it drew each lane
// item, for hit testing); hover, selection, highlights, the window and a
// range being dragged repaint only an overlay over that image.
//
// Mouse and keys:
//   - wheel, W/S and +/-: zoom at the mouse pointer (the view's centre when
//     the pointer is elsewhere); Shift+wheel and Up/Down scroll the rows;
//     drag, A/D and Left/Right pan; Home or F fits the whole trace; W/A/S/D
//     by position (gui/models/timeline_keys.h: the one table of keys);
//   - Alt+Left / Alt+Right: back and forward in the zoom history
//     (zoom_history.h);
//   - Shift+drag selects a time window and emits windowSelected (the app
//     re-scopes the diagnosis to it, as Perfetto's area selection and Nsight
//     Systems' "analyze range" do);
//   - Esc clears the selection, the highlights and the window (windowCleared);
//   - a right-click on a row header: collapse, hide or pin the row
//     (row_arrangement.h), or show every hidden row again;
//   - right-drag or Ctrl+drag zooms to the range dragged over;
//   - a click selects an event (emits eventSelected; a folded item selects its
//     longest event) and, for a kernel, memcpy or memset, draws an arrow from
//     the runtime call that launched it (launchOf, same correlation_id).
// Find by name is a TimelineSearch (gui/models/timeline_search.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <QImage>
#include <QString>
#include <QWidget>

#include "gui/models/event_ref.h"
#include "gui/models/time_window.h"
#include "gui/models/timeline_keys.h"
#include "gui/models/timeline_search.h"
#include "gui/timeline/timeline_painter.h"
#include "gui/timeline/zoom_history.h"

class QMenu;
class QScrollBar;

namespace damscope {

class TimelineWidget : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kGutterPx = TimelinePainter::kGutterPx;
  static constexpr int kRulerPx = TimelinePainter::kRulerPx;
  static constexpr int kStepBandPx = TimelinePainter::kStepBandPx;
  static constexpr int kLanePx = TimelinePainter::kLanePx;
  static constexpr int kLegendPx = TimelinePainter::kLegendPx;

  explicit TimelineWidget(QWidget* parent = nullptr);
  ~TimelineWidget() override;

  const TimeScale& scale() const { return scale_; }
  const TimelineData* data() const { return data_.get(); }
  std::optional<EventRef> selected() const { return selected_; }
  const EventRefs& highlighted() const { return highlighted_; }
  std::optional<TimeWindow> window() const { return window_; }
  // Where `ref` is drawn, in widget coordinates, clipped to the plot; empty
  // when it is not on a lane, scrolled away or out of the view.
  QRectF eventRect(const EventRef& ref) const;
  // The event drawn at `pos` (a folded item answers with its longest event).
  std::optional<EventRef> eventAt(const QPoint& pos) const;
  // The widget x of `ts` (the plot starts at kGutterPx).
  double xOf(int64_t ts) const { return kGutterPx + scale_.x(ts); }
  // The matches of the last search (findNext, findPrevious).
  const TimelineSearch& search() const { return search_; }
  // Where the selected event stands among the last search's matches
  // (0-based), or none.
  std::optional<size_t> matchIndex() const;
  const ZoomHistory& history() const { return history_; }
  // What scan codes mean in the key events this widget gets; by default those
  // of the platform Qt runs on (tests set another).
  void setScanCodes(ScanCodes codes) { scan_codes_ = codes; }
  // The rows' arrangement (collapsed, hidden, pinned); reset by setData.
  const RowArrangement& rowArrangement() const { return arrangement_; }
  void setRowArrangement(const RowArrangement& arrangement);
  // The row whose header or lanes lie at widget y `y`, or none.
  std::optional<int> rowAt(int y) const;
  // The context menu of `row`'s header (a child of this widget): Collapse or
  // Expand, Hide, Pin or Unpin, Show All Rows; row -1 (below the rows): Show
  // All Rows alone.
  QMenu* rowMenu(int row);

 public slots:
  void setRun(std::shared_ptr<const damscope::AnalysedRun> run, int rank);
  // Shows `data`, built by buildTimelineData(*run, rank).
  void setData(std::shared_ptr<const damscope::AnalysedRun> run, int rank,
               std::shared_ptr<const damscope::TimelineData> data);
  // Highlights every event and zooms to the first one's span with a margin.
  void showEvents(const damscope::EventRefs& events);
  void zoomToSpan(int64_t ts, int64_t end);
  void fit();
  // The zoom history: the view before the last jump, and back again.
  void goBack();
  void goForward();
  // Clears the selected event and the highlights (Esc also clears the window).
  void clearSelection();
  // Selects `window` as a Shift+drag does: shows it and emits windowSelected.
  void selectWindow(const damscope::TimeWindow& window);
  // Shows `window` (or none) without a signal: the app's word on what the
  // diagnosis is scoped to.
  void setWindow(std::optional<damscope::TimeWindow> window);
  // Case-insensitive substring search over kernel, range and API call names,
  // in time order from the selection (or the view's start), wrapping;
  // selects and centres the match. False when nothing matches.
  bool findNext(const QString& text);
  bool findPrevious(const QString& text);

 signals:
  void eventSelected(const damscope::EventRef& event);
  void windowSelected(const damscope::TimeWindow& window);
  void windowCleared();

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void changeEvent(QEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void leaveEvent(QEvent* event) override;
  void contextMenuEvent(QContextMenuEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  bool event(QEvent* event) override;

 private:
  int plotWidth() const;
  int rowsTop() const { return TimelinePainter::rowsTop(); }
  int rowsBottom() const { return TimelinePainter::rowsBottom(size()); }
  TimelineFrame frame() const;
  double laneTop(int lane) const { return TimelinePainter::laneTop(frame(), lane); }
  void layoutRows();
  // Records the view about to change in the zoom history (gradual: a wheel
  // notch, a drag or a key's zoom or pan, merged with the ones before it).
  void leaveView(bool gradual);
  void restoreView(const std::optional<ViewSpan>& view);
  void act(TimelineAction action);
  // Where keys zoom: the pointer's x in the plot, or the plot's centre.
  double zoomAnchor() const;
  void viewChanged();  // zoom, pan, scroll, size or data: repaint the cached view
  void rebuild();
  void paintOverlay(QPainter& p);
  void paintWindow(QPainter& p, const TimeWindow& window, bool dragging);
  void select(const EventRef& ref, bool emit_signal);
  void centreOn(const EventRef& ref);
  void ensureVisible(int lane);
  bool find(const QString& text, bool forward);
  const TimelineItem* itemAt(const QPoint& pos) const;
  TimeWindow draggedWindow(const QPoint& to) const;

  std::shared_ptr<const AnalysedRun> run_;
  int rank_ = 0;
  std::shared_ptr<const TimelineData> data_;
  TimeScale scale_;
  QScrollBar* vbar_ = nullptr;
  LaneLayout layout_;

  TimelinePainter painter_;
  bool dirty_ = true;
  QImage base_;
  std::vector<TimelineItem> items_;

  std::optional<EventRef> selected_;
  std::optional<EventRef> launch_;  // the API call that launched selected_
  EventRefs highlighted_;
  const TimelineItem* hover_ = nullptr;
  std::optional<TimeWindow> window_;

  // kWindow: Shift+drag; kZoom: right-drag or Ctrl+drag.
  enum class Drag { kNone, kPan, kWindow, kZoom };
  Drag drag_ = Drag::kNone;
  QPoint press_pos_;
  QPoint last_pos_;
  bool moved_ = false;

  TimelineSearch search_;
  ZoomHistory history_;
  RowArrangement arrangement_;
  ScanCodes scan_codes_;
  std::optional<QPoint> pointer_;  // the mouse over the widget, for key zooms
};

}  // namespace damscope
