// The step and kernel charts in one view: see charts_view.h.
#include "gui/charts/charts_view.h"

#include <initializer_list>

#include <QGridLayout>
#include <QResizeEvent>
#include <QScrollBar>

#include "gui/charts/step_breakdown_chart.h"
#include "gui/charts/step_time_chart.h"
#include "gui/charts/top_kernels_chart.h"

namespace damscope {
namespace {

constexpr int kMargin = 4;
constexpr int kSpacing = 6;

}  // namespace

ChartsView::ChartsView(QWidget* parent) : QScrollArea(parent) {
  setFrameShape(QFrame::NoFrame);
  setWidgetResizable(true);
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  auto* inner = new QWidget(this);
  breakdown_ = new StepBreakdownChart(inner);
  step_time_ = new StepTimeChart(inner);
  top_kernels_ = new TopKernelsChart(inner);
  for (ChartFrame* chart :
       std::initializer_list<ChartFrame*>{breakdown_, step_time_, top_kernels_}) {
    chart->setMinimumSize(kChartMinimum);
  }
  grid_ = new QGridLayout(inner);
  grid_->setContentsMargins(kMargin, kMargin, kMargin, kMargin);
  grid_->setSpacing(kSpacing);
  setWidget(inner);
  arrange(2);
  connect(breakdown_, &StepBreakdownChart::eventsRequested, this, &ChartsView::eventsRequested);
  connect(step_time_, &StepTimeChart::eventsRequested, this, &ChartsView::eventsRequested);
  connect(top_kernels_, &TopKernelsChart::eventsRequested, this, &ChartsView::eventsRequested);
}

void ChartsView::setRun(std::shared_ptr<const AnalysedRun> run, int rank) {
  breakdown_->setRun(run, rank);
  step_time_->setRun(run, rank);
  top_kernels_->setRun(std::move(run), rank);
}

void ChartsView::resizeEvent(QResizeEvent* event) {
  // The width a vertical scroll bar may take counts as taken: a view that
  // fits two columns only without it would flip between one and two.
  const int width = event->size().width() - verticalScrollBar()->sizeHint().width();
  arrange(width >= 2 * kChartMinimum.width() + kSpacing + 2 * kMargin ? 2 : 1);
  QScrollArea::resizeEvent(event);
}

void ChartsView::arrange(int columns) {
  if (columns == columns_) return;
  columns_ = columns;
  for (QWidget* chart : std::initializer_list<QWidget*>{breakdown_, step_time_, top_kernels_}) {
    grid_->removeWidget(chart);
  }
  for (int row = 0; row < 3; ++row) grid_->setRowStretch(row, 0);
  grid_->setColumnStretch(0, 1);
  grid_->setColumnStretch(1, columns == 2 ? 1 : 0);
  if (columns == 2) {
    grid_->addWidget(breakdown_, 0, 0);
    grid_->addWidget(step_time_, 0, 1);
    grid_->addWidget(top_kernels_, 1, 0, 1, 2);
    grid_->setRowStretch(0, 1);
    grid_->setRowStretch(1, 1);
  } else {
    grid_->addWidget(breakdown_, 0, 0);
    grid_->addWidget(step_time_, 1, 0);
    grid_->addWidget(top_kernels_, 2, 0);
    for (int row = 0; row < 3; ++row) grid_->setRowStretch(row, 1);
  }
}

}  // namespace damscope
