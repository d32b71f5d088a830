// The four charts in one view: see charts_view.h.
#include "gui/charts/charts_view.h"

#include <QGridLayout>

#include "gui/charts/roofline_chart.h"
#include "gui/charts/step_breakdown_chart.h"
#include "gui/charts/step_time_chart.h"
#include "gui/charts/top_kernels_chart.h"

namespace damscope {

ChartsView::ChartsView(QWidget* parent) : QWidget(parent) {
  roofline_ = new RooflineChart(this);
  breakdown_ = new StepBreakdownChart(this);
  step_time_ = new StepTimeChart(this);
  top_kernels_ = new TopKernelsChart(this);
  // Step charts on the left, kernel charts on the right: the roofline beside
  // the kernels it places.
  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(4, 4, 4, 4);
  grid->setSpacing(6);
  grid->addWidget(breakdown_, 0, 0);
  grid->addWidget(roofline_, 0, 1);
  grid->addWidget(step_time_, 1, 0);
  grid->addWidget(top_kernels_, 1, 1);
  connect(roofline_, &RooflineChart::eventsRequested, this, &ChartsView::eventsRequested);
  connect(breakdown_, &StepBreakdownChart::eventsRequested, this, &ChartsView::eventsRequested);
  connect(step_time_, &StepTimeChart::eventsRequested, this, &ChartsView::eventsRequested);
  connect(top_kernels_, &TopKernelsChart::eventsRequested, this, &ChartsView::eventsRequested);
}

void ChartsView::setRun(std::shared_ptr<const AnalysedRun> run, int rank) {
  roofline_->setRun(run, rank);
  breakdown_->setRun(run, rank);
  step_time_->setRun(run, rank);
  top_kernels_->setRun(std::move(run), rank);
}

void ChartsView::setRooflineOnly(bool only) {
  roofline_only_ = only;
  breakdown_->setVisible(!only);
  step_time_->setVisible(!only);
  top_kernels_->setVisible(!only);
}

}  // namespace damscope
