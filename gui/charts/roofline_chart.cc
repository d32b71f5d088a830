// The roofline chart: see roofline_chart.h.
#include "gui/charts/roofline_chart.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

#include <QChart>
#include <QChartView>
#include <QGraphicsSimpleTextItem>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QScatterSeries>
#include <QToolTip>

#include "analyzer/report/result_words.h"
#include "analyzer/report/roofline_labels.h"
#include "analyzer/report/text_format.h"
#include "gui/models/palette.h"
#include "gui/models/qt_text.h"

namespace damscope {
namespace {

// A disc for QScatterSeries::setLightMarker: painted once and blitted per
// point instead of one scene item per point. Translucent so overlapping
// kernels stay visible, with a darker rim so a small disc reads on any fill.
QImage discImage(const QColor& colour) {
  constexpr int kSize = 64;
  QImage image(kSize, kSize, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::transparent);
  QPainter p(&image);
  p.setRenderHint(QPainter::Antialiasing);
  QColor fill = colour;
  fill.setAlpha(200);
  p.setBrush(fill);
  p.setPen(QPen(colour.darker(160), 4));
  p.drawEllipse(QRectF(2, 2, kSize - 4, kSize - 4));
  return image;
}

QLogValueAxis* logAxis(const DecadeRange& range, double scale, const QString& title,
                       const QPalette& pal) {
  auto* axis = new QLogValueAxis;
  axis->setBase(10);
  // Widened by a hair: Qt labels from ceil(log10(min)), and 10^-1 in
  // floating point is a hair above 0.1, so the bottom decade's label would
  // be skipped.
  axis->setRange(std::pow(10, std::round(std::log10(range.min / scale))) * (1 - 1e-9),
                 std::pow(10, std::round(std::log10(range.max / scale))) * (1 + 1e-9));
  axis->setLabelFormat("%g");
  axis->setMinorTickCount(8);  // 2..9 within each decade
  axis->setTitleText(title);
  axis->setLabelsColor(pal.color(QPalette::Text));
  axis->setTitleBrush(pal.text());
  QColor grid = pal.color(QPalette::Text);
  grid.setAlpha(60);
  axis->setGridLineColor(grid);
  grid.setAlpha(22);
  axis->setMinorGridLineColor(grid);
  return axis;
}

}  // namespace

RooflineChart::RooflineChart(QWidget* parent) : ChartFrame(parent) {}

void RooflineChart::setRun(std::shared_ptr<const AnalysedRun> run, int rank) {
  run_ = std::move(run);
  rank_ = rank;
  build();
}

void RooflineChart::build() {
  labels_.clear();
  bandwidth_label_.reset();
  anchor_ = nullptr;
  plot_ = {};
  QChart* chart = resetChart();
  connect(chart, &QChart::plotAreaChanged, this, [this] { placeLabels(); });
  if (!run_ || rank_ < 0 || static_cast<size_t>(rank_) >= run_->run.ranks.size()) {
    showEmpty(tr("No run is open."));
    return;
  }
  const RankResult& r = run_->run.ranks[static_cast<size_t>(rank_)];
  plot_ = rooflinePlot(r.roofline);
  if (plot_.empty()) {
    showEmpty(r.roofline.kernels.empty()
                  ? tr("No roofline: no kernel has FLOP and byte counts. The roofline needs "
                       "the ops' shapes (record_shapes=True in the profiler) or the trainer's "
                       "annotations.")
                  : tr("No roofline: none of the %1 with work has both FLOPs and bytes, so "
                       "none can be placed on log axes.")
                        .arg(counted(static_cast<int64_t>(r.roofline.kernels.size()), "kernel")));
    return;
  }
  const QPalette pal = palette();
  chart->setTitle(qtString(rooflineTitle(r.roofline, plot_.markers.size())));
  unit_ = rateUnitFor(plot_.y.max);
  auto* x_axis = logAxis(plot_.x, 1, tr("arithmetic intensity (FLOP/byte)"), pal);
  auto* y_axis = logAxis(plot_.y, unit_.scale, tr("achieved %1").arg(unit_.name), pal);
  chart->addAxis(x_axis, Qt::AlignBottom);
  chart->addAxis(y_axis, Qt::AlignLeft);
  auto attach = [&](QAbstractSeries* s) {
    chart->addSeries(s);
    s->attachAxis(x_axis);
    s->attachAxis(y_axis);
  };
  auto addLabel = [&](const QString& text, QPointF at, Qt::Alignment align) {
    auto* item = new QGraphicsSimpleTextItem(text, chart);
    item->setBrush(pal.text());
    QFont f = item->font();
    f.setPointSizeF(f.pointSizeF() * 0.9);
    item->setFont(f);
    item->setZValue(20);
    labels_.push_back({item, at, align});
  };
  const double s = unit_.scale;
  const QColor roof_colour = pal.color(QPalette::Text);

  if (!plot_.bandwidth_roof.empty()) {
    auto* bw = new QLineSeries;
    bw->setName(tr("%1 roof").arg(memoryWord(r.device_kind)));
    bw->setPen(QPen(roof_colour, 2));
    for (const QPointF& p : plot_.bandwidth_roof) bw->append(p.x(), p.y() / s);
    attach(bw);
    const QPointF a = plot_.bandwidth_roof.front(), b = plot_.bandwidth_roof.back();
    const double t = 0.25;  // a quarter along the roof, in log space
    const QPointF at(
        std::pow(10, std::log10(a.x()) + t * (std::log10(b.x()) - std::log10(a.x()))),
        std::pow(10, std::log10(a.y()) + t * (std::log10(b.y()) - std::log10(a.y()))) / s);
    addLabel(tr("%1 %2 GB/s")
                 .arg(memoryWord(r.device_kind))
                 .arg(*r.roofline.bandwidth_bytes_per_s / 1e9, 0, 'f', 0),
             at, Qt::AlignLeft | Qt::AlignTop);
    bandwidth_label_ = labels_.size() - 1;
    bandwidth_to_ = QPointF(b.x(), b.y() / s);
  }
  auto* ridges = new QScatterSeries;
  ridges->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
  ridges->setMarkerSize(10);
  ridges->setColor(roof_colour);
  ridges->setBorderColor(roof_colour);
  Qt::PenStyle dash = Qt::SolidLine;
  for (const PeakRoof& roof : plot_.peak_roofs) {
    auto* line = new QLineSeries;
    line->setName(qtString(peakLabel(r.roofline.ceilings, roof.group)));
    line->setPen(QPen(roof_colour, 2, dash));
    dash = Qt::DashLine;  // the first (highest-priority) precision solid, others dashed
    line->append(roof.from.x(), roof.from.y() / s);
    line->append(roof.to.x(), roof.to.y() / s);
    attach(line);
    addLabel(qtString(peakLabel(r.roofline.ceilings, roof.group)),
             QPointF(roof.to.x(), roof.to.y() / s), Qt::AlignRight | Qt::AlignTop);
    if (roof.ridge) {
      ridges->append(roof.ridge->x(), roof.ridge->y() / s);
      auto* drop = new QLineSeries;
      QColor faint = roof_colour;
      faint.setAlpha(110);
      drop->setPen(QPen(faint, 1, Qt::DotLine));
      drop->append(roof.ridge->x(), plot_.y.min / s);
      drop->append(roof.ridge->x(), roof.ridge->y() / s);
      attach(drop);
      addLabel(qtString(ridgeLabel(roof.ridge->x())), QPointF(roof.ridge->x(), plot_.y.min / s),
               Qt::AlignLeft | Qt::AlignBottom);
    }
  }
  if (ridges->count() > 0) {
    attach(ridges);
  } else {
    delete ridges;
  }

  // One series per class and whole-pixel diameter: a light marker is drawn
  // at its series' marker size (Qt 6.4 ignores a per-point size with it).
  // Larger discs are added first so smaller ones stay on top; the legend
  // lists each class once.
  std::map<std::pair<int, KernelCategory>, QScatterSeries*, std::greater<>> by_size;
  for (const RooflineMarker& m : plot_.markers) {
    const KernelCategory cat = r.roofline.kernels[m.kernel].category;
    QScatterSeries*& series = by_size[{static_cast<int>(std::lround(m.diameter_px)), cat}];
    if (!series) {
      series = new QScatterSeries;
      series->setName(qtString(toText(cat)));
      const QColor colour = categoryColor(cat);
      series->setColor(colour);
      series->setBorderColor(colour.darker(160));
      series->setMarkerSize(std::lround(m.diameter_px));
      series->setLightMarker(discImage(colour));
    }
    series->append(m.intensity, m.flops_per_s / s);
  }
  for (const auto& [key, series] : by_size) {
    attach(series);
    if (!anchor_) anchor_ = series;
  }
  std::vector<LegendEntry> legend;
  for (const KernelCategory cat : plot_.categories) {
    legend.push_back({categoryColor(cat), qtString(toText(cat)), LegendEntry::Mark::kDisc});
  }
  setLegend(std::move(legend));

  QStringList notes;
  if (plot_.left_out > 0) {
    notes << (plot_.left_out == 1
                  ? tr("1 kernel without FLOPs or bytes is not shown.")
                  : tr("%1 kernels without FLOPs or bytes are not shown.").arg(plot_.left_out));
  }
  if (r.roofline.ceilings.empty()) {
    notes << tr("The device's peak FLOP/s is not known: no flat roof is drawn.");
  }
  if (!r.roofline.bandwidth_bytes_per_s) {
    notes << tr("The device's memory bandwidth is not known: no memory roof is drawn.");
  }
  notes << tr("Disc area is kernel time; hover for figures, click to select its runs.");
  setCaption(notes.join(' '));
  placeLabels();
}

void RooflineChart::placeLabels() {
  if (!anchor_) return;
  QChart* chart = this->chart();
  const QRectF area = chart->plotArea().adjusted(2, 2, -2, -2);
  // Where each label would like to be, then nudged apart from the top down:
  // a lower peak's label moves below its roof, a ridge label up its drop line.
  std::vector<size_t> order;
  std::vector<LabelRect> wanted(labels_.size());
  for (size_t i = 0; i < labels_.size(); ++i) {
    const Label& l = labels_[i];
    const QPointF p = chart->mapToPosition(l.at, anchor_);
    const QRectF box = l.item->boundingRect();
    if (bandwidth_label_ == i) {
      // Along the memory roof, just above it, at the roof's on-screen slope.
      const QPointF q = chart->mapToPosition(bandwidth_to_, anchor_);
      const double angle = std::atan2(q.y() - p.y(), q.x() - p.x()) * 180 / M_PI;
      l.item->setTransformOriginPoint(0, box.height());
      l.item->setRotation(angle);
      l.item->setPos(p.x(), p.y() - box.height() - 3);
      continue;
    }
    double x = l.align & Qt::AlignRight ? p.x() - box.width() - 4 : p.x() + 4;
    double y = l.align & Qt::AlignBottom ? p.y() - box.height() - 4 : p.y() - box.height() - 2;
    x = std::clamp(x, area.left(), std::max(area.left(), area.right() - box.width()));
    y = std::clamp(y, area.top(), std::max(area.top(), area.bottom() - box.height()));
    wanted[i] = {x, y, box.width(), box.height()};
    order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return wanted[a].y < wanted[b].y; });
  std::vector<LabelBox> boxes;
  boxes.reserve(order.size());
  for (const size_t i : order) {
    boxes.push_back({wanted[i], labels_[i].align & Qt::AlignBottom ? -1 : +1});
  }
  const std::vector<std::optional<LabelRect>> placed =
      separateLabels(boxes, {area.x(), area.y(), area.width(), area.height()});
  for (size_t k = 0; k < order.size(); ++k) {
    QGraphicsSimpleTextItem* item = labels_[order[k]].item;
    item->setVisible(placed[k].has_value());
    if (placed[k]) item->setPos(placed[k]->x, placed[k]->y);
  }
}

