// The kernels with the most GPU time (RankResult::kernels.top): horizontal
// bars in ms, largest at the top, coloured by kernel class as in the report,
// names shortened for the axis (kernelLabel) with the full name on hover.
// How many bars and how long a name fit follow the widget's size, so a small
// chart shows fewer, shorter rows rather than labels Qt drops or cuts to "...".
// Clicking a bar asks for every run of that kernel.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "gui/charts/chart_frame.h"
#include "gui/charts/chart_series.h"
#include "gui/models/event_ref.h"

class QHorizontalStackedBarSeries;

namespace damscope {

class TopKernelsChart : public ChartFrame {
  Q_OBJECT
 public:
  explicit TopKernelsChart(QWidget* parent = nullptr);

  // A null run, or a rank it does not have, clears the chart.
  void setRun(std::shared_ptr<const AnalysedRun> run, int rank);

  const std::vector<KernelBar>& bars() const { return bars_; }
  // One set per kernel class present; a bar has its value in its class's set.
  QHorizontalStackedBarSeries* barSeries() const { return series_; }
  std::optional<QPointF> barCentre(size_t bar) const;  // bars()[bar], viewport coordinates
  std::optional<size_t> barAt(QPointF viewport_pos) const;

 signals:
  void eventsRequested(const damscope::EventRefs& events);

 protected:
  bool onPress(QPointF pos) override;
  void onHover(QPointF pos, QPoint global_pos) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  struct Fit {
    size_t rows = 15;
    size_t label_chars = 44;
    bool operator==(const Fit&) const = default;
  };
  Fit fitFor(QSize size) const;
  void build();

  // Bar i (largest first) sits at category row rows - 1 - i, so the largest is on top.
  double rowOf(size_t bar) const { return static_cast<double>(bars_.size() - 1 - bar); }

  std::shared_ptr<const AnalysedRun> run_;
  int rank_ = 0;
  Fit fit_;
  std::vector<KernelBar> bars_;
  QHorizontalStackedBarSeries* series_ = nullptr;
};

}  // namespace damscope
