// The step and kernel charts of one rank together: the per-step breakdown,
// step time with MFU, and the top kernels. setRun goes to all three and their
// eventsRequested comes out as this view's. The roofline has a tab of its own
// (a fourth chart here would only repeat it smaller).
//
// The charts never shrink below a readable size (kChartMinimum): the two step
// charts sit side by side above the top kernels while the view is wide enough
// for two, one above the other otherwise, and the view scrolls when they do
// not fit its height. Squeezed into a quarter of a 1280 x 800 window, axis
// labels and names were cut to "…".
#pragma once

#include <memory>

#include <QScrollArea>

#include "gui/models/event_ref.h"

class QGridLayout;

namespace damscope {

class ChartFrame;
class StepBreakdownChart;
class StepTimeChart;
class TopKernelsChart;

class ChartsView : public QScrollArea {
  Q_OBJECT
 public:
  // The smallest a chart is drawn (with its legend and caption), px.
  static constexpr QSize kChartMinimum{460, 360};

  explicit ChartsView(QWidget* parent = nullptr);

  // A null run clears every chart.
  void setRun(std::shared_ptr<const AnalysedRun> run, int rank);

  StepBreakdownChart* stepBreakdown() const { return breakdown_; }
  StepTimeChart* stepTime() const { return step_time_; }
  TopKernelsChart* topKernels() const { return top_kernels_; }
  // How many charts share a row now: 2 or 1.
  int columns() const { return columns_; }

 signals:
  void eventsRequested(const damscope::EventRefs& events);

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void arrange(int columns);

  QGridLayout* grid_ = nullptr;
  StepBreakdownChart* breakdown_ = nullptr;
  StepTimeChart* step_time_ = nullptr;
  TopKernelsChart* top_kernels_ = nullptr;
  int columns_ = 0;
};

}  // namespace damscope
