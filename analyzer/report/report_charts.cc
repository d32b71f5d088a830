// The report's SVG charts: see report_charts.h.
#include "analyzer/report/report_charts.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "analyzer/report/markup.h"
#include "analyzer/report/result_words.h"
#include "analyzer/report/roofline_labels.h"
#include "analyzer/report/text_format.h"
#include "analyzer/report/vocabulary.h"

namespace damscope {
namespace {

constexpr double kWidth = 1000;  // every chart's viewBox width; the page scales it

std::string rect(double x, double y, double w, double h, std::string_view fill,
                 const std::string& title) {
  return fmt::format(
      "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.2f}\" height=\"{:.1f}\" fill=\"{}\">"
      "<title>{}</title></rect>",
      x, y, std::max(w, 0.0), h, fill, htmlEscape(title));
}

std::string text(double x, double y, std::string_view anchor, const std::string& body,
                 std::string_view cls = "") {
  return fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"{}\"{}>{}</text>", x, y, anchor,
                     cls.empty() ? "" : fmt::format(" class=\"{}\"", cls), htmlEscape(body));
}

std::string line(double x1, double y1, double x2, double y2, std::string_view cls) {
  return fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" class=\"{}\"/>",
                     x1, y1, x2, y2, cls);
}

std::string svgOpen(double height, std::string_view label) {
  return fmt::format(
      "<svg viewBox=\"0 0 {:.0f} {:.0f}\" width=\"100%\" role=\"img\" aria-label=\"{}\" "
      "xmlns=\"http://www.w3.org/2000/svg\">",
      kWidth, height, htmlEscape(label));
}

// Tick values for a linear axis from 0 to `max`: about four round steps.
std::vector<double> linearTicks(double max) {
  if (!(max > 0) || !std::isfinite(max)) return {0};
  const double raw = max / 4;
  const double mag = std::pow(10, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (mag * m >= raw) {
      step = mag * m;
      break;
    }
  }
  std::vector<double> ticks;
  for (double v = 0; v <= max * 1.0001; v += step) ticks.push_back(v);
  return ticks;
}

std::string siNumber(double v) {
  const char* prefixes[] = {"", "k", "M", "G", "T", "P", "E"};
  int i = 0;
  while (std::fabs(v) >= 1000 && i < 6) {
    v /= 1000;
    ++i;
  }
  if (i == 0 && v != 0 && std::fabs(v) < 1) return fmt::format("{:g}", v);
  return fmt::format("{:g}{}", v, prefixes[i]);
}

}  // namespace

std::string scorecardBarSvg(const Scorecard& card) {
  constexpr double kHeight = 34;
  std::string out = svgOpen(kHeight, "D·A·M scorecard");
  const double total = static_cast<double>(card.total());
  double x = 0;
  for (size_t a = 0; a < kAxisCount; ++a) {
    const Axis axis = static_cast<Axis>(a);
    if (!(total > 0) || card.ns[a] <= 0) continue;
    const double w = kWidth * static_cast<double>(card.ns[a]) / total;
    out += rect(x, 0, w, kHeight, axisColour(axis),
                fmt::format("{}: {} ({})", axisLabel(axis), percent(card.pct(axis)),
                            formatDuration(static_cast<double>(card.ns[a]))));
    // About 7 units a character at the chart's 12 px: a label goes inside
    // its segment only where it fits, else just the share, else nothing.
    const std::string label = fmt::format("{} {}", axisLabel(axis), percent(card.pct(axis)));
    if (w > 7.0 * static_cast<double>(label.size()) + 12) {
      out += text(x + w / 2, kHeight / 2 + 5, "middle", label, "on-bar");
    } else if (w > 44) {
      out += text(x + w / 2, kHeight / 2 + 5, "middle", fmt::format("{:.0f} %", card.pct(axis)),
                  "on-bar");
    }
    x += w;
  }
  return out + "</svg>";
}

