// The GUI's palette: see palette.h.
#include "gui/models/palette.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "analyzer/report/vocabulary.h"

namespace damscope {
namespace {

QColor fromHex(std::string_view hex) {
  return QColor(QString::fromLatin1(hex.data(), static_cast<qsizetype>(hex.size())));
}

double linear(double channel) {
  return channel <= 0.04045 ? channel / 12.92 : std::pow((channel + 0.055) / 1.055, 2.4);
}

}  // namespace

QColor axisColor(Axis axis) {
  return fromHex(axisColour(axis));
}
QColor causeColor(GapCause cause) {
  return fromHex(causeColour(cause));
}
QColor categoryColor(KernelCategory category) {
  return fromHex(categoryColour(category));
}
QColor verdictColor(Verdict verdict) {
  return fromHex(verdictColour(verdict));
}

bool sameHueFamily(const QColor& a, const QColor& b) {
  const bool neutral_a = a.hslSaturationF() < kNeutralSaturation;
  const bool neutral_b = b.hslSaturationF() < kNeutralSaturation;
  if (neutral_a != neutral_b) return false;
  if (neutral_a) return std::abs(a.lightnessF() - b.lightnessF()) < kNeutralLightnessStep;
  const double apart = std::abs(a.hslHueF() - b.hslHueF()) * 360;
  return std::min(apart, 360 - apart) < kHueFamilyDegrees;
}

double foldAlpha(double busy_fraction) {
  return std::clamp(busy_fraction, kMinFoldAlpha, 1.0);
}

QColor foldColor(const QColor& fill, double busy_fraction) {
  QColor out = fill;
  out.setAlphaF(static_cast<float>(foldAlpha(busy_fraction)));
  return out;
}

QColor eventKindColor(EventKind kind) {
  switch (kind) {
    case EventKind::kMemcpy:
      return {0x8d, 0x99, 0xa6};
    case EventKind::kMemset:
      return {0xa9, 0xb2, 0xbc};
    case EventKind::kApiCall:
      return {0xb8, 0xa9, 0x8f};
    case EventKind::kSync:
      return {0xd9, 0x88, 0x80};
    case EventKind::kKernel:
    case EventKind::kRange:
    case EventKind::kGap:
      break;
  }
  return QColor(Qt::gray);
}

QColor rangeColor(int32_t name_id) {
  const uint32_t hue = (static_cast<uint32_t>(name_id) * 2654435761u) % 360;
  return QColor::fromHsl(static_cast<int>(hue), 110, 165);
}

QColor stepBandColor(size_t index) {
  return index % 2 ? QColor(0x9a, 0xa5, 0xb1) : QColor(0xc3, 0xcb, 0xd3);
}

QColor counterColor() {
  return {0x4c, 0x8b, 0xb8};
}

QColor lostRecordsColor() {
  return {0x33, 0x33, 0x33};
}

QColor selectionOuterColor() {
  return {0x10, 0x10, 0x10};
}

QColor selectionInnerColor() {
  return {0xff, 0xff, 0xff};
}

QColor textOn(const QColor& fill) {
  const double luminance =
      0.2126 * linear(fill.redF()) + 0.7152 * linear(fill.greenF()) + 0.0722 * linear(fill.blueF());
  return luminance > 0.179 ? QColor(Qt::black) : QColor(Qt::white);
}

}  // namespace damscope
