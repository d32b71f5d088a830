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

// Text safe to write to a terminal. Names from a trace can hold escape
// sequences that would recolour, retitle or rewrite the user's terminal, line
// breaks that would forge a line of damscope's own ("VERDICT ..." at column
// 0), and invisible format controls that reorder what a line shows (the bidi
// overrides of "Trojan Source"). Each is shown as a visible escape instead:
// LF, CR and TAB as "\n", "\r", "\t"; the other C0 controls and DEL as
// "\x1b"; C1 controls and the format controls (Unicode category Cf, and the
// separators U+2028/2029) as "\u202e" or, beyond U+FFFF, "\U000e0001". Bytes
// that are not UTF-8 become U+FFFD. Printable text, "é", "日本", emoji, passes
// unchanged (an emoji joined by U+200D shows the joiner, as it is Cf).
//
// terminalSafe is for a whole block of damscope's own lines: it keeps LF and
// TAB, its layout, and escapes the rest. terminalName is for one name from a
// trace placed inside a line: it escapes LF and TAB too, so the name stays on
// its line. Every trace-controlled text a terminal renderer lays out goes
// through terminalName, and every block the CLI prints through terminalSafe.
std::string terminalSafe(std::string_view text);
std::string terminalName(std::string_view text);

}  // namespace damscope
