// The scorecard bar: see scorecard_bar.h.
#include "gui/panels/scorecard_bar.h"

#include <QPainter>
#include <QPainterPath>

#include "gui/models/figure_text.h"
#include "gui/models/palette.h"
#include "gui/models/text_layout.h"

namespace damscope {
namespace {

constexpr int kBarHeight = 30;
constexpr int kLegendGap = 10;     // between the bar and the legend
constexpr int kSwatch = 12;        // legend swatch side
constexpr int kEntrySpacing = 18;  // between legend entries
constexpr int kRowSpacing = 6;     // between legend rows

QString legendText(const Scorecard& card, Axis axis) {
  const auto label = axisLabel(axis);
  return QStringLiteral("%1  %2").arg(
      QString::fromUtf8(label.data(), static_cast<qsizetype>(label.size())),
      percentText(card.pct(axis)));
}

}  // namespace

ScorecardBar::ScorecardBar(QWidget* parent) : QWidget(parent) {
  QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Preferred);
  policy.setHeightForWidth(true);
  setSizePolicy(policy);
}

void ScorecardBar::setScorecard(const std::optional<Scorecard>& card) {
  card_ = card;
  updateGeometry();
  update();
}

std::vector<Axis> ScorecardBar::legendAxes() const {
  std::vector<Axis> out;
  if (!card_) return out;
  for (size_t a = 0; a < kAxisCount; ++a) {
    if (card_->ns[a] > 0) out.push_back(static_cast<Axis>(a));
  }
  return out;
}

int ScorecardBar::layoutLegend(int width, std::vector<QRect>* rects) const {
  const QFontMetrics fm(font());
  std::vector<int> widths;
  for (Axis axis : legendAxes()) {
    widths.push_back(kSwatch + 6 + fm.horizontalAdvance(legendText(*card_, axis)));
  }
  std::vector<QRect> laid =
      flowRows(widths, width, std::max(kSwatch, fm.height()), kEntrySpacing, kRowSpacing);
  const int height = flowHeight(laid);
  if (rects) *rects = std::move(laid);
  return height;
}

int ScorecardBar::heightForWidth(int width) const {
  const int legend = layoutLegend(width, nullptr);
  return kBarHeight + (legend > 0 ? kLegendGap + legend : 0) + 2;
}

QSize ScorecardBar::sizeHint() const {
  return {480, heightForWidth(480)};
}
QSize ScorecardBar::minimumSizeHint() const {
  return {200, heightForWidth(200)};
}

void ScorecardBar::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const QRectF bar(0.5, 0.5, width() - 1.0, kBarHeight);
  QPainterPath clip;
  clip.addRoundedRect(bar, 5, 5);
  if (!card_ || card_->total() <= 0) {
    p.setPen(palette().color(QPalette::Mid));
    p.setBrush(Qt::NoBrush);
    p.drawPath(clip);
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(bar, Qt::AlignCenter, tr("No device work to judge"));
    return;
  }
  const double total = static_cast<double>(card_->total());
  p.save();
  p.setClipPath(clip);
  double x = bar.left();
  QFont bold = font();
  bold.setBold(true);
  p.setFont(bold);
  const QFontMetrics fm(bold);
  for (size_t a = 0; a < kAxisCount; ++a) {
    if (card_->ns[a] <= 0) continue;
    const double w = bar.width() * static_cast<double>(card_->ns[a]) / total;
    const QRectF seg(x, bar.top(), w, bar.height());
    const QColor fill = axisColor(static_cast<Axis>(a));
    p.fillRect(seg, fill);
    const QString text = percentText(card_->pct(static_cast<Axis>(a)), 0);
    if (fm.horizontalAdvance(text) + 10 <= w) {
      p.setPen(textOn(fill));
      p.drawText(seg, Qt::AlignCenter, text);
    }
    x += w;
  }
  p.restore();
  p.setFont(font());
  std::vector<QRect> rects;
  layoutLegend(width(), &rects);
  const std::vector<Axis> axes = legendAxes();
  const int top = kBarHeight + kLegendGap;
  for (size_t i = 0; i < axes.size(); ++i) {
    const QRect r = rects[i].translated(0, top);
    const QRect swatch(r.left(), r.center().y() - kSwatch / 2, kSwatch, kSwatch);
    p.setPen(Qt::NoPen);
    p.setBrush(axisColor(axes[i]));
    p.drawRoundedRect(swatch, 2, 2);
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(r.adjusted(kSwatch + 6, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
               legendText(*card_, axes[i]));
  }
}

}  // namespace damscope
