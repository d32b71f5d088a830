// The `--window` flag that analyze and ops share: which part of the trace
// the analyses describe (analyzer/analyses/analysis_window.h).
#pragma once

#include <string>

#include "analyzer/analyses/analysis_window.h"
#include "base/result.h"

namespace damscope {

// "hta" or "all"; any other word is an error that names the flag.
Result<WindowMode> windowModeFlag(const std::string& value);

}  // namespace damscope
