// Number, size, duration and time formatting for everything damscope prints
// for people (the CLI's lines, the text summary, the reports): one formatter
// per kind of figure, so the same duration reads the same everywhere.
#pragma once

#include <cstdint>
#include <string>

namespace damscope {

std::string withThousands(int64_t value);  // 19370 -> "19,370"
std::string humanBytes(double bytes);      // 34359738368 -> "32.0 GiB"
// "1.234 s", "61.2 ms", "15.0 µs", "800 ns"; "n/a" when not finite.
std::string formatDuration(double ns);
std::string utcTimestamp(int64_t ns_since_epoch);  // "2022-11-30 04:48:07.389 UTC"

}  // namespace damscope
