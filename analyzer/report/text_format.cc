// Human-readable formatting: see text_format.h.
#include "analyzer/report/text_format.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <ctime>
#include <utility>

#include "base/utf8.h"

namespace damscope {

std::string withThousands(int64_t value) {
  // Through uint64_t: -INT64_MIN does not fit int64_t.
  const uint64_t magnitude =
      value < 0 ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  std::string digits = std::to_string(magnitude);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return value < 0 ? "-" + out : out;
}

std::string formatBytes(double bytes) {
  static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (std::fabs(bytes) >= 1024 && unit < 4) bytes /= 1024, ++unit;
  return unit == 0 ? fmt::format("{:.0f} B", bytes) : fmt::format("{:.1f} {}", bytes, kUnits[unit]);
}

std::string formatDuration(double ns) {
  if (!std::isfinite(ns)) return "n/a";
  const double a = std::fabs(ns);
  if (a >= 1e9) return fmt::format("{:.3f} s", ns / 1e9);
  if (a >= 1e6) return fmt::format("{:.1f} ms", ns / 1e6);
  if (a >= 1e3) return fmt::format("{:.1f} \u00b5s", ns / 1e3);
  return fmt::format("{:.0f} ns", ns);
}

std::string utcTimestamp(int64_t ns) {
  const std::time_t seconds = static_cast<std::time_t>(ns / 1000000000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%d %H:%M:%S", &tm);
  return fmt::format("{}.{:03d} UTC", buffer, static_cast<int>((ns / 1000000) % 1000));
}

std::string upperCase(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string sentenceCase(std::string_view text) {
  std::string out(text);
  if (!out.empty()) out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
  return out;
}

std::string clipText(std::string_view text, size_t max) {
  if (text.size() <= max) return std::string(text);
  size_t cut = max > 3 ? max - 3 : 0;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "...";
}

std::string wrapText(const std::string& text, size_t indent, size_t width) {
  std::string out, line(indent, ' ');
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (line.size() > indent && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line = std::string(indent, ' ');
    }
    if (line.size() > indent) line += ' ';
    line += word;
    start = end + 1;
  }
  if (line.size() > indent) out += line + "\n";
  return out;
}

namespace {

// Characters a terminal acts on without showing them. Unicode general
// category Cf, the format controls (UnicodeData.txt of Unicode 15.0, field 2
// "Cf"): the bidi embeddings, overrides and isolates that reorder what a line
// shows (U+202A-202E, U+2066-2069: "Trojan Source", Boucher and Anderson,
// 2021), zero-width spaces and joiners, the byte order mark, the tag
// characters. Then U+2028 and U+2029, the line and paragraph separators
// (categories Zl and Zp), which some terminals and viewers break lines at.
// Sorted, inclusive ranges.
constexpr std::pair<char32_t, char32_t> kInvisibleControls[] = {
    {0x00AD, 0x00AD},   {0x0600, 0x0605},   {0x061C, 0x061C},   {0x06DD, 0x06DD},
    {0x070F, 0x070F},   {0x0890, 0x0891},   {0x08E2, 0x08E2},   {0x180E, 0x180E},
    {0x200B, 0x200F},   {0x2028, 0x202E},   {0x2060, 0x2064},   {0x2066, 0x206F},
    {0xFEFF, 0xFEFF},   {0xFFF9, 0xFFFB},   {0x110BD, 0x110BD}, {0x110CD, 0x110CD},
    {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0001, 0xE0001},
    {0xE0020, 0xE007F},
};

bool isInvisibleControl(char32_t c) {
  for (const auto& [first, last] : kInvisibleControls) {
    if (c < first) return false;
    if (c <= last) return true;
  }
  return false;
}

// The length of the UTF-8 sequence that starts with `lead` (valid text).
size_t sequenceLength(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead < 0xE0) return 2;
  if (lead < 0xF0) return 3;
  return 4;
}

char32_t decode(std::string_view sequence) {
  static constexpr unsigned char kLeadBits[] = {0, 0x7F, 0x1F, 0x0F, 0x07};
  char32_t c = static_cast<unsigned char>(sequence[0]) & kLeadBits[sequence.size()];
  for (size_t i = 1; i < sequence.size(); ++i) {
    c = (c << 6) | (static_cast<unsigned char>(sequence[i]) & 0x3Fu);
  }
  return c;
}

enum class LineBreaks { kKeep, kEscape };

std::string escapeForTerminal(std::string_view text, LineBreaks line_breaks) {
  const std::string valid = isValidUtf8(text) ? std::string(text) : toValidUtf8(text);
  std::string out;
  out.reserve(valid.size());
  for (size_t i = 0; i < valid.size();) {
    const size_t length = std::min(sequenceLength(static_cast<unsigned char>(valid[i])),
                                   valid.size() - i);
    const std::string_view sequence(valid.data() + i, length);
    const char32_t c = decode(sequence);
    i += length;
    const bool keep_break = line_breaks == LineBreaks::kKeep && (c == '\n' || c == '\t');
    if (c == '\n' && !keep_break) {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t' && !keep_break) {
      out += "\\t";
    } else if ((c < 0x20 && !keep_break) || c == 0x7F) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned>(c));
    } else if ((c >= 0x80 && c <= 0x9F) || isInvisibleControl(c)) {
      // The C1 controls (CSI is U+009B) and the invisible ones above.
      out += c > 0xFFFF ? fmt::format("\\U{:08x}", static_cast<uint32_t>(c))
                        : fmt::format("\\u{:04x}", static_cast<uint32_t>(c));
    } else {
      out += sequence;
    }
  }
  return out;
}

}  // namespace

std::string terminalSafe(std::string_view text) {
  return escapeForTerminal(text, LineBreaks::kKeep);
}

std::string terminalName(std::string_view text) {
  return escapeForTerminal(text, LineBreaks::kEscape);
}

}  // namespace damscope
