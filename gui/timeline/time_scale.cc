// The timeline's time <-> pixel mapping: see time_scale.h.
#include "gui/timeline/time_scale.h"

#include <algorithm>
#include <cmath>

namespace damscope {
namespace {

int64_t marginOf(int64_t span) {
  return std::max<int64_t>(1, static_cast<int64_t>(static_cast<double>(span) * TimeScale::kMarginFraction));
}

// A tick's label in the step's unit: steps are 1, 2 or 5 x 10^k ns, so every
// tick is a whole number of that unit and the label is exact at any zoom
// ("1500200 µs" rather than a rounded "1.50 s" repeated across the ruler).
std::string formatTick(int64_t rel, int64_t step) {
  struct Unit {
    int64_t ns;
    const char* name;
  };
  static constexpr Unit kUnits[] = {{1'000'000'000, "s"}, {1'000'000, "ms"}, {1'000, "µs"}, {1, "ns"}};
  for (const Unit& unit : kUnits) {
    if (step >= unit.ns) return std::to_string(rel / unit.ns) + " " + unit.name;
  }
  return std::to_string(rel) + " ns";
}

}  // namespace

void TimeScale::setLimits(int64_t trace_start, int64_t trace_end) {
  limited_ = true;
  limit_start_ = trace_start;
  limit_end_ = std::max(trace_end, trace_start + 1);
  clamp();
}

void TimeScale::setWidth(int width_px) {
  width_ = std::max(1, width_px);
  clamp();
}

void TimeScale::setView(int64_t start_ns, double ns_per_px) {
  start_ = start_ns;
  ns_per_px_ = ns_per_px;
  clamp();
}

int64_t TimeScale::ts(double x) const {
  return start_ + static_cast<int64_t>(std::llround(x * ns_per_px_));
}

void TimeScale::zoom(double factor, double x) {
  if (!(factor > 0)) return;
  const int64_t anchor = ts(x);
  ns_per_px_ /= factor;
  clamp();
  // Put the anchor back under x, then clamp the start only.
  start_ = anchor - static_cast<int64_t>(std::llround(x * ns_per_px_));
  clamp();
}

void TimeScale::pan(double dx) {
  start_ += static_cast<int64_t>(std::llround(dx * ns_per_px_));
  clamp();
}

void TimeScale::fit(int64_t t0, int64_t t1) {
  ns_per_px_ = static_cast<double>(std::max<int64_t>(t1 - t0, 0)) / width_;
  start_ = t0;
  clamp();
  // When clamping widened the scale, centre the span instead of left-aligning it.
  const int64_t shown = ts(width_) - start_;
  start_ = t0 - (shown - (t1 - t0)) / 2;
  clamp();
}

void TimeScale::fitAll() {
  if (!limited_) return;
  const int64_t margin = marginOf(limit_end_ - limit_start_);
  fit(limit_start_ - margin, limit_end_ + margin);
}

void TimeScale::clamp() {
  if (!(ns_per_px_ >= kMinNsPerPx)) ns_per_px_ = kMinNsPerPx;  // also catches NaN
  if (!limited_) return;
  const int64_t margin = marginOf(limit_end_ - limit_start_);
  const int64_t lo = limit_start_ - margin;
  const int64_t hi = limit_end_ + margin;
  const double coarsest = std::max(kMinNsPerPx, static_cast<double>(hi - lo) / width_);
  ns_per_px_ = std::min(ns_per_px_, coarsest);
  const int64_t shown = static_cast<int64_t>(std::llround(ns_per_px_ * width_));
  start_ = std::clamp(start_, lo, std::max(lo, hi - shown));
}

int64_t TimeScale::tickStep() const {
  const double wanted = kTickSpacingPx * ns_per_px_;
  int64_t decade = 1;
  while (true) {
    for (int64_t mantissa : {1, 2, 5}) {
      if (static_cast<double>(decade * mantissa) >= wanted) return decade * mantissa;
    }
    if (decade > (int64_t{1} << 58) / 10) return decade * 10;
    decade *= 10;
  }
}

std::vector<TimeScale::Tick> TimeScale::ticks(int64_t origin) const {
  const int64_t step = tickStep();
  std::vector<Tick> out;
  // The first multiple of step (relative to origin) at or after the view start.
  int64_t rel = start_ - origin;
  int64_t first = rel >= 0 ? (rel + step - 1) / step * step : -((-rel) / step * step);
  for (int64_t t = first + origin; t <= end(); t += step) {
    out.push_back({t, x(t), formatTick(t - origin, step)});
  }
  return out;
}

}  // namespace damscope
