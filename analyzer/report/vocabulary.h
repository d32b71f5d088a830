// How the result model's vocabularies look wherever they are shown: a label
// and a colour for each D·A·M axis, gap cause and kernel class. One palette
// per kind — a gap cause has the hue of the axis it feeds — so that a colour
// means the same thing in the HTML report's charts (report_charts.h), its
// tables and the GUI (gui/models/palette.h). Colours are CSS hex ("#d1495b").
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
