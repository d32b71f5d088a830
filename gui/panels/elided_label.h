// A one-line label that ends in "…" when its text is wider than the label,
// with the whole text in its tooltip: for lines whose text comes from the
// trace (a device's name, a range's), which must give way to the panel
// rather than widen it, and must not look complete when they are cut.
#pragma once

#include <QLabel>
#include <QString>

class QResizeEvent;

namespace damscope {

class ElidedLabel : public QLabel {
 public:
  using QLabel::QLabel;

  // The text to show, elided at the right to the label's width.
  void setFullText(const QString& text);
  const QString& fullText() const { return full_text_; }

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void elide();

  QString full_text_;
};

}  // namespace damscope
