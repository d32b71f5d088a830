// Where each step's time went: one stacked bar per step, split by the
// scorecard's axes (data stall, host stall, ..., compute-bound; scorecard.h)
// in ms, coloured as in the report and the diagnosis panel. Clicking a step's
// bar asks for its step range on the timeline.
#pragma once

#include <memory>
#include <optional>

#include "gui/charts/chart_frame.h"
#include "gui/charts/chart_series.h"
#include "gui/models/event_ref.h"

class QStackedBarSeries;

namespace damscope {

class StepBreakdownChart : public ChartFrame {
  Q_OBJECT
 public:
  explicit StepBreakdownChart(QWidget* parent = nullptr);

  // A null run, or a rank it does not have, clears the chart.
  void setRun(std::shared_ptr<const AnalysedRun> run, int rank);

  const StepBreakdownBars& bars() const { return bars_; }
  // The stacked series: one set per Axis, in Axis order; null when empty.
  QStackedBarSeries* barSeries() const { return series_; }
  // The middle of step i's bar in viewport coordinates.
  std::optional<QPointF> barCentre(size_t step) const;
  // The step whose bar is under a viewport position.
  std::optional<size_t> stepAt(QPointF viewport_pos) const;

 signals:
  void eventsRequested(const damscope::EventRefs& events);

 protected:
  bool onPress(QPointF pos) override;
  void onHover(QPointF pos, QPoint global_pos) override;

 private:
  double total(size_t step) const;

  std::shared_ptr<const AnalysedRun> run_;
  int rank_ = 0;
  StepBreakdownBars bars_;
  QStackedBarSeries* series_ = nullptr;
};

}  // namespace damscope
