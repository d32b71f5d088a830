// What the roofline chart draws, prepared from the result model without a
// window: the kernels that can sit on log-log axes, the marker size of each,
// the axes' ranges and the roofs as polylines. The figures themselves (AI,
// achieved FLOP/s, ceilings, ridges) are the roofline analysis's
// (analyzer/analyses/roofline.h); nothing here recomputes them.
//
// Qt Charts 6.4 draws nothing of a series on a log axis once one of its points
// is <= 0, so kernels without a positive, finite intensity and FLOP rate are
// left out here and counted, for the chart to say so.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <QPointF>

#include "analyzer/report/roofline_labels.h"
#include "analyzer/result/analysis_result.h"

namespace damscope {

// A range of a log axis from one power of ten to a higher one, so the axis's
// ticks fall on whole decades.
struct DecadeRange {
  double min = 1;   // a power of ten
  double max = 10;  // a power of ten, above min
  bool contains(double v) const { return v >= min && v <= max; }
};

// The smallest whole-decade range holding [lo, hi]; lo and hi must be > 0.
// A value on a power of ten is its own bound (100 -> [100, ...]).
DecadeRange decadesCovering(double lo, double hi);

// Marker diameters in px: the area is proportional to the kernel's time, the
// largest kernel gets kMaxDiameterPx, and none is smaller than kMinDiameterPx
// so a short kernel stays visible and clickable (the report's circles span
// r = 3 .. 16 px the same way, analyzer/report/report_charts.cc).
inline constexpr double kMinDiameterPx = 7;
inline constexpr double kMaxDiameterPx = 34;
double markerDiameterPx(int64_t time_ns, int64_t max_time_ns);

struct RooflineMarker {
  size_t kernel = 0;       // index into RooflineReport::kernels
  double intensity = 0;    // FLOP/byte, > 0
  double flops_per_s = 0;  // achieved, > 0
  double diameter_px = 0;
};

// One peak's roof: flat at its peak from its ridge (or the left edge) to the
// right edge, and the ridge point where it meets the bandwidth roof. Ceilings
// with the same peak share one roof (peakGroups, roofline_labels.h).
struct PeakRoof {
  PeakGroup group;  // the ceilings at this peak
  QPointF from;     // (FLOP/byte, FLOP/s)
  QPointF to;
  std::optional<QPointF> ridge;
};

struct RooflinePlot {
  std::vector<RooflineMarker> markers;  // in RooflineReport::kernels' order, largest time first
  int64_t left_out = 0;                 // kernel points without positive AI and FLOP/s
  DecadeRange x;                        // arithmetic intensity, FLOP/byte
  DecadeRange y;                        // FLOP/s
  // The bandwidth roof, bandwidth x AI, from the bottom edge to the highest
  // ridge (or the plot's edge without one); empty without a bandwidth.
  std::vector<QPointF> bandwidth_roof;
  std::vector<PeakRoof> peak_roofs;        // one per positive peak, in the ceilings' order
  std::vector<KernelCategory> categories;  // of the markers, in the enum's order
  bool empty() const { return markers.empty(); }
};

// The plot of `roofline`'s kernel points. With no marker the ranges are still
// valid (1..10) and the roofs empty: the chart shows why instead.
RooflinePlot rooflinePlot(const RooflineReport& roofline);

// The marker under `at` (px): the nearest centre among those whose disc, at
// least `min_hit_px` in radius, holds `at`; empty when none does. `centres`
// and `diameters` are in px and index-aligned.
std::optional<size_t> markerAt(const std::vector<QPointF>& centres,
                               const std::vector<double>& diameters, QPointF at,
                               double min_hit_px = 5);

// The chart's title: how many kernels are placed and what share of the
// computation kernel time they hold (RooflineReport::time_with_work_pct), so
// a roofline built from 0.1 % of the time says so where it is read first,
// not only in the caption: "Roofline of 12 kernels: 0.1 % of computation
// kernel time (the rest has no FLOP or byte counts)".
std::string rooflineTitle(const RooflineReport& roofline, size_t placed);

// The name of the memory roof: "DRAM" on a CPU run, "HBM" on a GPU.
const char* memoryWord(DeviceKind kind);

// The unit the FLOP/s axis counts in, so its decade labels stay short
// ("0.1" .. "1000" TFLOP/s rather than 1e+11 .. 1e+15): the smallest unit in
// which `max_flops_per_s` is at most 10^4 (PFLOP/s above that).
struct RateUnit {
  double scale = 1;  // FLOP/s per unit
  const char* name = "FLOP/s";
};
RateUnit rateUnitFor(double max_flops_per_s);

// "1.2 TFLOP/s", "340 GFLOP/s", "12 MFLOP/s": an axis-free rate for labels.
std::string rateWords(double flops_per_s);

}  // namespace damscope
