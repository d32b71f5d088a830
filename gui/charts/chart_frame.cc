// A chart with its empty state and caption: see chart_frame.h.
#include "gui/charts/chart_frame.h"

#include <QChart>
#include <QChartView>
#include <QHelpEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace damscope {

QString counted(int64_t n, const char* noun) {
  return QStringLiteral("%1 %2%3").arg(n).arg(QLatin1String(noun)).arg(n == 1 ? "" : "s");
}

ChartFrame::ChartFrame(QWidget* parent) : QWidget(parent) {
  stack_ = new QStackedWidget(this);
  view_ = new QChartView(stack_);
  view_->setRenderHint(QPainter::Antialiasing);
  view_->setMouseTracking(true);
  view_->viewport()->setMouseTracking(true);
  view_->viewport()->installEventFilter(this);
  view_->setMinimumSize(240, 180);
  // No frame, and the chart's own background around it: the chart and the
  // legend under it read as one surface.
  view_->setFrameShape(QFrame::NoFrame);
  view_->setBackgroundBrush(palette().base());
  empty_ = new QLabel(stack_);
  empty_->setAlignment(Qt::AlignCenter);
  empty_->setWordWrap(true);
  empty_->setMargin(24);
  empty_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  stack_->addWidget(view_);
  stack_->addWidget(empty_);
  legend_ = new ChartLegend(this);
  legend_->setAutoFillBackground(true);
  legend_->setBackgroundRole(QPalette::Base);  // one surface with the chart above it
  caption_ = new QLabel(this);
  caption_->setWordWrap(true);
  caption_->setContentsMargins(8, 0, 8, 4);
  caption_->setForegroundRole(QPalette::PlaceholderText);
  caption_->hide();
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(stack_, 1);
  layout->addWidget(legend_);
  layout->addWidget(caption_);
  resetChart();
  showEmpty(tr("No run is open."));
}

QWidget* ChartFrame::viewport() const {
  return view_->viewport();
}

QChart* ChartFrame::chart() const {
  return view_->chart();
}

QString ChartFrame::emptyText() const {
  return showsChart() ? QString() : empty_->text();
}

QString ChartFrame::caption() const {
  return caption_->isHidden() ? QString() : caption_->text();
}

bool ChartFrame::showsChart() const {
  return stack_->currentWidget() == view_;
}

QChart* ChartFrame::resetChart() {
  auto* chart = new QChart;
  chart->setBackgroundRoundness(0);
  chart->setMargins(QMargins(6, 6, 6, 6));
  chart->legend()->setVisible(false);  // the frame's own legend wraps instead
  // The window's palette, so the chart reads in light and dark themes.
  const QPalette pal = palette();
  chart->setBackgroundBrush(pal.base());
  chart->setTitleBrush(pal.text());
  QChart* old = view_->chart();
  view_->setChart(chart);  // the view owns the chart
  delete old;
  stack_->setCurrentWidget(view_);
  setLegend({});
  setCaption({});
  return chart;
}

void ChartFrame::showEmpty(const QString& why) {
  setLegend({});
  empty_->setText(why);
  stack_->setCurrentWidget(empty_);
}

void ChartFrame::setLegend(std::vector<LegendEntry> entries) {
  legend_->setEntries(std::move(entries));
}

void ChartFrame::setCaption(const QString& text) {
  caption_->setText(text);
  caption_->setVisible(!text.isEmpty());
}

QPointF ChartFrame::toViewport(QPointF value, const QAbstractSeries* series) const {
  const QPointF scene =
      chart()->mapToScene(chart()->mapToPosition(value, const_cast<QAbstractSeries*>(series)));
  return view_->mapFromScene(scene);
}

QPointF ChartFrame::toValue(QPointF viewport_pos, const QAbstractSeries* series) const {
  const QPointF scene = view_->mapToScene(viewport_pos.toPoint());
  return chart()->mapToValue(chart()->mapFromScene(scene), const_cast<QAbstractSeries*>(series));
}

bool ChartFrame::inPlotArea(QPointF viewport_pos) const {
  const QPointF scene = view_->mapToScene(viewport_pos.toPoint());
  return chart()->plotArea().contains(chart()->mapFromScene(scene));
}

bool ChartFrame::eventFilter(QObject* watched, QEvent* event) {
  if (watched == view_->viewport() && showsChart()) {
    if (event->type() == QEvent::MouseButtonPress) {
      auto* e = static_cast<QMouseEvent*>(event);
      if (e->button() == Qt::LeftButton && onPress(e->position())) return true;
    } else if (event->type() == QEvent::MouseMove) {
      auto* e = static_cast<QMouseEvent*>(event);
      onHover(e->position(), e->globalPosition().toPoint());
    } else if (event->type() == QEvent::ToolTip) {
      // The tool-tip event comes when the mouse has rested (~0.7 s); left to
      // the view, QGraphicsScene::helpEvent finds no item with a tool tip
      // and shows an empty one, which hides the point's. The chart answers
      // with its own, so it stays while the mouse rests on the point.
      auto* e = static_cast<QHelpEvent*>(event);
      onHover(e->pos(), e->globalPos());
      return true;
    }
  }
  return QWidget::eventFilter(watched, event);
}

}  // namespace damscope
