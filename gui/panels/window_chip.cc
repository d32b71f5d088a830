// The time-window chip: see window_chip.h.
#include "gui/panels/window_chip.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace damscope {

WindowChip::WindowChip(QWidget* parent) : QFrame(parent) {
  setObjectName("windowChip");
  // A pill in the selection's colour, as the window is drawn on the timeline.
  setStyleSheet(QStringLiteral(
      "#windowChip { background: palette(highlight); border-radius: 10px; }"
      "#windowChip QLabel { color: palette(highlighted-text); font-weight: bold; }"
      "#windowChip QToolButton { color: palette(highlighted-text); border: 1px solid "
      "palette(highlighted-text); border-radius: 7px; padding: 0px 6px; }"));
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(10, 2, 4, 2);
  layout->setSpacing(8);
  label_ = new QLabel(this);
  clear_ = new QToolButton(this);
  clear_->setText(tr("clear"));
  clear_->setToolTip(tr("Show the whole run again (Ctrl+Shift+R)"));
  clear_->setAutoRaise(true);
  layout->addWidget(label_);
  layout->addWidget(clear_);
  connect(clear_, &QToolButton::clicked, this, &WindowChip::clearRequested);
  setToolTip(tr("The diagnosis, scorecard and statistics describe this window of the rank"));
}

void WindowChip::setWindow(std::optional<TimeWindow> window, int64_t origin) {
  window_ = window;
  origin_ = origin;
  refresh();
}

void WindowChip::setAnalysing(bool analysing) {
  analysing_ = analysing;
  refresh();
}

QString WindowChip::text() const {
  return label_->text();
}

void WindowChip::refresh() {
  if (!window_) {
    label_->clear();
    return;
  }
  QString text = tr("window: %1").arg(windowText(*window_, origin_));
  if (analysing_) text += tr("  · analysing…");
  label_->setText(text);
}

}  // namespace damscope
