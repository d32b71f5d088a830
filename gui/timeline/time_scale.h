// The timeline's time <-> pixel mapping, a value class tested without a
// window (KDAB Hotspot's habit). A view is its start (ns on the trace's clock),
// a scale (ns per pixel) and a width in pixels. Positions are computed from
// int64 differences against the view start, never from absolute times in
// double: a trace stamped near a 1e9 s epoch (ns values ~1e18, beyond a
// double's 2^53 exact integers) would otherwise jitter by hundreds of ns.
//
// Zoom and pan are clamped: at the finest, kMinNsPerPx (1 ns per pixel: a
// trace's clock resolution, nothing finer can be shown); at the coarsest, the
// trace's span plus a margin on each side fills the width.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace damscope {

class TimeScale {
 public:
  static constexpr double kMinNsPerPx = 1.0;
  // Fraction of the trace's span left free on each side at fit and allowed
  // beyond the trace when panning.
  static constexpr double kMarginFraction = 0.02;
  // Target distance between ruler ticks, in pixels.
  static constexpr double kTickSpacingPx = 100.0;

  TimeScale() = default;

  int64_t start() const { return start_; }
  // The time at the view's right edge.
  int64_t end() const { return ts(width_); }
  double nsPerPx() const { return ns_per_px_; }
  int width() const { return width_; }

  // The trace's extent: bounds zoom-out and panning. Until set, the finest
  // limit and the trace time range (±2^62 ns, trace/tables.h) apply.
  void setLimits(int64_t trace_start, int64_t trace_end);
  void setWidth(int width_px);
  // Sets the view directly (then clamps).
  void setView(int64_t start_ns, double ns_per_px);

  // Pixel offset of `ts` from the view's left edge (may lie outside [0, width]).
  double x(int64_t ts) const { return static_cast<double>(ts - start_) / ns_per_px_; }
  // The time at pixel offset `x`.
  int64_t ts(double x) const;

  // Zooms by `factor` (> 1 zooms in) keeping the time under pixel `x` put.
  void zoom(double factor, double x);
  // Moves the view by `dx` pixels (positive: later times come into view).
  void pan(double dx);
  // Shows [t0, t1) across the width (empty spans show kMinNsPerPx).
  void fit(int64_t t0, int64_t t1);
  // Shows the whole trace with its margin.
  void fitAll();

  struct Tick {
    int64_t ts = 0;
    double x = 0;
    std::string label;  // relative to the origin given to ticks(), e.g. "1.5 ms"
  };
  // The "nice" step (1, 2 or 5 x 10^k ns) closest above kTickSpacingPx pixels.
  int64_t tickStep() const;
  // Ticks across the view, labelled relative to `origin` (the trace start) in
  // one unit for the whole ruler, the largest (s, ms, µs, ns) its largest
  // offset reaches, with the decimals the step needs to be exact ("757.2 ms",
  // "1.5002 s", "250 µs").
  std::vector<Tick> ticks(int64_t origin) const;

 private:
  void clamp();

  int64_t start_ = 0;
  double ns_per_px_ = 1000.0;
  int width_ = 1;
  bool limited_ = false;
  int64_t limit_start_ = 0;
  int64_t limit_end_ = 0;
};

}  // namespace damscope
