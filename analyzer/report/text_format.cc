// Human-readable formatting: see text_format.h.
#include "analyzer/report/text_format.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <ctime>

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

std::string terminalSafe(std::string_view text) {
  const std::string valid = isValidUtf8(text) ? std::string(text) : toValidUtf8(text);
  std::string out;
  out.reserve(valid.size());
  for (size_t i = 0; i < valid.size(); ++i) {
    const auto c = static_cast<unsigned char>(valid[i]);
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) {
      out += fmt::format("\\x{:02x}", c);
    } else if (c == 0xC2 && i + 1 < valid.size() &&
               static_cast<unsigned char>(valid[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(valid[i + 1]) <= 0x9F) {
      // U+0080..U+009F, the C1 controls (CSI is U+009B).
      out += fmt::format("\\u{:04x}", static_cast<unsigned char>(valid[i + 1]));
      ++i;
    } else {
      out += valid[i];
    }
  }
  return out;
}

}  // namespace damscope
