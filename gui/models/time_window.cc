// A time window of a rank's trace: see time_window.h.
#include "gui/models/time_window.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace damscope {

QString windowText(const TimeWindow& window, int64_t origin) {
  const double from = static_cast<double>(window.start - origin);
  const double to = static_cast<double>(window.end - origin);
  struct Unit {
    double ns;
    const char* name;
  };
  static constexpr Unit kUnits[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}, {1, "ns"}};
  const double largest = std::max(std::abs(from), std::abs(to));
  Unit unit = kUnits[3];
  for (const Unit& u : kUnits) {
    if (largest >= u.ns) {
      unit = u;
      break;
    }
  }
  const double length = std::max(1.0, to - from) / unit.ns;
  const int decimals =
      std::clamp(1 - static_cast<int>(std::floor(std::log10(length))), 0, unit.ns > 1 ? 9 : 0);
  return QStringLiteral("%1–%2 %3")
      .arg(from / unit.ns, 0, 'f', decimals)
      .arg(to / unit.ns, 0, 'f', decimals)
      .arg(QString::fromUtf8(unit.name));
}

}  // namespace damscope
