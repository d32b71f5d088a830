// Text from the trace and the result model (UTF-8 std::string and
// string_view) as Qt strings, in one place for every part of the GUI; and
// names from the trace clamped before anything lays them out.
#pragma once

#include <QString>
#include <string_view>

#include "analyzer/report/text_format.h"

namespace damscope {

inline QString qtString(std::string_view text) {
  return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

// Names from a trace (kernels, ops, ranges, devices, files) are shown
// clamped: in a row, a header, a legend, a label, a title, a table cell at
// most kNameShownBytes; in a tooltip or the Event dock at most
// kNameTooltipBytes (clipText, the start kept: a kernel's name starts with
// what says which kernel, and the cut ends in "..."). Laying out and eliding a
// 1 M-character name on every paint froze the window for 7–26 s (issue 31
// §5), and a 20,000-character device name in a label widened the window to
// 170,342 px (issue 32 §6); 512 bytes are more than a table column or a
// screen shows.
constexpr size_t kNameShownBytes = 512;
constexpr size_t kNameTooltipBytes = 2000;

inline QString qtName(std::string_view name) { return qtString(clipText(name, kNameShownBytes)); }
inline QString qtNameTooltip(std::string_view name) {
  return qtString(clipText(name, kNameTooltipBytes));
}

}  // namespace damscope
