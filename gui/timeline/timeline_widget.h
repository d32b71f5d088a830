// The timeline widget: paints one rank's rows (timeline_rows.h) through their
// level-of-detail aggregates (level_of_detail.h) and turns mouse and keys into
// TimeScale changes. It only draws; what it draws lives in TimelineData,
// which buildTimelineData makes as a pure function of the run (so the app may
// build it off the UI thread and hand it over with setData).
//
// Layout, top to bottom: a time ruler, the step band, then the rows (labels
// in a left gutter, a vertical scroll bar on the right), and a legend of the
// bubbles' causes along the bottom.
//
// Two redraw levels: zoom, pan, scrolling, resizing and new data rebuild the
// cached geometry (the visible items, found by binary search in the LOD) and
// render it once into an image; hover, selection, highlights and the range
// being dragged repaint only an overlay over that image.
//
// Interaction: wheel zooms at the cursor (Shift+wheel scrolls the rows), W/S
// zoom at the centre, drag pans, A/D pan, Shift+drag or right-drag selects a
// range and zooms to it, F fits the whole trace; a click selects an event
// (emits eventSelected; a summary item selects its longest event) and, for a
// kernel, memcpy or memset, draws an arrow from the runtime call that
// launched it (same correlation_id, same rank).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include <QImage>
#include <QString>
#include <QWidget>

#include "gui/models/event_ref.h"
#include "gui/timeline/level_of_detail.h"
#include "gui/timeline/time_scale.h"
#include "gui/timeline/timeline_rows.h"

class QScrollBar;

namespace damscope {

// A rank's rows and their aggregates; lod refers to rows, so the pair is
// built in place and shared, never copied.
struct TimelineData {
  TimelineRows rows;
  LevelOfDetail lod;
};
std::shared_ptr<const TimelineData> buildTimelineData(const AnalysedRun& run, int rank);

class TimelineWidget : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kGutterPx = 200;
  static constexpr int kRulerPx = 22;
  static constexpr int kStepBandPx = 16;
  static constexpr int kLanePx = 18;
  static constexpr int kRowGapPx = 5;
  static constexpr int kLegendPx = 20;
  // Labels only in boxes wide enough for a few characters.
  static constexpr int kMinLabelPx = 28;

  explicit TimelineWidget(QWidget* parent = nullptr);
  ~TimelineWidget() override;

  const TimeScale& scale() const { return scale_; }
  const TimelineData* data() const { return data_.get(); }
  std::optional<EventRef> selected() const { return selected_; }
  const EventRefs& highlighted() const { return highlighted_; }
  // Where `ref` is drawn, in widget coordinates, clipped to the plot; empty
  // when it is not on a lane, scrolled away or out of the view.
  QRectF eventRect(const EventRef& ref) const;
  // The event drawn at `pos` (a summary item answers with its longest event).
  std::optional<EventRef> eventAt(const QPoint& pos) const;

 public slots:
  void setRun(std::shared_ptr<const damscope::AnalysedRun> run, int rank);
  // Shows `data`, built by buildTimelineData(*run, rank).
  void setData(std::shared_ptr<const damscope::AnalysedRun> run, int rank,
               std::shared_ptr<const damscope::TimelineData> data);
  // Highlights every event and zooms to the first one's span with a margin.
  void showEvents(const damscope::EventRefs& events);
  void zoomToSpan(int64_t ts, int64_t end);
  void fit();
  // Case-insensitive substring search over kernel, range and API call names,
  // in time order from the selection, wrapping; selects and centres the
  // match. False when nothing matches.
  bool findNext(const QString& text);
  bool findPrevious(const QString& text);

 signals:
  void eventSelected(const damscope::EventRef& event);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  bool event(QEvent* event) override;

 private:
  struct DrawItem {
    QRectF rect;
    int lane = 0;
    LodItem item;
  };

  int plotWidth() const;
  int rowsTop() const { return kRulerPx + kStepBandPx; }
  int rowsBottom() const { return height() - kLegendPx; }
  double laneTop(int lane) const;  // widget y, after scrolling
  void layoutRows();
  void viewChanged();  // zoom, pan, scroll, size or data: rebuild the geometry
  void rebuild();
  void renderBase(QPainter& p);
  void paintRuler(QPainter& p);
  void paintSteps(QPainter& p);
  void paintLane(QPainter& p, int lane, double top);
  void paintCounter(QPainter& p, int lane, double top);
  void paintLegend(QPainter& p);
  void paintOverlay(QPainter& p);
  void select(const EventRef& ref, bool emit_signal);
  void centreOn(const EventRef& ref);
  void ensureVisible(int lane);
  bool find(const QString& text, bool forward);
  const DrawItem* itemAt(const QPoint& pos) const;
  QColor colorOf(EventKind kind, int64_t id) const;
  QString nameOf(EventKind kind, int64_t id) const;
  const QString& elided(EventKind kind, int64_t id, int width);
  std::optional<EventRef> launchOf(const EventRef& ref) const;

  std::shared_ptr<const AnalysedRun> run_;
  int rank_ = 0;
  std::shared_ptr<const TimelineData> data_;
  TimeScale scale_;
  QScrollBar* vbar_ = nullptr;
  std::vector<int> lane_y_;  // content y of each lane's top (before scrolling)
  int content_height_ = 0;

  bool dirty_ = true;
  QImage base_;
  std::vector<DrawItem> items_;
  std::vector<LodItem> query_;  // reused query buffer
  std::unordered_map<uint64_t, QString> elide_cache_;

  std::optional<EventRef> selected_;
  std::optional<EventRef> launch_;  // the API call that launched selected_
  EventRefs highlighted_;
  const DrawItem* hover_ = nullptr;

  enum class Drag { kNone, kPan, kRange };
  Drag drag_ = Drag::kNone;
  QPoint press_pos_;
  QPoint last_pos_;
  bool moved_ = false;

  QString search_text_;
  std::vector<std::pair<int64_t, EventRef>> matches_;  // (ts, event), time order
};

}  // namespace damscope
