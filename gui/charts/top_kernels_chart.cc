// The top kernels chart: see top_kernels_chart.h.
#include "gui/charts/top_kernels_chart.h"

#include <array>
#include <cmath>

#include <algorithm>

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QFontMetrics>
#include <QHorizontalStackedBarSeries>
#include <QToolTip>
#include <QValueAxis>

#include "analyzer/report/result_words.h"
#include "analyzer/report/text_format.h"
#include "gui/charts/chart_axes.h"
#include "gui/models/figure_scope.h"
#include "gui/models/palette.h"
#include "gui/models/qt_text.h"

namespace damscope {
TopKernelsChart::TopKernelsChart(QWidget* parent) : ChartFrame(parent) {}

void TopKernelsChart::setRun(std::shared_ptr<const AnalysedRun> run, int rank) {
  run_ = std::move(run);
  rank_ = rank;
  fit_ = fitFor(size());
  build();
}

TopKernelsChart::Fit TopKernelsChart::fitFor(QSize size) const {
  // A row needs a line of text and some air; a label may take 30 % of the
  // width: Qt cuts longer axis labels to "..." (seen at 560 px with 40 %).
  const QFontMetrics fm(font());
  constexpr int kChrome = 170;  // title, value axis, legend and caption, in px
  Fit fit;
  fit.rows = static_cast<size_t>(std::clamp((size.height() - kChrome) / (fm.height() + 8), 5, 15));
  fit.label_chars = static_cast<size_t>(
      std::clamp(static_cast<int>(0.3 * size.width() / fm.averageCharWidth()), 16, 44));
  return fit;
}

void TopKernelsChart::resizeEvent(QResizeEvent* event) {
  ChartFrame::resizeEvent(event);
  const Fit fit = fitFor(size());
  if (fit == fit_) return;
  fit_ = fit;
  if (run_) build();
}

void TopKernelsChart::build() {
  bars_.clear();
  series_ = nullptr;
  QChart* chart = resetChart();
  if (!run_ || rank_ < 0 || static_cast<size_t>(rank_) >= run_->run.ranks.size()) {
    showEmpty(tr("No run is open."));
    return;
  }
  const RankResult& r = run_->run.ranks[static_cast<size_t>(rank_)];
  bars_ = topKernelBars(r, fit_.rows, fit_.label_chars);
  if (bars_.empty()) {
    showEmpty(tr("No kernels: the trace has no %1 kernels in the analysed window.")
                  .arg(qtString(deviceWord(r))));
    return;
  }
  const QPalette pal = palette();
  // The bars count the analysed steps (RankResult::kernels); the title says
  // so, as the statistics beside it may count the whole trace.
  const QString scope = analysedStepsWords(r);
  chart->setTitle(bars_.size() == 1
                      ? tr("The kernel by total time in %1").arg(scope)
                      : tr("Top %1 kernels by total time in %2").arg(bars_.size()).arg(scope));
  series_ = new QHorizontalStackedBarSeries;
  series_->setBarWidth(0.75);
  std::array<QBarSet*, kKernelCategoryCount> sets{};
  for (const KernelBar& b : bars_) {
    QBarSet*& set = sets[static_cast<size_t>(b.category)];
    if (set) continue;
    set = new QBarSet(qtString(toText(b.category)));
    const QColor colour = categoryColor(b.category);
    set->setColor(colour);
    set->setBorderColor(colour.darker(130));
  }
  double max_ms = 0;
  for (size_t row = 0; row < bars_.size(); ++row) {
    const KernelBar& b = bars_[bars_.size() - 1 - row];
    for (QBarSet* set : sets) {
      if (set) set->append(set == sets[static_cast<size_t>(b.category)] ? b.ms : 0);
    }
    max_ms = std::max(max_ms, b.ms);
  }
  for (QBarSet* set : sets) {
    if (set) series_->append(set);
  }
  chart->addSeries(series_);
  auto* names = new QBarCategoryAxis;
  for (size_t row = 0; row < bars_.size(); ++row) {
    // Axis labels are rich text: "<…>" would be read as a tag and vanish.
    names->append(qtName(bars_[bars_.size() - 1 - row].label).toHtmlEscaped());
  }
  names->setGridLineVisible(false);
  styleAxis(names, pal);
  auto* ms = valueAxisFromZero(max_ms, tr("total time (ms)"), pal, 0.001);
  chart->addAxis(names, Qt::AlignLeft);
  chart->addAxis(ms, Qt::AlignBottom);
  series_->attachAxis(names);
  series_->attachAxis(ms);
  std::vector<LegendEntry> legend;
  for (QBarSet* set : sets) {  // QBarSet::color() is not const in Qt 6.4
    if (set) legend.push_back({set->color(), set->label()});
  }
  setLegend(std::move(legend));
  setCaption(tr("%1 of kernel time in these kernels. Hover for the full name, click to select "
                "its runs on the timeline.")
                 .arg([&] {
                   double pct = 0;
                   for (const KernelBar& b : bars_) pct += b.pct;
                   return qtString(percent(std::min(pct, 100.0)));
                 }()));
}

std::optional<QPointF> TopKernelsChart::barCentre(size_t bar) const {
  if (!series_ || !showsChart() || bar >= bars_.size()) return std::nullopt;
  return toViewport(QPointF(bars_[bar].ms / 2, rowOf(bar)), series_);
}

std::optional<size_t> TopKernelsChart::barAt(QPointF viewport_pos) const {
  if (!series_ || !showsChart() || !inPlotArea(viewport_pos)) return std::nullopt;
  const QPointF v = toValue(viewport_pos, series_);
  const double row = std::round(v.y());
  if (row < 0 || row >= static_cast<double>(bars_.size())) return std::nullopt;
  if (std::fabs(v.y() - row) > series_->barWidth() / 2) return std::nullopt;
  // The whole row answers, not just the bar: a short kernel's bar is thin.
  return bars_.size() - 1 - static_cast<size_t>(row);
}

bool TopKernelsChart::onPress(QPointF pos) {
  const std::optional<size_t> bar = barAt(pos);
  if (!bar) return false;
  // The runs the bar counts: those of the analysed steps.
  EventRefs runs = kernelsNamed(*run_, rank_, bars_[*bar].name);
  const RankResult& r = run_->run.ranks[static_cast<size_t>(rank_)];
  if (const std::optional<TimeWindow> window = scopeWindow(r, FigureScope::kAnalysedSteps)) {
    std::erase_if(runs, [&](const EventRef& e) {
      const std::optional<EventSpan> span = spanOf(e, *run_);
      return !span || !window->contains(span->ts);
    });
  }
  emit eventsRequested(runs);
  return true;
}

void TopKernelsChart::onHover(QPointF pos, QPoint global_pos) {
  const std::optional<size_t> bar = barAt(pos);
  if (!bar) {
    QToolTip::hideText();
    return;
  }
  const KernelBar& b = bars_[*bar];
  QToolTip::showText(
      global_pos,
      tr("<b>%1</b><br>%2<br>%3 ms in %4, mean %5<br>%6 of the kernel time of %7")
          .arg(qtString(clipText(b.name, 400)).toHtmlEscaped(), qtString(toText(b.category)))
          .arg(b.ms, 0, 'f', 2)
          .arg(counted(b.kernels, "run"))
          .arg(
              qtString(formatDuration(b.mean_ms * 1e6)), qtString(percent(b.pct)),
              scopeWords(run_->run.ranks[static_cast<size_t>(rank_)], FigureScope::kAnalysedSteps)),
      viewport());
}

}  // namespace damscope
