// Figures and missing figures as text: see figure_text.h.
#include "gui/models/figure_text.h"

#include <cmath>

#include "analyzer/report/text_format.h"
#include "gui/models/qt_text.h"

namespace damscope {

QString missingText() { return QStringLiteral("–"); }

FigureText missingFigure(const QString& why) { return {missingText(), why, true}; }

QString percentText(double pct, int decimals) {
  // Below half the last digit the figure prints as zero: without its sign.
  const double half_digit = 0.5 * std::pow(10.0, -decimals);
  if (std::abs(pct) < half_digit) pct = 0;
  return QStringLiteral("%1 %").arg(pct, 0, 'f', decimals);
}

QString durationText(double ns) { return qtString(formatDuration(ns)); }

FigureText percentFigure(std::optional<double> pct, const QString& why, int decimals) {
  if (!pct || !std::isfinite(*pct)) return missingFigure(why);
  return {percentText(*pct, decimals), {}, false};
}

FigureText durationFigure(std::optional<double> ns, const QString& why) {
  if (!ns || !std::isfinite(*ns)) return missingFigure(why);
  return {durationText(*ns), {}, false};
}

}  // namespace damscope
