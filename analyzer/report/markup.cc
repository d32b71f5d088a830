// Escaping for HTML and Markdown: see markup.h.
#include "analyzer/report/markup.h"

namespace damscope {
namespace {

bool isControl(unsigned char c) {
  return (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f;
}

}  // namespace

std::string htmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        if (!isControl(static_cast<unsigned char>(c))) out += c;
    }
  }
  return out;
}

std::string markdownEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (const char c : text) {
    if (c == '\n' || c == '\t') {
      out += ' ';
    } else if (isControl(static_cast<unsigned char>(c))) {
      continue;
    } else {
      switch (c) {
        case '\\':
        case '`':
        case '*':
        case '_':
        case '[':
        case ']':
        case '<':
        case '>':
        case '|':
        case '#':
        case '!':
        case '~':
          out += '\\';
          break;
        default:
          break;
      }
      out += c;
    }
  }
  return out;
}

}  // namespace damscope
