// What every chart of the GUI shares: a QChartView, a centred text in its
// place when there is nothing to plot (a chart must say why it is empty,
// never show bare axes), a legend under it that wraps (chart_legend.h; Qt's
// own is hidden), and a caption for what the plot leaves out.
// Mouse presses and moves on the view's viewport go to onPress and onHover,
// and so does the tool-tip event of a mouse at rest (so a point's tool tip
// stays while the mouse rests on it, rather than being hidden by the scene),
// so each chart finds what is under the pointer itself rather than through
// Qt Charts' per-item signals (QScatterSeries::clicked can crash in Qt 6.4,
// fixed in 6.5.3).
#pragma once

#include <cstdint>
#include <vector>

#include <QPointF>
#include <QString>
#include <QWidget>

#include "gui/charts/chart_legend.h"

class QAbstractSeries;
class QChart;
class QChartView;
class QLabel;
class QStackedWidget;

namespace damscope {

// "1 kernel", "3 kernels": a count with its noun, for captions and tooltips.
QString counted(int64_t n, const char* noun);

class ChartFrame : public QWidget {
  Q_OBJECT
 public:
  explicit ChartFrame(QWidget* parent = nullptr);

  QChartView* chartView() const { return view_; }
  // The view's viewport: where mouse events land (and tests click).
  QWidget* viewport() const;
  QChart* chart() const;
  // The text shown instead of the chart; empty while the chart is shown.
  QString emptyText() const;
  QString caption() const;
  const ChartLegend* legend() const { return legend_; }

  // Whether the chart (rather than the empty text) is on show.
  bool showsChart() const;

 protected:
  // Puts a fresh chart in the view (the old one is deleted) and shows it.
  QChart* resetChart();
  void showEmpty(const QString& why);
  void setCaption(const QString& text);
  void setLegend(std::vector<LegendEntry> entries);

  // `pos` in the viewport's coordinates; return true when the event was used.
  virtual bool onPress(QPointF pos) = 0;
  virtual void onHover(QPointF pos, QPoint global_pos) = 0;

  // A chart value -> viewport position, and back, through `series`' axes.
  QPointF toViewport(QPointF value, const QAbstractSeries* series) const;
  QPointF toValue(QPointF viewport_pos, const QAbstractSeries* series) const;
  bool inPlotArea(QPointF viewport_pos) const;

  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  QStackedWidget* stack_ = nullptr;
  QChartView* view_ = nullptr;
  QLabel* empty_ = nullptr;
  ChartLegend* legend_ = nullptr;
  QLabel* caption_ = nullptr;
};

}  // namespace damscope