std::optional<QPointF> RooflineChart::markerPosition(size_t i) const {
  if (!anchor_ || !showsChart() || i >= plot_.markers.size()) return std::nullopt;
  const RooflineMarker& m = plot_.markers[i];
  return toViewport(QPointF(m.intensity, m.flops_per_s / unit_.scale), anchor_);
}

std::optional<size_t> RooflineChart::markerAt(QPointF viewport_pos) const {
  if (!anchor_ || !showsChart() || !inPlotArea(viewport_pos)) return std::nullopt;
  std::vector<QPointF> centres;
  std::vector<double> diameters;
  centres.reserve(plot_.markers.size());
  diameters.reserve(plot_.markers.size());
  for (size_t i = 0; i < plot_.markers.size(); ++i) {
    centres.push_back(*markerPosition(i));
    diameters.push_back(plot_.markers[i].diameter_px);
  }
  return ::damscope::markerAt(centres, diameters, viewport_pos);
}

bool RooflineChart::onPress(QPointF pos) {
  const std::optional<size_t> hit = markerAt(pos);
  if (!hit || !run_) return false;
  const RooflinePoint& p =
      run_->run.ranks[static_cast<size_t>(rank_)].roofline.kernels[plot_.markers[*hit].kernel];
  emit eventsRequested(kernelsNamed(*run_, rank_, p.name));
  return true;
}

