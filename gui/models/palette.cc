// The GUI's palette: see palette.h.
#include "gui/models/palette.h"

#include <cmath>
#include <string>

#include "analyzer/report/report_charts.h"

namespace damscope {
namespace {

QColor fromHex(std::string_view hex) {
  return QColor(QString::fromLatin1(hex.data(), static_cast<qsizetype>(hex.size())));
}

double linear(double channel) {
  return channel <= 0.04045 ? channel / 12.92 : std::pow((channel + 0.055) / 1.055, 2.4);
}

}  // namespace

QColor axisColor(Axis axis) { return fromHex(axisColour(axis)); }
QColor causeColor(GapCause cause) { return fromHex(causeColour(cause)); }
QColor categoryColor(KernelCategory category) { return fromHex(categoryColour(category)); }

QColor textOn(const QColor& fill) {
  const double luminance = 0.2126 * linear(fill.redF()) + 0.7152 * linear(fill.greenF()) +
                           0.0722 * linear(fill.blueF());
  return luminance > 0.179 ? QColor(Qt::black) : QColor(Qt::white);
}

}  // namespace damscope
