// Shared chart axes: see chart_axes.h.
#include "gui/charts/chart_axes.h"

#include <algorithm>
#include <cmath>

#include <QCategoryAxis>
#include <QValueAxis>

#include "gui/models/qt_text.h"

namespace damscope {

void styleAxis(QAbstractAxis* axis, const QPalette& pal) {
  axis->setLabelsColor(pal.color(QPalette::Text));
  axis->setTitleBrush(pal.text());
  QColor grid = pal.color(QPalette::Text);
  grid.setAlpha(50);
  axis->setGridLineColor(grid);
  grid.setAlpha(120);
  axis->setLinePenColor(grid);
}

QCategoryAxis* stepAxis(const std::vector<std::string>& labels, const QPalette& pal) {
  auto* axis = new QCategoryAxis;
  const size_t n = labels.size();
  axis->setRange(-0.5, static_cast<double>(std::max<size_t>(n, 1)) - 0.5);
  axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
  constexpr size_t kMaxLabels = 16;
  const size_t every = std::max<size_t>(1, (n + kMaxLabels - 1) / kMaxLabels);
  for (size_t i = 0; i < n; i += every) {
    axis->append(qtName(labels[i]), static_cast<double>(i));
  }
  axis->setTitleText(QObject::tr("step"));
  axis->setGridLineVisible(false);
  styleAxis(axis, pal);
  return axis;
}

QValueAxis* valueAxisFromZero(double max, const QString& title, const QPalette& pal, double floor) {
  auto* axis = new QValueAxis;
  axis->setRange(0, std::max({max, floor, 1e-9}) * 1.05);
  axis->applyNiceNumbers();  // round ends and tick counts, so labels are short
  axis->setLabelFormat("%g");
  axis->setTitleText(title);
  styleAxis(axis, pal);
  return axis;
}

}  // namespace damscope
