// Paints a view of one rank's timeline onto any QPainter: the widget's cached
// image, a QImage in a test that checks pixels, the benchmark. It keeps no
// view of its own: what to paint comes in a TimelineFrame (the rows and their
// level-of-detail aggregates, the time scale, where each lane lies and how
// far the rows are scrolled), so the widget keeps only interaction.
//
// Layout, top to bottom: a time ruler (kRulerPx) with the rank ("all ranks"
// stacked) and the tick step in the left gutter, the step band (kStepBandPx),
// in a stacked view the skew lane (a bar per collective, from its first
// rank's start to its last's) and each rank's header across the whole width
// (▾ open, ▸ collapsed) above its rows, the rows (labels in
// the kGutterPx gutter, lanes of kLanePx, counters twice as tall, kRowGapPx
// between rows, every other row shaded), and the legend of the bubbles'
// causes along the bottom, in as many kLegendPx rows as the width needs
// (legendHeight), so no entry is cut short. The plot is frame.scale.width() wide,
// right of the gutter.
//
// Lanes draw what LevelOfDetail::query returns, already folded per pixel
// column: an event as a box in its colour (palette.h) with its name where the
// box is kMinLabelPx wide, a fold of several events hatched, at the opacity
// of its busy fraction (palette.h: foldColor). Step labels never overlap
// (step_labels.h). Where records were lost (TimelineRows::lost), a
// crosshatch covers the rows (in a stacked view, its rank's rows) and a bar
// marks the ruler's foot, at least kMinLostBandPx wide. Counters draw
// as area plots with one point per pixel column (the column's largest
// value), their largest value written at the top as the scale. The painter answers where it drew
// each lane item, so the widget can hit-test hover, clicks and tooltips against exactly what is
// shown.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include <QFont>
#include <QPalette>
#include <QRectF>
#include <QSize>
#include <QString>

#include "gui/models/event_ref.h"
#include "gui/timeline/level_of_detail.h"
#include "gui/timeline/range_summary.h"
#include "gui/timeline/row_arrangement.h"
#include "gui/timeline/time_scale.h"
#include "gui/timeline/timeline_rows.h"

class QPainter;
class QFontMetrics;

namespace damscope {

// A rank's rows and their aggregates; lod refers to rows, so the pair is
// built in place and shared, never copied.
struct TimelineData {
  TimelineRows rows;
  LevelOfDetail lod;
  // The whole trace's summary: each row header shows its busy share of the
  // whole trace (not of the view, so it does not change while zooming).
  RangeSummary whole;
};
// Pure: safe to call off the UI thread.
// `progress` hears how far the build is.
std::shared_ptr<const TimelineData> buildTimelineData(const AnalysedRun& run, int rank,
                                                      const Progress& progress = {});

// Where each row and lane lies in the rows' content (y from the first row's
// top, before scrolling), and the content's height, with the rows arranged
// as `arrangement` says and the rank groups folded as `collapsed_groups`
// says (collapsed_groups[g]: the rows of rows.groups[g] are folded under its
// header). row_y is -1 for a row not shown (hidden, or in a folded rank
// group); lane_y is -1 and lane_h 0 for the lanes of a row not shown or
// collapsed (a collapsed row keeps one lane's height for its header).
// The pinned rows come first and stay in place while the others scroll
// under them, as Perfetto's pinned tracks do: pinned_height is the content
// height of that block (0 when nothing is pinned).
struct LaneLayout {
  std::vector<int> lane_y;
  std::vector<int> lane_h;
  std::vector<int> row_y;
  std::vector<uint8_t> row_collapsed;
  std::vector<uint8_t> group_collapsed;
  int content_height = 0;
  int pinned_height = 0;
};
LaneLayout layoutLanes(const TimelineRows& rows, const RowArrangement& arrangement = {},
                       const std::vector<bool>& collapsed_groups = {});

// What to paint. run null: "No run open"; data null: "No events on this rank".
struct TimelineFrame {
  const AnalysedRun* run = nullptr;
  int rank = 0;
  const TimelineData* data = nullptr;
  TimeScale scale;                           // the plot's view; its width is the plot's
  QSize size;                                // the area painted, from (0, 0)
  std::span<const int> lane_y;               // LaneLayout::lane_y of data->rows
  std::span<const int> lane_h;               // LaneLayout::lane_h; empty: every lane at laneHeight
  std::span<const int> row_y;                // LaneLayout::row_y; empty: each row at its first lane
  std::span<const uint8_t> row_collapsed;    // LaneLayout::row_collapsed; empty: none
  std::span<const uint8_t> group_collapsed;  // LaneLayout::group_collapsed; empty: none
  int scroll_y = 0;                          // content y shown below the pinned rows
  int pinned_height = 0;                     // LaneLayout::pinned_height: rows that do not scroll
};

// What the last paint() drew, for the frame-time overlay (F12).
struct PaintStats {
  int items = 0;   // lane items drawn, folds included
  int folded = 0;  // of which folds of several events
  bool operator==(const PaintStats&) const = default;
};

// A lane item as drawn: its box in the frame's coordinates.
struct TimelineItem {
  QRectF rect;
  int lane = 0;
  LodItem item;
};

class TimelinePainter {
 public:
  static constexpr int kGutterPx = 200;
  static constexpr int kRulerPx = 22;
  static constexpr int kStepBandPx = 16;
  static constexpr int kLanePx = 18;
  static constexpr int kRowGapPx = 5;
  static constexpr int kLegendPx = 20;
  // A lost band shorter than this is widened to it, so that a loss within
  // one commit interval stays visible when zoomed out (and can be hovered).
  static constexpr int kMinLostBandPx = 3;
  // Labels only in boxes wide enough for a few characters; the level of
  // detail never folds an event this wide.
  static constexpr int kMinLabelPx = LevelOfDetail::kKeepWholePx;
  static constexpr int rowsTop() { return kRulerPx + kStepBandPx; }
  // The legend's height in a view `width` px wide of `rank` of `run`
  // (negative: every rank stacked): a kLegendPx row per line its entries
  // wrap to (the records lost on the way in are one of them).
  int legendHeight(const AnalysedRun* run, int rank, int width) const;
  // Where the rows end and the legend starts.
  int rowsBottom(const TimelineFrame& f) const {
    return f.size.height() - legendHeight(f.run, f.rank, f.size.width());
  }
  static int laneHeight(const Lane& lane) {
    return lane.kind == LaneKind::kCounter ? 2 * kLanePx : kLanePx;
  }
  // `lane`'s height in `frame`: its LaneLayout height, 0 when collapsed.
  static int laneHeight(const TimelineFrame& frame, int lane) {
    const size_t l = static_cast<size_t>(lane);
    return l < frame.lane_h.size() ? frame.lane_h[l] : laneHeight(frame.data->rows.lanes[l]);
  }

