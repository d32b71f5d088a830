#include "gui/panels/elided_label.h"

#include <QFontMetrics>
#include <QResizeEvent>

namespace damscope {

void ElidedLabel::setFullText(const QString& text) {
  full_text_ = text;
  setToolTip(text);
  elide();
}

void ElidedLabel::resizeEvent(QResizeEvent* event) {
  QLabel::resizeEvent(event);
  elide();
}

void ElidedLabel::elide() {
  const QString shown = fontMetrics().elidedText(full_text_, Qt::ElideRight, contentsRect().width());
  if (shown != text()) setText(shown);
}

}  // namespace damscope
