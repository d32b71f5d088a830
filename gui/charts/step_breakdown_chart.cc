// The per-step scorecard chart: see step_breakdown_chart.h.
#include "gui/charts/step_breakdown_chart.h"

#include <cmath>

#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QStackedBarSeries>
#include <QToolTip>
#include <QValueAxis>

#include "analyzer/report/result_words.h"
#include "gui/charts/chart_axes.h"
#include "gui/models/palette.h"
#include "gui/models/qt_text.h"

namespace damscope {
StepBreakdownChart::StepBreakdownChart(QWidget* parent) : ChartFrame(parent) {}

void StepBreakdownChart::setRun(std::shared_ptr<const AnalysedRun> run, int rank) {
  run_ = std::move(run);
  rank_ = rank;
  bars_ = {};
  series_ = nullptr;
  QChart* chart = resetChart();
  if (!run_ || rank_ < 0 || static_cast<size_t>(rank_) >= run_->run.ranks.size()) {
    showEmpty(tr("No run is open."));
    return;
  }
  const RankResult& r = run_->run.ranks[static_cast<size_t>(rank_)];
  bars_ = stepBreakdownBars(r);
  if (bars_.empty()) {
    showEmpty(
        r.scorecard
            ? tr("No step breakdown: the trace has no steps to split.")
            : tr("No step breakdown: there is no %1 work to judge.").arg(qtString(deviceWord(r))));
    return;
  }
  const QPalette pal = palette();
  chart->setTitle(tr("Where each step's time went"));
  series_ = new QStackedBarSeries;
  series_->setBarWidth(0.8);
  double max_total = 0;
  for (size_t i = 0; i < bars_.labels.size(); ++i) max_total = std::max(max_total, total(i));
  for (size_t a = 0; a < kAxisCount; ++a) {
    auto* set = new QBarSet(qtString(axisLabel(static_cast<Axis>(a))));
    const QColor colour = axisColor(static_cast<Axis>(a));
    set->setColor(colour);
    set->setBorderColor(colour.darker(130));
    for (double v : bars_.ms[a]) set->append(v);
    // Steps outside the analysed window drawn faint: a selected bar takes the
    // set's selected colour, the one per-bar colour Qt Charts 6.4 offers.
    QColor faint = colour;
    faint.setAlpha(80);
    set->setSelectedColor(faint);
    for (size_t i = 0; i < bars_.analysed.size(); ++i) {
      if (!bars_.analysed[i]) set->selectBar(static_cast<int>(i));
    }
    series_->append(set);
  }
  chart->addSeries(series_);
  auto* x = stepAxis(bars_.labels, pal);
  auto* y = valueAxisFromZero(max_total, tr("ms"), pal, 0.001);
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  series_->attachAxis(x);
  series_->attachAxis(y);
  // The legend names only the axes some step has time on.
  std::vector<LegendEntry> legend;
  for (size_t a = 0; a < kAxisCount; ++a) {
    if (std::any_of(bars_.ms[a].begin(), bars_.ms[a].end(), [](double v) { return v > 0; })) {
      legend.push_back(
          {axisColor(static_cast<Axis>(a)), qtString(axisLabel(static_cast<Axis>(a)))});
    }
  }
  setLegend(std::move(legend));
  const auto outside = std::count(bars_.analysed.begin(), bars_.analysed.end(), false);
  setCaption(outside > 0
                 ? tr("Faint: %1 outside the analysed window. Click a bar to select its step "
                      "on the timeline.")
                       .arg(counted(outside, "step"))
                 : tr("Click a bar to select its step on the timeline."));
}

double StepBreakdownChart::total(size_t step) const {
  double sum = 0;
  for (size_t a = 0; a < kAxisCount; ++a) sum += bars_.ms[a][step];
  return sum;
}

std::optional<QPointF> StepBreakdownChart::barCentre(size_t step) const {
  if (!series_ || !showsChart() || step >= bars_.labels.size()) return std::nullopt;
  return toViewport(QPointF(static_cast<double>(step), total(step) / 2), series_);
}

std::optional<size_t> StepBreakdownChart::stepAt(QPointF viewport_pos) const {
  if (!series_ || !showsChart() || !inPlotArea(viewport_pos)) return std::nullopt;
  const QPointF v = toValue(viewport_pos, series_);
  const double i = std::round(v.x());
  if (i < 0 || i >= static_cast<double>(bars_.labels.size())) return std::nullopt;
  if (std::fabs(v.x() - i) > series_->barWidth() / 2) return std::nullopt;
  const size_t step = static_cast<size_t>(i);
  if (v.y() < 0 || v.y() > total(step)) return std::nullopt;
  return step;
}

bool StepBreakdownChart::onPress(QPointF pos) {
  const std::optional<size_t> step = stepAt(pos);
  if (!step || !bars_.range_ids[*step]) return false;
  emit eventsRequested({EventRef{rank_, EventKind::kRange, *bars_.range_ids[*step]}});
  return true;
}

void StepBreakdownChart::onHover(QPointF pos, QPoint global_pos) {
  const std::optional<size_t> step = stepAt(pos);
  if (!step) {
    QToolTip::hideText();
    return;
  }
  const double sum = total(*step);
  QString text = tr("<b>%1</b>%2<br>%3 ms")
                     .arg(qtNameTooltip(bars_.names[*step]).toHtmlEscaped(),
                          bars_.analysed[*step] ? QString() : tr(" (outside the analysed window)"))
                     .arg(sum, 0, 'f', 2);
  for (size_t a = 0; a < kAxisCount; ++a) {
    const double v = bars_.ms[a][*step];
    if (v <= 0) continue;
    text += tr("<br>%1: %2 ms (%3)")
                .arg(qtString(axisLabel(static_cast<Axis>(a))))
                .arg(v, 0, 'f', 2)
                .arg(qtString(percent(sum > 0 ? 100 * v / sum : 0)));
  }
  QToolTip::showText(global_pos, text, viewport());
}

}  // namespace damscope
