// Text helpers: see text_encoding.h.
#include "collector/text_encoding.h"

#include <cstdint>

namespace damscope::collector {

std::string utf8FromWide(const wchar_t* text, size_t count) {
  std::string out;
  out.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    // wchar_t is a signed 32-bit unit: a negative one becomes a value above
    // 0x10FFFF, replaced below (clang-tidy 14 takes wchar_t for a signed char).
    auto c = static_cast<uint32_t>(text[i]);  // NOLINT(bugprone-signed-char-misuse)
    if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) c = 0xFFFD;
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (c < 0x800) {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      out += static_cast<char>(0xE0 | (c >> 12));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (c >> 18));
      out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
  return out;
}

void trimPartialUtf8(std::string& text) {
  // Walk back over continuation bytes (10xxxxxx) to the lead byte of the
  // last sequence and drop the sequence if it is shorter than its lead says.
  size_t i = text.size();
  size_t continuation = 0;
  while (i > 0 && (static_cast<uint8_t>(text[i - 1]) & 0xC0) == 0x80 && continuation < 3) {
    --i, ++continuation;
  }
  if (i == 0) return;
  const auto lead = static_cast<uint8_t>(text[i - 1]);
  size_t expected = 0;
  if ((lead & 0xE0) == 0xC0)
    expected = 1;
  else if ((lead & 0xF0) == 0xE0)
    expected = 2;
  else if ((lead & 0xF8) == 0xF0)
    expected = 3;
  else
    return;  // ASCII lead: complete
  if (continuation < expected) text.resize(i - 1);
}

}  // namespace damscope::collector
