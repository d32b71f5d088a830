// Reordering of event tables. Importers append events in whatever order the
// source lists them; the store keeps every event table sorted by start time
// (ties: longer first, so a parent precedes the child that starts with it),
// which analyses and the GUI's binary searches rely on.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "trace/tables.h"

namespace damscope {

// Applies `order` (new position -> old row index) to every column of `table`.
template <typename Table>
void permuteRows(Table& table, const std::vector<int64_t>& order) {
  table.forEachColumn([&](const char*, auto& column) {
    using Column = std::decay_t<decltype(column)>;
    Column reordered;
    reordered.reserve(column.size());
    for (int64_t old_index : order) reordered.push_back(std::move(column[old_index]));
    column = std::move(reordered);
  });
}

// Sorts an event table by (ts, -dur) when it is not sorted already and returns
// the mapping old row index -> new row index, for remapping references.
// Tables without `dur` (counters) sort by ts alone.
template <typename Table>
std::vector<int64_t> sortByTime(Table& table) {
  const size_t n = table.size();
  auto before = [&](int64_t a, int64_t b) {
    if (table.ts[a] != table.ts[b]) return table.ts[a] < table.ts[b];
    if constexpr (requires { table.dur; }) return table.dur[a] > table.dur[b];
    return false;
  };
  std::vector<int64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::vector<int64_t> old_to_new(n);
  bool sorted = true;
  for (size_t i = 1; i < n && sorted; ++i) sorted = !before(int64_t(i), int64_t(i - 1));
  if (!sorted) {
    std::stable_sort(order.begin(), order.end(), before);
    permuteRows(table, order);
  }
  for (size_t i = 0; i < n; ++i) old_to_new[order[i]] = static_cast<int64_t>(i);
  return old_to_new;
}

}  // namespace damscope
