// Escaping for the report formats. Every string that comes from a trace
// (kernel, range and device names, file names) goes through one of these
// before it reaches HTML/SVG or Markdown: a kernel named "<script>..." must
// show as text, never run, and a name with "|" must not break a table.
// Input is valid UTF-8 already (base/utf8.h repairs it on the way in);
// control characters are dropped, as neither format can show them.
#pragma once

#include <string>
#include <string_view>

namespace damscope {

// &, <, >, " and ' as entities: safe in element text and quoted attributes.
std::string htmlEscape(std::string_view text);

// Markdown inline text: the characters that start markup (\ ` * _ [ ] < > |
// # ! ~) are backslash-escaped; newlines become spaces.
std::string markdownEscape(std::string_view text);

}  // namespace damscope