std::string stepBarsSvg(const RankResult& r) {
  if (!r.scorecard || r.scorecard->steps.empty()) return "";
  const std::vector<Scorecard>& steps = r.scorecard->steps;
  constexpr double kHeight = 240, kLeft = 70, kRight = 10, kTop = 10, kBottom = 36;
  const double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  int64_t max_total = 0;
  for (const Scorecard& s : steps) max_total = std::max(max_total, s.total());
  if (max_total <= 0) return "";
  std::string out = svgOpen(kHeight, "Scorecard per step");
  for (double v : linearTicks(static_cast<double>(max_total))) {
    const double y = kTop + plot_h * (1 - v / static_cast<double>(max_total));
    out += line(kLeft, y, kWidth - kRight, y, "grid");
    out += text(kLeft - 6, y + 4, "end", formatDuration(v), "tick");
  }
  const double slot = plot_w / static_cast<double>(steps.size());
  const double bar = std::max(1.0, slot * 0.78);
  const size_t label_every = std::max<size_t>(1, (steps.size() + 19) / 20);
  for (size_t i = 0; i < steps.size(); ++i) {
    const Scorecard& s = steps[i];
    const double x = kLeft + slot * static_cast<double>(i) + (slot - bar) / 2;
    const std::string step_name = i < r.steps.size() ? r.steps[i].name : fmt::format("{}", i);
    double y = kTop + plot_h;
    for (size_t a = 0; a < kAxisCount; ++a) {
      if (s.ns[a] <= 0) continue;
      const double h = plot_h * static_cast<double>(s.ns[a]) / static_cast<double>(max_total);
      y -= h;
      out += rect(x, y, bar, h, axisColour(static_cast<Axis>(a)),
                  fmt::format("{}: {} {} ({})", step_name, axisLabel(static_cast<Axis>(a)),
                              formatDuration(static_cast<double>(s.ns[a])),
                              percent(s.pct(static_cast<Axis>(a)))));
    }
    const bool analysed = i < r.steps.size() && r.steps[i].in_window;
    if (i % label_every == 0) {
      const std::string label =
          i < r.steps.size() ? fmt::format("{}", r.steps[i].number) : fmt::format("{}", i);
      out += text(x + bar / 2, kHeight - kBottom + 16, "middle", label,
                  analysed ? "tick" : "tick faint");
    }
  }
  out += text(kLeft + plot_w / 2, kHeight - 4, "middle", "step", "tick");
  return out + "</svg>";
}

std::string stepStripSvg(const StepStrip& strip) {
  constexpr double kLeft = 96, kRight = 10, kLane = 18, kGap = 6, kRuler = 28;
  const double plot_w = kWidth - kLeft - kRight;
  const double lanes_h = static_cast<double>(strip.rows.size()) * (kLane + kGap);
  const double height = lanes_h + kLane + kGap + kRuler;
  const double scale = strip.dur > 0 ? plot_w / static_cast<double>(strip.dur) : 0;
  std::string out = svgOpen(height, "Timeline of a representative step");
  double y = 0;
  for (const StripRow& row : strip.rows) {
    out +=
        text(kLeft - 8, y + kLane - 5, "end", fmt::format("{} {}", strip.lane, row.stream), "tick");
    out += rect(kLeft, y, plot_w, kLane, "#f3f4f6", "");
    for (const StripSpan& s : row.spans) {
      std::string title = fmt::format("{}  {}  at +{}", clipText(s.name, 80),
                                      formatDuration(static_cast<double>(s.dur)),
                                      formatDuration(static_cast<double>(s.ts)));
      if (s.events > 1) title += fmt::format("  ({} events merged)", s.events);
      out += rect(kLeft + scale * static_cast<double>(s.ts), y,
                  std::max(0.6, scale * static_cast<double>(s.dur)), kLane,
                  categoryColour(s.category), title);
    }
    y += kLane + kGap;
  }
  out += text(kLeft - 8, y + kLane - 5, "end", "bubbles", "tick");
  out += rect(kLeft, y, plot_w, kLane, "#f3f4f6", "");
  for (const StripBubble& b : strip.bubbles) {
    out += rect(kLeft + scale * static_cast<double>(b.ts), y,
                std::max(0.6, scale * static_cast<double>(b.dur)), kLane, causeColour(b.cause),
                fmt::format("idle {}: {} at +{}", causeLabel(b.cause),
                            formatDuration(static_cast<double>(b.dur)),
                            formatDuration(static_cast<double>(b.ts))));
  }
  y += kLane + kGap;
  out += line(kLeft, y, kLeft + plot_w, y, "axis");
  for (double v : linearTicks(static_cast<double>(strip.dur))) {
    const double x = kLeft + scale * v;
    out += line(x, y, x, y + 5, "axis");
    out += text(x, y + 18, "middle", formatDuration(v), "tick");
  }
  return out + "</svg>";
}