  // Colours of the window (backgrounds, text) come from `palette`; labels are
  // measured in `font`, which the QPainter given to paint() must use.
  explicit TimelinePainter(const QPalette& palette = QPalette(), const QFont& font = QFont());

  // Another palette or font; forgets the labels measured in the old one.
  void setStyle(const QPalette& palette, const QFont& font);
  // Forgets the labels kept for the last run (call when the run changes).
  void forgetLabels() { elided_.clear(); }

  // Paints `frame` over QRect(QPoint(0, 0), frame.size), the background
  // included; appends each lane item drawn to `items` when given.
  void paint(QPainter& p, const TimelineFrame& frame, std::vector<TimelineItem>* items = nullptr);

  // Counts of what the last paint() drew.
  const PaintStats& stats() const { return stats_; }

  // Outlines the selected event's box `rect`: a dark ring outside a light
  // one (palette.h), so that the selection shows on any fill.
  static void paintSelection(QPainter& p, const QRectF& rect);
  // Outlines a highlighted event (a finding's evidence, a table row's runs):
  // dark dashes over a light ring. Like the selection it shows on any fill
  // — every hue of the circle is some kernel class's or bubble cause's, so a
  // coloured outline vanishes around an event of its own hue (an orange one
  // around a host-stall bubble did) — and its dashes tell it from the
  // selection's solid rings.
  static void paintEvidence(QPainter& p, const QRectF& rect);

  // The widget y of content y `content_y` in `frame`: the pinned block does
  // not scroll.
  static double yOf(const TimelineFrame& frame, int content_y) {
    return rowsTop() + content_y - (content_y < frame.pinned_height ? 0 : frame.scroll_y);
  }
  // The widget y of `lane`'s top in `frame`.
  static double laneTop(const TimelineFrame& frame, int lane) {
    return yOf(frame, frame.lane_y[static_cast<size_t>(lane)]);
  }

 private:
  void paintRowLabel(QPainter& p, const TimelineRow& row, bool collapsed, double top, double height,
                     int reserved_right, const QFontMetrics& metrics);
  void paintRuler(QPainter& p, const TimelineFrame& f);
  void paintSteps(QPainter& p, const TimelineFrame& f);
  void paintLane(QPainter& p, const TimelineFrame& f, int lane, double top,
                 std::vector<TimelineItem>& items);
  void paintCounter(QPainter& p, const TimelineFrame& f, int lane, double top);
  void paintSkew(QPainter& p, const TimelineFrame& f, int lane, double top);
  void paintRankHeader(QPainter& p, const TimelineFrame& f, const TimelineRow& row, double top);
  void paintLostBands(QPainter& p, const TimelineFrame& f);
  void paintLegend(QPainter& p, const TimelineFrame& f);
  // The legend's entries, left to right: a text and, for a bubble cause,
  // its colour's swatch; and where each goes in a view `width` px wide.
  struct LegendItem {
    QString text;
    std::optional<QColor> swatch;
  };
  static std::vector<LegendItem> legendItems(const AnalysedRun* run, int rank);
  std::vector<QRect> legendLayout(const std::vector<LegendItem>& items, int width) const;
  QColor colorOf(const TimelineFrame& f, int32_t rank, EventKind kind, int64_t id) const;
  const QString& elided(const TimelineFrame& f, int32_t rank, EventKind kind, int64_t id,
                        int width);

  QPalette palette_;
  QFont font_;
  PaintStats stats_;
  std::vector<LodItem> query_;                    // reused query buffer
  std::vector<TimelineItem> own_items_;           // when paint() is given none
  std::unordered_map<uint64_t, QString> elided_;  // (rank, kind, name, width bucket) -> label
};

}  // namespace damscope
