// The median of a sample: the middle value, or the mean of the two middle
// ones for an even count; 0 for none. Header-only: the analyses that compare
// steps, ranks and sample intervals by their typical value share it.
#pragma once

#include <algorithm>
#include <vector>

namespace damscope {

template <typename T>
double median(std::vector<T> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? static_cast<double>(v[n / 2])
               : (static_cast<double>(v[n / 2 - 1]) + static_cast<double>(v[n / 2])) / 2.0;
}

}  // namespace damscope