std::string rooflineSvg(const RooflineReport& roofline, std::string_view memory) {
  std::vector<const RooflinePoint*> points;
  for (const RooflinePoint& p : roofline.kernels) {
    if (p.intensity && *p.intensity > 0 && p.achieved_flops_per_s > 0 &&
        std::isfinite(*p.intensity) && std::isfinite(p.achieved_flops_per_s)) {
      points.push_back(&p);
    }
  }
  if (points.empty()) return "";
  double xmin = *points.front()->intensity, xmax = xmin;
  double ymin = points.front()->achieved_flops_per_s, ymax = ymin;
  int64_t max_time = 1;
  for (const RooflinePoint* p : points) {
    xmin = std::min(xmin, *p->intensity);
    xmax = std::max(xmax, *p->intensity);
    ymin = std::min(ymin, p->achieved_flops_per_s);
    ymax = std::max(ymax, p->achieved_flops_per_s);
    max_time = std::max(max_time, p->time_ns);
  }
  // Room on both sides of the ridge and below the roofs: at least a decade
  // beyond each, so the bandwidth slope and the flat roof both show.
  for (const RooflineCeiling& c : roofline.ceilings) {
    ymax = std::max(ymax, c.peak_flops_per_s);
    ymin = std::min(ymin, c.peak_flops_per_s / 1000);
    if (c.ridge_flops_per_byte) {
      xmin = std::min(xmin, *c.ridge_flops_per_byte / 10);
      xmax = std::max(xmax, *c.ridge_flops_per_byte * 10);
    }
  }
  const double lx0 = std::floor(std::log10(xmin)), lx1 = std::ceil(std::log10(xmax) + 0.01);
  const double ly0 = std::floor(std::log10(ymin)), ly1 = std::ceil(std::log10(ymax) + 0.05);
  constexpr double kHeight = 460, kLeft = 78, kRight = 20, kTop = 14, kBottom = 46;
  const double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  auto px = [&](double v) { return kLeft + plot_w * (std::log10(v) - lx0) / (lx1 - lx0); };
  auto py = [&](double v) { return kTop + plot_h * (1 - (std::log10(v) - ly0) / (ly1 - ly0)); };

  std::string out = svgOpen(kHeight, "Roofline");
  for (double e = lx0; e <= lx1; ++e) {
    const double x = px(std::pow(10, e));
    out += line(x, kTop, x, kTop + plot_h, "grid");
    out += text(x, kTop + plot_h + 16, "middle", siNumber(std::pow(10, e)), "tick");
  }
  for (double e = ly0; e <= ly1; ++e) {
    const double y = py(std::pow(10, e));
    out += line(kLeft, y, kLeft + plot_w, y, "grid");
    out += text(kLeft - 6, y + 4, "end", siNumber(std::pow(10, e)), "tick");
  }
  out +=
      text(kLeft + plot_w / 2, kHeight - 6, "middle", "arithmetic intensity (FLOP/byte)", "tick");
  out += fmt::format(
      "<text transform=\"translate(14 {:.1f}) rotate(-90)\" text-anchor=\"middle\" "
      "class=\"tick\">achieved FLOP/s</text>",
      kTop + plot_h / 2);

  // The roofs: min(peak, bandwidth x AI) for each peak, one roof for the
  // precisions that share it (roofline_labels.h).
  const double x_lo = std::pow(10, lx0), x_hi = std::pow(10, lx1);
  const double y_lo = std::pow(10, ly0);
  // The labels' boxes, for moving them apart: SVG text has no measured
  // width here, so a character of the 11.5 px label font is taken as 6.4 px
  // wide (DejaVu Sans' mean advance) and a line as 13 px, 11 above the
  // baseline.
  constexpr double kCharPx = 6.4, kLinePx = 13, kAscentPx = 11;
  struct Label {
    std::string body;
    bool anchor_end = false;
  };
  std::vector<Label> labels;
  std::vector<LabelBox> boxes;
  auto addLabel = [&](std::string body, double x, double baseline, bool anchor_end, int away) {
    const double width = kCharPx * static_cast<double>(body.size());
    boxes.push_back({{anchor_end ? x - width : x, baseline - kAscentPx, width, kLinePx}, away});
    labels.push_back({std::move(body), anchor_end});
  };
  for (const PeakGroup& g : peakGroups(roofline.ceilings)) {
    const double ridge = g.ridge_flops_per_byte.value_or(x_lo);
    out += line(px(std::max(ridge, x_lo)), py(g.peak_flops_per_s), px(x_hi), py(g.peak_flops_per_s),
                "roof");
    addLabel(peakLabel(roofline.ceilings, g), px(x_hi) - 4, py(g.peak_flops_per_s) - 5, true, +1);
    if (roofline.bandwidth_bytes_per_s && g.ridge_flops_per_byte) {
      const double bw = *roofline.bandwidth_bytes_per_s;
      const double start = std::max(x_lo, y_lo / bw);
      if (start < ridge) out += line(px(start), py(bw * start), px(ridge), py(bw * ridge), "roof");
      out += line(px(ridge), py(g.peak_flops_per_s), px(ridge), kTop + plot_h, "ridge");
      addLabel(ridgeLabel(ridge), px(ridge) + 4, kTop + plot_h - 6, false, -1);
    }
  }
  // From the top down: a lower peak's label moves below its roof, a ridge
  // label up its line.
  std::vector<size_t> order(labels.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return boxes[a].box.y < boxes[b].box.y; });
  std::vector<LabelBox> ordered;
  ordered.reserve(order.size());
  for (const size_t i : order) ordered.push_back(boxes[i]);
  const std::vector<std::optional<LabelRect>> placed =
      separateLabels(ordered, {kLeft, kTop, plot_w, plot_h});
  for (size_t k = 0; k < order.size(); ++k) {
    if (!placed[k]) continue;
    const Label& l = labels[order[k]];
    out += text(l.anchor_end ? placed[k]->x + placed[k]->width : placed[k]->x,
                placed[k]->y + kAscentPx, l.anchor_end ? "end" : "start", l.body, "roof-label");
  }
  if (roofline.bandwidth_bytes_per_s) {
    const double bw = *roofline.bandwidth_bytes_per_s;
    const double x = std::max(x_lo, y_lo / bw) * 1.6;
    out += text(px(x) + 6, py(bw * x) - 8, "start", fmt::format("{} {:.0f} GB/s", memory, bw / 1e9),
                "roof-label");
  }
  // Largest first, so small circles stay on top of large ones.
  for (size_t i = 0; i < points.size(); ++i) {
    const RooflinePoint& p = *points[i];
    const double r =
        3 + 13 * std::sqrt(static_cast<double>(p.time_ns) / static_cast<double>(max_time));
    out += fmt::format(
        "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.1f}\" fill=\"{}\" class=\"point\">"
        "<title>{}</title></circle>",
        px(*p.intensity), py(p.achieved_flops_per_s), r, categoryColour(p.category),
        htmlEscape(fmt::format("#{} {}: {:.1f} FLOP/byte, {}, {} of kernel time ({}), {}", i + 1,
                               clipText(p.name, 120), *p.intensity,
                               flopRate(p.achieved_flops_per_s),
                               formatDuration(static_cast<double>(p.time_ns)), toText(p.category),
                               metricSourceWords(p.source))));
    if (i < 10) {
      out += text(px(*p.intensity) + r + 2, py(p.achieved_flops_per_s) + 4, "start",
                  fmt::format("{}", i + 1), "point-label");
    }
  }
  return out + "</svg>";
}

}  // namespace damscope
