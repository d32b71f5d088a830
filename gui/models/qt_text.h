// Text from the trace and the result model (UTF-8 std::string and
// string_view) as Qt strings, in one place for every part of the GUI.
#pragma once

#include <QString>
#include <string_view>

namespace damscope {

inline QString qtString(std::string_view text) {
  return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

}  // namespace damscope
