// Where the step band's labels go: each step's label inside its box, and no
// two labels overlapping, whatever the zoom. A pure layout function of the
// steps' drawn extents and the font, tested without a window
// (tests/gui/timeline_labels_test.cc).
//
// Each step offers its label in decreasing length, "step 12", then "12"; the
// first that fits in its box with kPaddingPx on each side is placed, centred
// in the box. A label that would start less than kGapPx after the previous
// placed label ends is skipped (steps may overlap when their aligned spans
// do), as is a step no form of whose label fits.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <QFontMetricsF>
#include <QString>

namespace damscope {

struct StepExtent {
  double x0 = 0;  // the box as drawn, px
  double x1 = 0;
  int64_t number = 0;
};

struct StepLabel {
  double x0 = 0;  // where the text is drawn, px
  double x1 = 0;
  QString text;
  size_t step = 0;  // its step: an index into the steps given
  bool operator==(const StepLabel&) const = default;
};

inline constexpr double kStepLabelPaddingPx = 2;
inline constexpr double kStepLabelGapPx = 4;

// The labels of `steps`, given in start order, in `metrics`' font.
std::vector<StepLabel> layoutStepLabels(std::span<const StepExtent> steps,
                                        const QFontMetricsF& metrics);

}  // namespace damscope
