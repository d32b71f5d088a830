// Text boxes placed apart: see text_layout.h.
#include "gui/models/text_layout.h"

#include <algorithm>

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

std::vector<std::optional<QRectF>> separateLabels(const std::vector<LabelBox>& labels,
                                                  const QRectF& area, double gap) {
  std::vector<std::optional<QRectF>> placed;
  placed.reserve(labels.size());
  auto free = [&](const QRectF& box) {
    return std::none_of(placed.begin(), placed.end(), [&](const std::optional<QRectF>& other) {
      return other && other->intersects(box);
    });
  };
  for (const LabelBox& label : labels) {
    QRectF box = label.box;
    const double step = (box.height() + gap) * (label.away < 0 ? -1 : 1);
    // Every line from where it wants to be to the area's edge, then none.
    while (!free(box) && box.top() + step >= area.top() && box.bottom() + step <= area.bottom()) {
      box.translate(0, step);
    }
    placed.push_back(free(box) ? std::optional<QRectF>(box) : std::nullopt);
  }
  return placed;
}

}  // namespace damscope
