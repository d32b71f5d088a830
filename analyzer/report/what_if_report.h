// What-if on a recorded run (analyzer/planner/what_if.h) as people read it
// and as JSON (docs/plan.md "What-if"): one WhatIfReport, two renderings; the
// HTML and Markdown reports' plan sections render the same estimates.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "analyzer/planner/what_if.h"

namespace damscope {

std::string whatIfText(const WhatIfReport& report);
nlohmann::json whatIfJson(const WhatIfReport& report);

// "420 ms -> 140 ms (est., -66.7 %)", or "420 ms (no estimate)".
std::string stepChangeWords(const WhatIfEstimate& estimate);

}  // namespace damscope
