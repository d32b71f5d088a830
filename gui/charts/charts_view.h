// The charts of one rank together: the roofline, the per-step breakdown, step
// time with MFU, and the top kernels, in a 2 x 2 grid. setRun goes to all four
// and their eventsRequested comes out as this view's. The main window's
// "roofline" view shows the roofline alone, full size (setRooflineOnly).
#pragma once

#include <memory>

#include <QWidget>

#include "gui/models/event_ref.h"

namespace damscope {

class RooflineChart;
class StepBreakdownChart;
class StepTimeChart;
class TopKernelsChart;

class ChartsView : public QWidget {
  Q_OBJECT
 public:
  explicit ChartsView(QWidget* parent = nullptr);

  // A null run clears every chart.
  void setRun(std::shared_ptr<const AnalysedRun> run, int rank);

  // Only the roofline, filling the view (true), or all four charts (false).
  void setRooflineOnly(bool only);
  bool rooflineOnly() const { return roofline_only_; }

  RooflineChart* roofline() const { return roofline_; }
  StepBreakdownChart* stepBreakdown() const { return breakdown_; }
  StepTimeChart* stepTime() const { return step_time_; }
  TopKernelsChart* topKernels() const { return top_kernels_; }

 signals:
  void eventsRequested(const damscope::EventRefs& events);

 private:
  RooflineChart* roofline_ = nullptr;
  StepBreakdownChart* breakdown_ = nullptr;
  StepTimeChart* step_time_ = nullptr;
  TopKernelsChart* top_kernels_ = nullptr;
  bool roofline_only_ = false;
};

}  // namespace damscope
