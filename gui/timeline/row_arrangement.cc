// The rows' arrangement: see row_arrangement.h.
#include "gui/timeline/row_arrangement.h"

#include <algorithm>

namespace damscope {

bool RowArrangement::has(const std::vector<int>& rows, int row) {
  return std::find(rows.begin(), rows.end(), row) != rows.end();
}

void RowArrangement::set(std::vector<int>& rows, int row, bool on) {
  const auto it = std::find(rows.begin(), rows.end(), row);
  if (on && it == rows.end()) rows.push_back(row);
  if (!on && it != rows.end()) rows.erase(it);
}

std::vector<int> RowArrangement::order(size_t row_count) const {
  std::vector<int> out;
  out.reserve(row_count);
  for (int row : pinned_) {
    if (row >= 0 && static_cast<size_t>(row) < row_count && !hidden(row)) out.push_back(row);
  }
  for (size_t r = 0; r < row_count; ++r) {
    const int row = static_cast<int>(r);
    if (!pinned(row) && !hidden(row)) out.push_back(row);
  }
  return out;
}

}  // namespace damscope
