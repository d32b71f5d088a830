// Step time per step (bars, ms) and MFU per step (a line on a second axis, %),
// from RankResult::steps and RankResult::mfu. Steps outside the analysed
// window are drawn faint. When MFU is not computed the chart plots no MFU and
// says why in the report's words, rather than drawing a line of zeros.
// Clicking a step's bar asks for its step range on the timeline.
#pragma once

#include <memory>
#include <optional>

#include "gui/charts/chart_frame.h"
#include "gui/charts/chart_series.h"
#include "gui/models/event_ref.h"

class QLineSeries;
class QStackedBarSeries;

namespace damscope {

class StepTimeChart : public ChartFrame {
  Q_OBJECT
 public:
  explicit StepTimeChart(QWidget* parent = nullptr);

  // A null run, or a rank it does not have, clears the chart.
  void setRun(std::shared_ptr<const AnalysedRun> run, int rank);

  const StepTimes& times() const { return times_; }
  QStackedBarSeries* barSeries() const { return bars_; }
  QLineSeries* mfuSeries() const { return mfu_; }  // null when MFU is not computed
  std::optional<size_t> stepAt(QPointF viewport_pos) const;
  std::optional<QPointF> barCentre(size_t step) const;

 signals:
  void eventsRequested(const damscope::EventRefs& events);

 protected:
  bool onPress(QPointF pos) override;
  void onHover(QPointF pos, QPoint global_pos) override;

 private:
  std::shared_ptr<const AnalysedRun> run_;
  int rank_ = 0;
  StepTimes times_;
  QStackedBarSeries* bars_ = nullptr;
  QLineSeries* mfu_ = nullptr;
};

}  // namespace damscope
