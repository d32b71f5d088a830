// The keys overlay (`?`, Help ▸ Keys): every key and mouse gesture of the
// window, from the one table that drives the timeline's keys
// (gui/models/timeline_keys.h), drawn over the window it belongs to as
// Perfetto's and Tracy's help screens are. Any key or click closes it.
#pragma once

#include <QWidget>

class QLabel;

namespace damscope {

class KeysOverlay : public QWidget {
  Q_OBJECT

 public:
  // Covers `parent` (and follows its size) while shown; hidden at first.
  explicit KeysOverlay(QWidget* parent);

  // The table shown: one row per line of timelineKeyHelp().
  QString text() const;

 public slots:
  void toggle();

 protected:
  void paintEvent(QPaintEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  QLabel* table_ = nullptr;
};

}  // namespace damscope
