// The roofline of one rank (Williams et al., CACM 2009; roofline.h): achieved
// FLOP/s against arithmetic intensity on log-log axes, the memory roof ("HBM",
// "DRAM" on a CPU run), one flat roof per precision the kernels use with its
// ridge point, and each kernel name as a disc whose area is its time and whose
// colour is its class (the report's palette). Hovering a disc shows the
// kernel's figures; clicking it asks for every run of that kernel.
//
// Everything plotted comes from RankResult::roofline, prepared by
// rooflinePlot (roofline_points.h). With no kernel to place the chart says
// why instead of drawing empty axes.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include <QPoint>

#include "gui/charts/chart_frame.h"
#include "gui/charts/roofline_points.h"
#include "gui/models/event_ref.h"

class QScatterSeries;
class QGraphicsSimpleTextItem;

namespace damscope {

class RooflineChart : public ChartFrame {
  Q_OBJECT
 public:
  explicit RooflineChart(QWidget* parent = nullptr);

  // A null run, or a rank it does not have, clears the chart.
  void setRun(std::shared_ptr<const AnalysedRun> run, int rank);

  const RooflinePlot& plot() const { return plot_; }
  // Where marker `i` of plot().markers is drawn, in the view's viewport
  // coordinates; empty while the chart is not shown.
  std::optional<QPointF> markerPosition(size_t i) const;
  // The marker under a viewport position, as a click would find it.
  std::optional<size_t> markerAt(QPointF viewport_pos) const;

 signals:
  void eventsRequested(const damscope::EventRefs& events);

 protected:
  bool onPress(QPointF pos) override;
  void onHover(QPointF pos, QPoint global_pos) override;

 private:
  void build();
  void placeLabels();
  QString tooltipOf(const RooflineMarker& marker) const;

  std::shared_ptr<const AnalysedRun> run_;
  int rank_ = 0;
  RooflinePlot plot_;
  RateUnit unit_;
  QScatterSeries* anchor_ = nullptr;  // a series on the log axes, for mapping
  // Roof and ridge labels, placed by the roofs whenever the plot area moves.
  struct Label {
    QGraphicsSimpleTextItem* item;
    QPointF at;  // chart value (FLOP/byte, unit_) the label hangs from
    Qt::Alignment align;
  };
  std::vector<Label> labels_;
  std::optional<size_t> bandwidth_label_;  // the label drawn along the memory roof
  QPointF bandwidth_to_;                   // the roof's upper end, in chart values
};

}  // namespace damscope
