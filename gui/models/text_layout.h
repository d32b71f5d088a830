// Legend entries flowed into rows, decided without a window: the
// scorecard's legend and the charts' (Qt Charts 6.4's own legend does not
// wrap and cuts names to "atten…"). Labels hung from points are moved apart
// by analyzer/report/roofline_labels.h, which the report shares.
#pragma once

#include <vector>

#include <QRect>

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

}  // namespace damscope
