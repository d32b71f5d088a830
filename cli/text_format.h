// Number, size, duration and time formatting for the CLI's human output.
#pragma once

#include <cstdint>
#include <string>

namespace damscope {

std::string withThousands(int64_t value);          // 19370 -> "19,370"
std::string humanBytes(double bytes);              // 34359738368 -> "32.0 GiB"
std::string humanDuration(int64_t ns);             // 1829319000 -> "1.829 s"
std::string utcTimestamp(int64_t ns_since_epoch);  // "2022-11-30 04:48:07.389 UTC"

}  // namespace damscope
