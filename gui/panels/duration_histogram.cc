// The duration histogram: see duration_histogram.h.
#include "gui/panels/duration_histogram.h"

#include <algorithm>
#include <cmath>

#include <QPainter>

#include "analyzer/report/text_format.h"
#include "gui/models/operation_stats_model.h"
#include "gui/models/qt_text.h"

namespace damscope {

DurationBins durationBins(std::vector<int64_t> durs_ns, int bins) {
  DurationBins out;
  if (durs_ns.empty() || bins < 1) return out;
  const auto [lo, hi] = std::minmax_element(durs_ns.begin(), durs_ns.end());
  out.min_ns = std::max<double>(1, static_cast<double>(*lo));
  out.max_ns = std::max<double>(out.min_ns, static_cast<double>(*hi));
  if (out.max_ns <= out.min_ns) {
    out.counts = {static_cast<int64_t>(durs_ns.size())};
    return out;
  }
  out.counts.assign(static_cast<size_t>(bins), 0);
  const double span = std::log(out.max_ns / out.min_ns);
  for (int64_t d : durs_ns) {
    const double v = std::max<double>(out.min_ns, static_cast<double>(d));
    auto bin = static_cast<int>(std::log(v / out.min_ns) / span * bins);
    ++out.counts[static_cast<size_t>(std::clamp(bin, 0, bins - 1))];
  }
  return out;
}

DurationHistogram::DurationHistogram(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void DurationHistogram::setDurations(const QString& title, std::vector<int64_t> durs_ns) {
  title_ = title;
  bins_ = durationBins(std::move(durs_ns));
  update();
}

void DurationHistogram::paintEvent(QPaintEvent*) {
  QPainter p(this);
  const QPalette& pal = palette();
  const QFontMetrics fm(font());
  const int line = fm.height();
  p.setPen(pal.color(QPalette::WindowText));
  const QRect title_rect(4, 2, width() - 8, line);
  if (bins_.counts.empty()) {
    p.setPen(pal.color(QPalette::PlaceholderText));
    p.drawText(rect(), Qt::AlignCenter, tr("Select a row to see the durations of its runs"));
    return;
  }
  p.drawText(title_rect, Qt::AlignLeft | Qt::AlignVCenter,
             fm.elidedText(tr("Durations: %1 (log scale)").arg(title_), Qt::ElideMiddle,
                           title_rect.width()));
  const int64_t peak = *std::max_element(bins_.counts.begin(), bins_.counts.end());
  const QString peak_text = QString::number(peak);
  const int left = fm.horizontalAdvance(peak_text) + 10;
  const QRect plot(left, line + 8, width() - left - 8, height() - 2 * line - 14);
  if (plot.width() < 20 || plot.height() < 10) return;
  p.setPen(pal.color(QPalette::Mid));
  p.drawLine(plot.bottomLeft(), plot.bottomRight());
  p.setPen(pal.color(QPalette::PlaceholderText));
  p.drawText(QRect(0, plot.top() - line / 2, left - 6, line), Qt::AlignRight | Qt::AlignVCenter,
             peak_text);
  p.drawText(QRect(0, plot.bottom() - line / 2, left - 6, line),
             Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("0"));
  const double n = static_cast<double>(bins_.counts.size());
  const double w = plot.width() / n;
  QColor fill = pal.color(QPalette::Highlight);
  for (size_t i = 0; i < bins_.counts.size(); ++i) {
    if (bins_.counts[i] == 0) continue;
    const double h = plot.height() * static_cast<double>(bins_.counts[i]) / static_cast<double>(peak);
    const QRectF bar(plot.left() + i * w + 0.5, plot.bottom() - h, std::max(1.0, w - 1.0), h);
    p.fillRect(bar, fill);
  }
  // The axis: the shortest and longest duration at the ends, the geometric
  // middle between them.
  const int y = plot.bottom() + 4;
  p.setPen(pal.color(QPalette::PlaceholderText));
  p.drawText(QRect(plot.left(), y, plot.width(), line), Qt::AlignLeft,
             qtString(formatDuration(bins_.min_ns)));
  p.drawText(QRect(plot.left(), y, plot.width(), line), Qt::AlignRight,
             qtString(formatDuration(bins_.max_ns)));
  if (bins_.counts.size() > 1 && plot.width() > 300) {
    p.drawText(QRect(plot.left(), y, plot.width(), line), Qt::AlignHCenter,
               qtString(formatDuration(std::sqrt(bins_.min_ns * bins_.max_ns))));
  }
}

}  // namespace damscope
