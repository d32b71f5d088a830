// The op table (analyzer/analyses/op_breakdown.h) for people and programs:
// a text table for the terminal and a JSON document (`damscope ops`), and
// the rows the reports show. One rendering of each figure: durations through
// text_format.h's formatDuration, FLOP/s in TFLOP/s, shares in per cent.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "analyzer/analyses/op_breakdown.h"

namespace damscope {

// The table, a header line naming the grouping and the window, and a line on
// the GPU time no row holds (no launch call, or outside every range); a
// row's shapes, where it has them, on the line below it.
std::string opTableText(const OpBreakdownReport& report);

// {"grouping", "window_ns", "gpu_ops", "gpu_ns", "unattributed_ops", ...,
//  "rows": [{"name", "shapes", "calls", "gpu_total_ns", ...}]}; figures that
// are unknown are null (docs/ops.md lists the fields).
nlohmann::json opTableJson(const OpBreakdownReport& report);

// "312.4 TFLOP/s, memory-bound, 41 % of ceiling"; "" without FLOPs.
std::string opRooflineText(const OpRow& row);

}  // namespace damscope
