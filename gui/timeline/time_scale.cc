// The timeline's time <-> pixel mapping: see time_scale.h.
#include "gui/timeline/time_scale.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "base/duration_sum.h"
#include "trace/tables.h"

namespace damscope {
namespace {

int64_t marginOf(int64_t span) {
  return std::max<int64_t>(
      1, static_cast<int64_t>(static_cast<double>(span) * TimeScale::kMarginFraction));
}

// Trace times lie strictly inside ±2^62 ns (trace/tables.h). A view kept inside
// that range takes every difference in int64, even across the whole range: a
// trace spanning nearly 2^63 ns plus its margins once overflowed hi - lo.
int64_t inTraceRange(int64_t t) {
  return std::clamp(t, -kTimeLimitNs + 1, kTimeLimitNs - 1);
}

// The time `px` pixels from the view start, as an offset that fits int64 for
// any x (a pointer far outside the widget, a scale of 1e300): the largest
// double below 2^63 either way. Callers add it saturating.
int64_t offsetNs(double px, double ns_per_px) {
  constexpr auto kLimit = static_cast<double>(std::numeric_limits<int64_t>::max() - 1023);
  return std::llround(std::clamp(px * ns_per_px, -kLimit, kLimit));
}

// A tick's label in the ruler's unit: the largest of s, ms, µs and ns that
// the ruler's largest offset reaches, with as many decimals as the step needs
// to stay exact (steps are 1, 2 or 5 x 10^k ns), so 757.2 ms reads as
// "757.2 ms" rather than "757200 µs", and its neighbours as "757.4 ms".
struct TickUnit {
  int64_t ns;
  const char* name;
};
constexpr TickUnit kTickUnits[] = {
    {1'000'000'000, "s"}, {1'000'000, "ms"}, {1'000, "µs"}, {1, "ns"}};

TickUnit tickUnit(int64_t largest_offset) {
  for (const TickUnit& unit : kTickUnits) {
    if (largest_offset >= unit.ns) return unit;
  }
  return kTickUnits[3];
}

int tickDecimals(int64_t unit_ns, int64_t step) {
  int decimals = 0;
  for (int64_t exact = unit_ns; exact > 1 && step % exact != 0; exact /= 10) ++decimals;
  return decimals;
}

std::string formatTick(int64_t rel, int64_t step, const TickUnit& unit) {
  const int decimals = tickDecimals(unit.ns, step);
  const int64_t magnitude = rel < 0 ? -rel : rel;
  std::string text = std::to_string(magnitude / unit.ns);
  if (decimals > 0) {
    std::string fraction = std::to_string(magnitude % unit.ns + unit.ns).substr(1);
    text += "." + fraction.substr(0, static_cast<size_t>(decimals));
  }
  return (rel < 0 ? "-" : "") + text + " " + unit.name;
}

}  // namespace

void TimeScale::setLimits(int64_t trace_start, int64_t trace_end) {
  limited_ = true;
  limit_start_ = inTraceRange(trace_start);
  limit_end_ = std::max(inTraceRange(trace_end), limit_start_ + 1);
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
  return inTraceRange(addDurations(start_, offsetNs(x, ns_per_px_)));
}

void TimeScale::zoom(double factor, double x) {
  if (!(factor > 0)) return;
  const int64_t anchor = ts(x);
  ns_per_px_ /= factor;
  clamp();
  // Put the anchor back under x, then clamp the start only.
  start_ = addDurations(anchor, -offsetNs(x, ns_per_px_));
  clamp();
}

void TimeScale::pan(double dx) {
  start_ = addDurations(start_, offsetNs(dx, ns_per_px_));
  clamp();
}

void TimeScale::fit(int64_t t0, int64_t t1) {
  t0 = inTraceRange(t0);
  t1 = inTraceRange(t1);
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
  // Unlimited, the view stays inside the trace range; limited, inside the
  // trace's extent and its margins, clipped to that range.
  int64_t lo = -kTimeLimitNs + 1;
  int64_t hi = kTimeLimitNs - 1;
  if (limited_) {
    const int64_t margin = marginOf(limit_end_ - limit_start_);
    lo = std::max(lo, limit_start_ - margin);
    hi = std::min(hi, limit_end_ + margin);
  }
  const double coarsest = std::max(kMinNsPerPx, static_cast<double>(hi - lo) / width_);
  ns_per_px_ = std::min(ns_per_px_, coarsest);
  const int64_t shown = offsetNs(width_, ns_per_px_);
  start_ = std::clamp(start_, lo, std::max(lo, hi - shown));
}

int64_t TimeScale::tickStep() const {
  const double wanted = kTickSpacingPx * ns_per_px_;
  // Up to 5e18 ns: the trace range is +-2^62 ns (9.2e18 ns across), so even
  // a view of all of it at one pixel gets two or three ticks; 1e19 would not
  // fit in int64.
  constexpr int64_t kLargestDecade = 1'000'000'000'000'000'000;
  int64_t decade = 1;
  while (true) {
    for (int64_t mantissa : {1, 2, 5}) {
      if (static_cast<double>(decade * mantissa) >= wanted) return decade * mantissa;
    }
    if (decade == kLargestDecade) return 5 * decade;
    decade *= 10;
  }
}

std::vector<TimeScale::Tick> TimeScale::ticks(int64_t origin) const {
  const int64_t step = tickStep();
  std::vector<Tick> out;
  // The first multiple of step (relative to origin) at or after the view
  // start; none when that lies past int64, beyond the view.
  origin = inTraceRange(origin);
  const int64_t rel = start_ - origin;
  int64_t first = rel / step * step;  // rounds toward zero: up when rel < 0
  if (first < rel && __builtin_add_overflow(first, step, &first)) return out;
  const int64_t last = (end() - origin) / step * step;
  const TickUnit unit = tickUnit(std::max(std::abs(first), std::abs(last)));
  for (int64_t t = first + origin; t <= end();) {
    out.push_back({t, x(t), formatTick(t - origin, step, unit)});
    if (__builtin_add_overflow(t, step, &t)) break;  // the next tick is past int64
  }
  return out;
}

}  // namespace damscope
