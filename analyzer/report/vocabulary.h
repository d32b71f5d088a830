// How the result model's vocabularies look wherever they are shown: a label
// and a colour for each D·A·M axis, gap cause and kernel class. One palette
// per kind — a gap cause has the hue of the axis it feeds — so that a colour
// means the same thing in the HTML report's charts (report_charts.h), its
// tables and the GUI (gui/models/palette.h). Colours are CSS hex ("#d55e00").
//
// Two palettes that never share a hue family, so that a kernel is never read
// as a bubble nor a bubble as a kernel:
//   - the D·A·M axes and gap causes wear Okabe & Ito's colour-blind-safe set
//     ("Color Universal Design", 2008): vermillion, orange, yellow, reddish
//     purple, sky blue and blue, and a neutral grey (ColorBrewer Greys) for
//     idle the trace does not explain;
//   - kernel classes wear ColorBrewer hues (Brewer & Harrower, colorbrewer2.org:
//     Purples, PRGn, PiYG, BrBG) from the two arcs of the hue circle the
//     axes leave free: violets and purples for the compute classes and
//     memory kernels, greens and teal for the memory-bound classes and
//     communication, a dark grey for unclassified kernels.
// A hue family is 30 degrees of hue (one step of a 12-hue colour wheel);
// every kernel-class hue lies at least that far from every axis hue, and the
// two greys differ in lightness by more than 0.25 (tests/gui/palette_test.cc
// checks both on every pair).
#pragma once

#include <string_view>

#include "analyzer/result/analysis_result.h"

namespace damscope {

std::string_view axisColour(Axis axis);
std::string_view causeColour(GapCause cause);
std::string_view causeLabel(GapCause cause);  // "data loading"
std::string_view categoryColour(KernelCategory category);
// The verdict wears the colour of the axis it names (host-bound: host stall,
// also when synchronization decided it; starved: the unexplained idle), so a
// verdict and its bar never disagree; no verdict is a neutral grey.
std::string_view verdictColour(Verdict verdict);

}  // namespace damscope
