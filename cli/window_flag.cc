#include "cli/window_flag.h"

namespace damscope {

Result<WindowMode> windowModeFlag(const std::string& value) {
  if (value == "hta") return WindowMode::kHta;
  if (value == "all") return WindowMode::kAll;
  return Error("--window " + value + ": expected hta or all");
}

}  // namespace damscope
