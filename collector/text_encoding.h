// Small text helpers for what the collector receives from applications:
// NVTX wide strings (wchar_t, UTF-32 on Linux) to UTF-8, messages cut at a
// byte limit. (JSON escaping for the `args` columns is base/json_text.h.)
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace damscope::collector {

// UTF-8 of `count` wchar_t units; invalid code points become U+FFFD.
std::string utf8FromWide(const wchar_t* text, size_t count);

// Drops an incomplete multi-byte sequence at the end of `text` (left by
// cutting a message at a byte limit).
void trimPartialUtf8(std::string& text);

}  // namespace damscope::collector