void RooflineChart::onHover(QPointF pos, QPoint global_pos) {
  const std::optional<size_t> hit = markerAt(pos);
  if (hit) {
    QToolTip::showText(global_pos, tooltipOf(plot_.markers[*hit]), viewport());
  } else {
    QToolTip::hideText();
  }
}

QString RooflineChart::tooltipOf(const RooflineMarker& m) const {
  const RankResult& r = run_->run.ranks[static_cast<size_t>(rank_)];
  const RooflinePoint& p = r.roofline.kernels[m.kernel];
  QString ceiling = tr("n/a");
  if (p.pct_of_ceiling && p.ceiling_flops_per_s) {
    ceiling =
        tr("%1 of %2")
            .arg(qtString(percent(*p.pct_of_ceiling)), qtString(rateWords(*p.ceiling_flops_per_s)));
  }
  return tr("<b>%1</b><br>%2, %3 (%4)<br>time %5 in %6<br>AI %7 FLOP/byte<br>"
            "achieved %8<br>ceiling: %9")
      .arg(qtString(clipText(p.name, 160)).toHtmlEscaped(), qtString(toText(p.category)),
           p.memory_bound ? (*p.memory_bound ? tr("memory-bound") : tr("compute-bound"))
                          : tr("no ridge"),
           qtString(metricSourceWords(p.source)),
           qtString(formatDuration(static_cast<double>(p.time_ns))), counted(p.kernels, "run"),
           QString::number(m.intensity, 'g', 3), qtString(rateWords(m.flops_per_s)), ceiling);
}

}  // namespace damscope
