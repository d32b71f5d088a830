// The keys overlay: see keys_overlay.h.
#include "gui/panels/keys_overlay.h"

#include <QEvent>
#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>

#include "gui/models/timeline_keys.h"

namespace damscope {
namespace {

// How much the window behind the overlay is darkened (alpha of 255): enough
// to read the table as a layer over it, not so much that the view is lost.
constexpr int kBackdropAlpha = 140;

QString keysTable() {
  QString html = "<h3>Keys</h3><table cellspacing='0' cellpadding='3'>";
  for (const KeyHelp& line : timelineKeyHelp()) {
    html += QString("<tr><td align='right'><b>%1</b></td><td>&nbsp;&nbsp;%2</td></tr>")
                .arg(QString::fromUtf8(line.keys).toHtmlEscaped(),
                     QString::fromUtf8(line.what).toHtmlEscaped());
  }
  return html + "</table><p>Any key or click closes this list.</p>";
}

}  // namespace

KeysOverlay::KeysOverlay(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  table_ = new QLabel(keysTable(), this);
  table_->setTextFormat(Qt::RichText);
  table_->setAutoFillBackground(true);
  table_->setBackgroundRole(QPalette::Base);
  table_->setMargin(16);
  table_->setFrameShape(QFrame::Box);
  layout->addWidget(table_, 0, Qt::AlignCenter);
  setFocusPolicy(Qt::StrongFocus);
  parent->installEventFilter(this);
  hide();
}

QString KeysOverlay::text() const {
  return table_->text();
}

void KeysOverlay::toggle() {
  if (isVisible()) {
    hide();
    return;
  }
  setGeometry(parentWidget()->rect());
  show();
  raise();
  setFocus(Qt::PopupFocusReason);
}

void KeysOverlay::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), QColor(0, 0, 0, kBackdropAlpha));
}

void KeysOverlay::keyPressEvent(QKeyEvent*) {
  hide();
}

void KeysOverlay::mousePressEvent(QMouseEvent*) {
  hide();
}

bool KeysOverlay::eventFilter(QObject* watched, QEvent* event) {
  if (watched == parentWidget() && event->type() == QEvent::Resize)
    setGeometry(parentWidget()->rect());
  return QWidget::eventFilter(watched, event);
}

}  // namespace damscope
