// Step time and MFU per step: see step_time_chart.h.
#include "gui/charts/step_time_chart.h"

#include <algorithm>
#include <cmath>

#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QStackedBarSeries>
#include <QToolTip>
#include <QValueAxis>

#include "analyzer/report/result_words.h"
#include "gui/charts/chart_axes.h"
#include "gui/models/qt_text.h"

namespace damscope {
namespace {

// Neither a D·A·M axis nor a kernel class colour: step time is its own thing.
const QColor kStepColour(0x4e, 0x79, 0xa7);
const QColor kMfuColour(0xe1, 0x57, 0x59);

}  // namespace

StepTimeChart::StepTimeChart(QWidget* parent) : ChartFrame(parent) {}

void StepTimeChart::setRun(std::shared_ptr<const AnalysedRun> run, int rank) {
  run_ = std::move(run);
  rank_ = rank;
  times_ = {};
  bars_ = nullptr;
  mfu_ = nullptr;
  QChart* chart = resetChart();
  if (!run_ || rank_ < 0 || static_cast<size_t>(rank_) >= run_->run.ranks.size()) {
    showEmpty(tr("No run is open."));
    return;
  }
  const RankResult& r = run_->run.ranks[static_cast<size_t>(rank_)];
  times_ = stepTimes(r);
  if (times_.empty()) {
    showEmpty(tr("No step times: %1.").arg(qtString(stepsLine(r))));
    return;
  }
  const QPalette pal = palette();
  chart->setTitle(times_.mfu_computed ? tr("Step time and MFU")
                                      : tr("Step time (MFU not computed: see below)"));
  // Two sets stacked, each step in one of them, so analysed steps and the
  // others differ in colour and the legend says which is which.
  bars_ = new QStackedBarSeries;
  bars_->setBarWidth(0.8);
  auto* analysed = new QBarSet(tr("step time (analysed)"));
  auto* outside = new QBarSet(tr("step time (outside the analysed window)"));
  analysed->setColor(kStepColour);
  analysed->setBorderColor(kStepColour.darker(130));
  QColor faint = kStepColour;
  faint.setAlpha(90);
  outside->setColor(faint);
  outside->setBorderColor(kStepColour);
  double max_ms = 0;
  for (size_t i = 0; i < times_.ms.size(); ++i) {
    analysed->append(times_.analysed[i] ? times_.ms[i] : 0);
    outside->append(times_.analysed[i] ? 0 : times_.ms[i]);
    max_ms = std::max(max_ms, times_.ms[i]);
  }
  bars_->append(analysed);
  bars_->append(outside);
  chart->addSeries(bars_);
  auto* x = stepAxis(times_.labels, pal);
  auto* y = valueAxisFromZero(max_ms, tr("step time (ms)"), pal, 0.001);
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  bars_->attachAxis(x);
  bars_->attachAxis(y);
  std::vector<LegendEntry> legend;
  if (std::count(times_.analysed.begin(), times_.analysed.end(), true) > 0) {
    legend.push_back({analysed->color(), analysed->label()});
  }
  if (std::count(times_.analysed.begin(), times_.analysed.end(), false) > 0) {
    legend.push_back({outside->color(), outside->label()});
  }

  if (times_.mfu_computed) {
    mfu_ = new QLineSeries;
    mfu_->setName(tr("MFU (%)"));
    mfu_->setPen(QPen(kMfuColour, 2));
    mfu_->setPointsVisible(true);
    double max_pct = 0;
    for (size_t i = 0; i < times_.mfu_pct.size(); ++i) {
      if (!times_.mfu_pct[i]) continue;
      mfu_->append(static_cast<double>(i), *times_.mfu_pct[i]);
      max_pct = std::max(max_pct, *times_.mfu_pct[i]);
    }
    chart->addSeries(mfu_);
    auto* pct = valueAxisFromZero(max_pct, tr("MFU (%)"), pal, 10);
    pct->setLabelsColor(kMfuColour.darker(110));
    chart->addAxis(pct, Qt::AlignRight);
    mfu_->attachAxis(x);
    mfu_->attachAxis(pct);
    legend.push_back({kMfuColour, mfu_->name(), LegendEntry::Mark::kLine});
    setCaption(tr("Click a bar to select its step on the timeline."));
  } else {
    setCaption(qtString(times_.mfu_words));
  }
  setLegend(std::move(legend));
}

std::optional<QPointF> StepTimeChart::barCentre(size_t step) const {
  if (!bars_ || !showsChart() || step >= times_.ms.size()) return std::nullopt;
  return toViewport(QPointF(static_cast<double>(step), times_.ms[step] / 2), bars_);
}

std::optional<size_t> StepTimeChart::stepAt(QPointF viewport_pos) const {
  if (!bars_ || !showsChart() || !inPlotArea(viewport_pos)) return std::nullopt;
  const QPointF v = toValue(viewport_pos, bars_);
  const double i = std::round(v.x());
  if (i < 0 || i >= static_cast<double>(times_.ms.size())) return std::nullopt;
  if (std::fabs(v.x() - i) > bars_->barWidth() / 2) return std::nullopt;
  const size_t step = static_cast<size_t>(i);
  if (v.y() < 0 || v.y() > times_.ms[step]) return std::nullopt;
  return step;
}

bool StepTimeChart::onPress(QPointF pos) {
  const std::optional<size_t> step = stepAt(pos);
  if (!step || !times_.range_ids[*step]) return false;
  emit eventsRequested({EventRef{rank_, EventKind::kRange, *times_.range_ids[*step]}});
  return true;
}

void StepTimeChart::onHover(QPointF pos, QPoint global_pos) {
  const std::optional<size_t> step = stepAt(pos);
  if (!step) {
    QToolTip::hideText();
    return;
  }
  QString text = tr("<b>%1</b>%2<br>%3 ms")
                     .arg(qtNameTooltip(times_.names[*step]).toHtmlEscaped(),
                          times_.analysed[*step] ? QString() : tr(" (outside the analysed window)"))
                     .arg(times_.ms[*step], 0, 'f', 2);
  if (times_.mfu_pct[*step])
    text += tr("<br>MFU %1").arg(qtString(percent(*times_.mfu_pct[*step])));
  QToolTip::showText(global_pos, text, viewport());
}

}  // namespace damscope
