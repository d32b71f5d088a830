// Number, size, duration and time formatting for everything damscope prints
// for people (the CLI's lines, the text summary, the reports): one formatter
// per kind of figure, so the same duration reads the same everywhere.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace damscope {

std::string withThousands(int64_t value);  // 19370 -> "19,370"
std::string formatBytes(double bytes);     // 34359738368 -> "32.0 GiB", 512 -> "512 B"
// "1.234 s", "61.2 ms", "15.0 µs", "800 ns"; "n/a" when not finite.
std::string formatDuration(double ns);
std::string utcTimestamp(int64_t ns_since_epoch);  // "2022-11-30 04:48:07.389 UTC"

std::string upperCase(std::string_view text);  // ASCII letters only: "data-bound" -> "DATA-BOUND"
std::string sentenceCase(std::string_view text);  // the first ASCII letter only: "the GPU" -> "The GPU"

// `text` cut to at most `max` bytes, ending in "..." when cut, never inside a
// UTF-8 character: for kernel signatures where the start says which kernel.
std::string clipText(std::string_view text, size_t max);

// `text` wrapped at `width` columns, words kept whole, `indent` spaces before
// every line, each line ending in a newline.
std::string wrapText(const std::string& text, size_t indent, size_t width = 100);

// Text safe to write to a terminal: names from a trace can hold escape
// sequences that would recolour, retitle or rewrite the user's terminal. Every
// control character but newline and tab (C0, DEL, and C1 in UTF-8) is shown as
// a visible escape ("\x1b", "\u009b"); bytes that are not UTF-8 become U+FFFD.
std::string terminalSafe(std::string_view text);

}  // namespace damscope
