// A chart's legend that wraps: see chart_legend.h.
#include "gui/charts/chart_legend.h"

#include <QPainter>

#include "gui/models/text_layout.h"

namespace damscope {
namespace {

constexpr int kMark = 12;      // the mark's side, px
constexpr int kMarkGap = 5;    // between the mark and its name
constexpr int kEntryGap = 14;  // between entries
constexpr int kRowGap = 3;     // between rows
constexpr int kMargin = 8;     // left and right, as the chart's own margins

}  // namespace

ChartLegend::ChartLegend(QWidget* parent) : QWidget(parent) {
  QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Preferred);
  policy.setHeightForWidth(true);
  setSizePolicy(policy);
  hide();
}

void ChartLegend::setEntries(std::vector<LegendEntry> entries) {
  entries_ = std::move(entries);
  setVisible(!entries_.empty());
  updateGeometry();
  update();
}

std::vector<QRect> ChartLegend::layout(int width) const {
  const QFontMetrics fm(font());
  std::vector<int> widths;
  widths.reserve(entries_.size());
  for (const LegendEntry& e : entries_) {
    widths.push_back(kMark + kMarkGap + fm.horizontalAdvance(e.text));
  }
  return flowRows(widths, std::max(1, width - 2 * kMargin), std::max(kMark, fm.height()), kEntryGap,
                  kRowGap);
}

int ChartLegend::heightForWidth(int width) const {
  return entries_.empty() ? 0 : flowHeight(layout(width)) + 6;
}

QSize ChartLegend::sizeHint() const {
  return {400, heightForWidth(400)};
}
QSize ChartLegend::minimumSizeHint() const {
  return {100, heightForWidth(100)};
}

void ChartLegend::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const std::vector<QRect> rects = layout(width());
  const QFontMetrics fm(font());
  for (size_t i = 0; i < entries_.size(); ++i) {
    const LegendEntry& e = entries_[i];
    const QRect r = rects[i].translated(kMargin, 2);
    const QRectF mark(r.left(), r.center().y() - kMark / 2.0, kMark, kMark);
    p.setPen(QPen(e.colour.darker(140), 1));
    p.setBrush(e.colour);
    switch (e.mark) {
      case LegendEntry::Mark::kSwatch:
        p.drawRect(mark.adjusted(0.5, 0.5, -0.5, -0.5));
        break;
      case LegendEntry::Mark::kDisc:
        p.drawEllipse(mark.adjusted(1, 1, -1, -1));
        break;
      case LegendEntry::Mark::kLine:
        p.setPen(QPen(e.colour, 2));
        p.drawLine(QPointF(mark.left(), mark.center().y()),
                   QPointF(mark.right(), mark.center().y()));
        p.drawEllipse(mark.center(), 2.5, 2.5);
        break;
    }
    p.setPen(palette().color(QPalette::Text));
    const QRect text = r.adjusted(kMark + kMarkGap, 0, 0, 0);
    // Whole unless one entry is wider than the legend itself.
    p.drawText(text, Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(e.text, Qt::ElideMiddle, width() - kMargin - text.left()));
  }
}

}  // namespace damscope
