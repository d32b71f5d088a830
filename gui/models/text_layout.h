// Where text boxes go so that none hides another, decided without a window:
// legend entries flowed into rows (the scorecard's legend, the charts'
// legends: Qt Charts 6.4's own legend does not wrap and cuts names to
// "atten…"), and labels hung from points nudged apart (the roofline's ridge
// and peak labels, which meet when two ceilings' ridges are close).
#pragma once

#include <optional>
#include <vector>

#include <QRect>
#include <QRectF>

namespace damscope {

// Entries of the given widths laid out left to right in rows no wider than
// `width`, each row `line` high, `entry_gap` between entries and `row_gap`
// between rows. An entry wider than `width` gets a row of its own (it is the
// caller's to elide it to the rect's width). The rects are in entry order,
// from (0, 0).
std::vector<QRect> flowRows(const std::vector<int>& widths, int width, int line, int entry_gap,
                            int row_gap);

// The height flowRows' rects take: 0 without entries.
int flowHeight(const std::vector<QRect>& rects);

// A label's box where it would like to sit and the way it may move to make
// room: up (-1) or down (+1).
struct LabelBox {
  QRectF box;
  int away = -1;
};

// The boxes moved so that none overlaps another, first come first served:
// each label keeps its place unless an earlier one holds it, then moves a
// line (its height and `gap`) at a time the way it may, staying in `area`.
// A label with no free place in `area` is left out (nullopt), rather than
// drawn over another.
std::vector<std::optional<QRectF>> separateLabels(const std::vector<LabelBox>& labels,
                                                  const QRectF& area, double gap = 2);

}  // namespace damscope
