// The HTML report's charts as inline SVG: plain vector drawings that need no
// script or font from the network and scale with the page. Each is a
// function of the result model (and, for the strip, of step_strip.h); every
// name from the trace is escaped (markup.h). Colours and labels are the
// vocabulary's (vocabulary.h), which the GUI wears too.
#pragma once

#include <string>
#include <string_view>

#include "analyzer/report/step_strip.h"
#include "analyzer/result/analysis_result.h"

namespace damscope {

// The run's scorecard as one stacked bar, 100 % wide.
std::string scorecardBarSvg(const Scorecard& card);

// One stacked bar per analysed step, the scorecard's axes in ns.
std::string stepBarsSvg(const RankResult& rank);

// The representative step: a lane per stream, bubbles beneath, a time ruler.
std::string stepStripSvg(const StepStrip& strip);

// Log-log roofline: FLOP/s against FLOP/byte, the bandwidth roof, a peak roof
// per precision with its ridge point, kernels as circles sized by time and
// coloured by class. Empty when no kernel has both FLOPs and bytes.
// `memory` names the bandwidth ceiling: "HBM" on a GPU, "DRAM" on a CPU.
std::string rooflineSvg(const RooflineReport& roofline, std::string_view memory = "HBM");

}  // namespace damscope
