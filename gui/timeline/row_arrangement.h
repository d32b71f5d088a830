// How the user arranged the timeline's rows from a row header's context
// menu, as Perfetto and Nsight Systems allow: a row collapsed to its header
// (its lanes folded away, its label and busy share kept), hidden (gone until
// "Show all rows"), or pinned (moved to the top, in the order pinned, so the
// rows compared most stay together). A value held by the widget, reset when
// another run or rank is shown; the lanes' layout follows from it
// (layoutLanes, timeline_painter.h).
#pragma once

#include <cstddef>
#include <vector>

namespace damscope {

class RowArrangement {
 public:
  bool collapsed(int row) const { return has(collapsed_, row); }
  bool hidden(int row) const { return has(hidden_, row); }
  bool pinned(int row) const { return has(pinned_, row); }
  bool anyHidden() const { return !hidden_.empty(); }

  void setCollapsed(int row, bool on) { set(collapsed_, row, on); }
  void setHidden(int row, bool on) { set(hidden_, row, on); }
  void setPinned(int row, bool on) { set(pinned_, row, on); }
  void showAll() { hidden_.clear(); }

  // The rows shown, top to bottom: the pinned ones in the order pinned, then
  // the others in their own order; hidden rows left out.
  std::vector<int> order(size_t row_count) const;

  bool operator==(const RowArrangement&) const = default;

 private:
  static bool has(const std::vector<int>& rows, int row);
  static void set(std::vector<int>& rows, int row, bool on);

  std::vector<int> collapsed_;
  std::vector<int> hidden_;
  std::vector<int> pinned_;  // in the order pinned
};

}  // namespace damscope
