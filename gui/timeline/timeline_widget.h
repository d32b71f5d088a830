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
//     the runtime call that launched it (launchOf, same correlation_id);
//     the selection wears a dark and a light ring, visible on any colour;
//   - a double click or a middle click on a fold zooms into its span;
//   - F12 shows or hides the frame times over the plot: how long the last
//     repaint of the view took and what the painter drew (as Tracy and Orbit
//     show theirs).
// Find by name is a TimelineSearch (gui/models/timeline_search.h).
//
// All ranks of a job (setRun with kAllRanks) show stacked (stacked_rows.h):
// a click on a rank's header collapses or opens its group, the skew lane's
// tooltip names a collective, its first and last rank and the skew, and an
// event of any rank selects as on its own timeline.
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

// The last repaint of the view: how long it took and what it drew.
struct FrameTimes {
  double paint_ms = 0;
  PaintStats stats;
};
// "paint 3.20 ms · 812 items drawn · 40 folded"
QString frameTimesText(const FrameTimes& times);

class TimelineWidget : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kGutterPx = TimelinePainter::kGutterPx;
  static constexpr int kRulerPx = TimelinePainter::kRulerPx;
  static constexpr int kStepBandPx = TimelinePainter::kStepBandPx;
  static constexpr int kLanePx = TimelinePainter::kLanePx;
  static constexpr int kLegendPx = TimelinePainter::kLegendPx;

  // setRun's rank for every rank of the run stacked in one view.
  static constexpr int kAllRanks = -1;

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
  // The tooltip over a counter lane at `pos`: its name, its value there and
  // its scale; empty elsewhere.
  QString counterTip(const QPoint& pos) const;
  // The tooltip of the lost band under `pos` (TimelineRows::lost), or "".
  QString lostTip(const QPoint& pos) const;
  bool frameTimesShown() const { return frame_times_shown_; }
  const FrameTimes& frameTimes() const { return frame_times_; }
  // The lane drawn at widget y, or -1.
  int laneAt(int y) const;
  // The rows' content y drawn at widget y (the pinned rows do not scroll).
  int contentY(int y) const;
  // Whether the rows of group `group` (TimelineRows::groups) are folded under
  // its header; setCollapsed folds or opens them as a click on the header does.
  bool isCollapsed(int group) const {
    return group >= 0 && static_cast<size_t>(group) < collapsed_.size() &&
           collapsed_[static_cast<size_t>(group)];
  }
  void setCollapsed(int group, bool collapsed);
  // The skew lane's collective at `pos` (the widest skew where bars touch), or null.
  const CollectiveSkew* collectiveAt(const QPoint& pos) const;
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
  // `rank` an index into run->tables, or kAllRanks.
  void setRun(std::shared_ptr<const damscope::AnalysedRun> run, int rank);
  // Shows `data`, built by buildTimelineData(*run, rank), or
  // buildJobTimelineData(*run) for kAllRanks.
  void setData(std::shared_ptr<const damscope::AnalysedRun> run, int rank,
               std::shared_ptr<const damscope::TimelineData> data);
  // Highlights every event and zooms to the first one's span with a margin.
  void showEvents(const damscope::EventRefs& events);
  void zoomToSpan(int64_t ts, int64_t end);
  void fit();
  // Shows or hides the frame-time overlay (F12).
  void setFrameTimesShown(bool shown);
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
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void leaveEvent(QEvent* event) override;
  void contextMenuEvent(QContextMenuEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  bool event(QEvent* event) override;

 private:
  int plotWidth() const;
  int rowsTop() const { return TimelinePainter::rowsTop(); }
  int rowsBottom() const { return height() - painter_.legendHeight(run_.get(), rank_, width()); }
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
  void paintFrameTimes(QPainter& p);
  void zoomIntoFoldAt(const QPoint& pos);
  void select(const EventRef& ref, bool emit_signal);
  void centreOn(const EventRef& ref);
  void ensureVisible(int lane);
  bool find(const QString& text, bool forward);
  const TimelineItem* itemAt(const QPoint& pos) const;
  EventRef refOf(const TimelineItem& item) const;
  // `ref`'s span on the view's clock (its rank's offset added).
  std::optional<EventSpan> viewSpan(const EventRef& ref) const;
  TimeWindow draggedWindow(const QPoint& to) const;

  std::shared_ptr<const AnalysedRun> run_;
  int rank_ = 0;
  std::shared_ptr<const TimelineData> data_;
  TimeScale scale_;
  QScrollBar* vbar_ = nullptr;
  LaneLayout layout_;
  std::vector<bool> collapsed_;  // by TimelineRows::groups

  TimelinePainter painter_;
  bool dirty_ = true;
  QImage base_;
  std::vector<TimelineItem> items_;
  FrameTimes frame_times_;
  bool frame_times_shown_ = false;

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
