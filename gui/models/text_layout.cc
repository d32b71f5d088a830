// Legend rows: see text_layout.h.
#include "gui/models/text_layout.h"

namespace damscope {

std::vector<QRect> flowRows(const std::vector<int>& widths, int width, int line, int entry_gap,
                            int row_gap) {
  std::vector<QRect> rects;
  rects.reserve(widths.size());
  int x = 0, y = 0;
  for (const int w : widths) {
    if (x > 0 && x + w > width) {
      x = 0;
      y += line + row_gap;
    }
    rects.emplace_back(x, y, w, line);
    x += w + entry_gap;
  }
  return rects;
}

int flowHeight(const std::vector<QRect>& rects) {
  return rects.empty() ? 0 : rects.back().bottom() + 1;
}

}  // namespace damscope
