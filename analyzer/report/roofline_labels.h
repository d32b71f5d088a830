// What a drawing of the roofline labels, the same in every front end (the
// report's SVG, the GUI's chart): one roof per peak, however many precisions
// share it (the A100's fp64 tensor-core and fp32 peaks are both 19.5
// TFLOP/s: two roofs drawn on one line had their labels printed over each
// other), and the labels nudged apart where they would overlap (the V100's
// ridges at 8.7 and 17.4 FLOP/B put their labels on one spot).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analyzer/result/analysis_result.h"

namespace damscope {

// The ceilings with one peak: their indices into RooflineReport::ceilings,
// in its order; the first one's ridge is the roof's.
struct PeakGroup {
  std::vector<size_t> ceilings;
  double peak_flops_per_s = 0;
  std::optional<double> ridge_flops_per_byte;
};

// One group per positive peak, in the order the peaks first appear.
std::vector<PeakGroup> peakGroups(const std::vector<RooflineCeiling>& ceilings);

// "fp64/fp32": the precisions of a group's ceilings (PeakGroup::ceilings).
std::string peakNames(const std::vector<RooflineCeiling>& ceilings,
                      const std::vector<size_t>& group);

// The roofs' labels, worded once for every drawing: "fp64/fp32 peak 19.5
// TFLOP/s" (flopRate, as the text and JSON outputs write a rate) and "ridge
// 8.67 FLOP/B" (three significant digits: 9 and 17 for the V100's 8.67 and
// 17.4 read as rounder than they are).
std::string peakLabel(const std::vector<RooflineCeiling>& ceilings, const PeakGroup& group);
std::string ridgeLabel(double ridge_flops_per_byte);

// An axis-aligned box, y down (screen and SVG coordinates).
struct LabelRect {
  double x = 0, y = 0, width = 0, height = 0;
  bool overlaps(const LabelRect& o) const {
    return x < o.x + o.width && o.x < x + width && y < o.y + o.height && o.y < y + height;
  }
};

// A label's box where it would like to sit and the way it may move to make
// room: up (-1) or down (+1).
struct LabelBox {
  LabelRect box;
  int away = -1;
};

// The boxes moved so that none overlaps another, first come first served:
// each keeps its place unless an earlier one holds it, then moves a line
// (its height and `gap`) at a time the way it may, staying inside `area`. A
// label with no free place in `area` is left out (nullopt) rather than drawn
// over another.
std::vector<std::optional<LabelRect>> separateLabels(const std::vector<LabelBox>& labels,
                                                     const LabelRect& area, double gap = 2);

}  // namespace damscope
