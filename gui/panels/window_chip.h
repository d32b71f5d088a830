// The chip that says the diagnosis is scoped to a time window:
// "window: 1.20–1.45 s  [clear]", times relative to the trace's start as the
// timeline's ruler shows them, "analysing…" while the window's re-analysis
// runs. Clear asks to show the whole run again (clearRequested). Whoever
// places it hides it while no window is selected (in a tool bar, through
// its action: QToolBar::addWidget).
#pragma once

#include <cstdint>
#include <optional>

#include <QFrame>

#include "gui/models/time_window.h"

class QLabel;
class QToolButton;

namespace damscope {

class WindowChip : public QFrame {
  Q_OBJECT

 public:
  explicit WindowChip(QWidget* parent = nullptr);

  // Says `window` (relative to `origin`, the trace's start); none: nothing.
  void setWindow(std::optional<TimeWindow> window, int64_t origin);
  void setAnalysing(bool analysing);
  // The chip's words, e.g. "window: 1.20–1.45 s".
  QString text() const;
  QToolButton* clearButton() const { return clear_; }

 signals:
  void clearRequested();

 private:
  void refresh();

  QLabel* label_ = nullptr;
  QToolButton* clear_ = nullptr;
  std::optional<TimeWindow> window_;
  int64_t origin_ = 0;
  bool analysing_ = false;
};

}  // namespace damscope
