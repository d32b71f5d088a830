// The roofline chart's data: see roofline_points.h.
#include "gui/charts/roofline_points.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <limits>

#include <fmt/format.h>

#include "analyzer/report/result_words.h"

namespace damscope {
namespace {

bool positive(double v) {
  return std::isfinite(v) && v > 0;
}

}  // namespace

DecadeRange decadesCovering(double lo, double hi) {
  // The epsilon keeps 1000 at 10^3 rather than 10^2.9999999 rounding down a
  // decade or up past it.
  constexpr double kEps = 1e-9;
  double e0 = std::floor(std::log10(lo) + kEps);
  double e1 = std::ceil(std::log10(hi) - kEps);
  if (e1 <= e0) e1 = e0 + 1;
  return {std::pow(10.0, e0), std::pow(10.0, e1)};
}

double markerDiameterPx(int64_t time_ns, int64_t max_time_ns) {
  if (max_time_ns <= 0 || time_ns <= 0) return kMinDiameterPx;
  const double share =
      std::min(1.0, static_cast<double>(time_ns) / static_cast<double>(max_time_ns));
  // Area ∝ time: the diameter grows with the square root of the share.
  return std::max(kMinDiameterPx, kMaxDiameterPx * std::sqrt(share));
}

RooflinePlot rooflinePlot(const RooflineReport& roofline) {
  RooflinePlot plot;
  int64_t max_time = 0;
  for (const RooflinePoint& p : roofline.kernels) {
    if (p.intensity && positive(*p.intensity) && positive(p.achieved_flops_per_s)) {
      max_time = std::max(max_time, p.time_ns);
    }
  }
  std::array<bool, kKernelCategoryCount> seen{};
  double xlo = std::numeric_limits<double>::infinity(), xhi = 0;
  double ylo = std::numeric_limits<double>::infinity(), yhi = 0;
  for (size_t i = 0; i < roofline.kernels.size(); ++i) {
    const RooflinePoint& p = roofline.kernels[i];
    if (!p.intensity || !positive(*p.intensity) || !positive(p.achieved_flops_per_s)) {
      ++plot.left_out;
      continue;
    }
    plot.markers.push_back(
        {i, *p.intensity, p.achieved_flops_per_s, markerDiameterPx(p.time_ns, max_time)});
    seen[static_cast<size_t>(p.category)] = true;
    xlo = std::min(xlo, *p.intensity);
    xhi = std::max(xhi, *p.intensity);
    ylo = std::min(ylo, p.achieved_flops_per_s);
    yhi = std::max(yhi, p.achieved_flops_per_s);
  }
  for (size_t c = 0; c < kKernelCategoryCount; ++c) {
    if (seen[c]) plot.categories.push_back(static_cast<KernelCategory>(c));
  }
  if (plot.markers.empty()) return plot;

  // Room on both sides of each ridge and below each roof, as the report
  // leaves it: a decade beyond the ridge and three below the peak, so the
  // bandwidth slope and the flat roof both show.
  const std::optional<double> bw = roofline.bandwidth_bytes_per_s;
  const bool have_bw = bw && positive(*bw);
  double top_ridge = 0;
  for (const RooflineCeiling& c : roofline.ceilings) {
    if (!positive(c.peak_flops_per_s)) continue;
    yhi = std::max(yhi, c.peak_flops_per_s);
    ylo = std::min(ylo, c.peak_flops_per_s / 1000);
    if (c.ridge_flops_per_byte && positive(*c.ridge_flops_per_byte)) {
      xlo = std::min(xlo, *c.ridge_flops_per_byte / 10);
      xhi = std::max(xhi, *c.ridge_flops_per_byte * 10);
      top_ridge = std::max(top_ridge, *c.ridge_flops_per_byte);
    }
  }
  plot.x = decadesCovering(xlo, xhi);
  plot.y = decadesCovering(ylo, yhi);

  for (const PeakGroup& g : peakGroups(roofline.ceilings)) {
    PeakRoof roof{g, {plot.x.min, g.peak_flops_per_s}, {plot.x.max, g.peak_flops_per_s}, {}};
    if (g.ridge_flops_per_byte && positive(*g.ridge_flops_per_byte)) {
      roof.from.setX(std::max(plot.x.min, *g.ridge_flops_per_byte));
      if (have_bw) roof.ridge = QPointF(*g.ridge_flops_per_byte, g.peak_flops_per_s);
    }
    plot.peak_roofs.push_back(std::move(roof));
  }
  if (have_bw) {
    // From where bandwidth x AI leaves the bottom edge to the highest ridge;
    // without a ridge, until it leaves the plot at the top or right edge.
    const double start = std::max(plot.x.min, plot.y.min / *bw);
    const double end = top_ridge > 0 ? top_ridge : std::min(plot.x.max, plot.y.max / *bw);
    if (start < end) plot.bandwidth_roof = {{start, *bw * start}, {end, *bw * end}};
  }
  return plot;
}

std::optional<size_t> markerAt(const std::vector<QPointF>& centres,
                               const std::vector<double>& diameters, QPointF at,
                               double min_hit_px) {
  std::optional<size_t> best;
  double best_d2 = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < centres.size() && i < diameters.size(); ++i) {
    const double dx = centres[i].x() - at.x(), dy = centres[i].y() - at.y();
    const double d2 = dx * dx + dy * dy;
    const double r = std::max(min_hit_px, diameters[i] / 2);
    if (d2 <= r * r && d2 < best_d2) {
      best = i;
      best_d2 = d2;
    }
  }
  return best;
}

const char* memoryWord(DeviceKind kind) {
  return kind == DeviceKind::kCpu ? "DRAM" : "HBM";
}

RateUnit rateUnitFor(double max_flops_per_s) {
  // Smallest first: the first unit in which the top of the axis is at most 10^4.
  static constexpr RateUnit kUnits[] = {{1, "FLOP/s"},    {1e3, "kFLOP/s"},  {1e6, "MFLOP/s"},
                                        {1e9, "GFLOP/s"}, {1e12, "TFLOP/s"}, {1e15, "PFLOP/s"}};
  for (const RateUnit& u : kUnits) {
    if (max_flops_per_s / u.scale <= 1e4 * (1 + 1e-9)) return u;
  }
  return kUnits[std::size(kUnits) - 1];
}

std::string rateWords(double flops_per_s) {
  if (!std::isfinite(flops_per_s)) return "n/a";
  static constexpr struct {
    double scale;
    const char* unit;
  } kUnits[] = {
      {1e15, "PFLOP/s"}, {1e12, "TFLOP/s"}, {1e9, "GFLOP/s"}, {1e6, "MFLOP/s"}, {1e3, "kFLOP/s"}};
  for (const auto& u : kUnits) {
    if (std::fabs(flops_per_s) >= u.scale) {
      const double v = flops_per_s / u.scale;
      return v >= 100 ? fmt::format("{:.0f} {}", v, u.unit) : fmt::format("{:.3g} {}", v, u.unit);
    }
  }
  return fmt::format("{:.3g} FLOP/s", flops_per_s);
}

std::string rooflineTitle(const RooflineReport& roofline, size_t placed) {
  const std::string kernels = placed == 1 ? "1 kernel" : fmt::format("{} kernels", placed);
  std::string title = fmt::format("Roofline of {}: {} of computation kernel time", kernels,
                                  percent(roofline.time_with_work_pct));
  // Rounded to 100.0 % with a sliver left: the rest is named only when it shows.
  if (roofline.time_with_work_pct < 99.95) title += " (the rest has no FLOP or byte counts)";
  return title;
}

}  // namespace damscope
