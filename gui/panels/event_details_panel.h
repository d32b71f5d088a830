// The event-details panel: what eventDetails() says about the event the
// timeline selected (name, start, duration, grid/block, stream, bytes, its
// launch call and enclosing ranges, a gap's causes). The name spans the top;
// the other lines flow top to bottom into as many label/value column groups
// as the width holds (kGroupWidthPx each), so a wide, short dock (under the
// timeline) shows a kernel's launch call without scrolling (issue 31 §5).
// It shows a selected time window's summary the same way (showLines).
#pragma once

#include <memory>

#include <QWidget>

#include "gui/models/event_details.h"

class QGridLayout;
class QLabel;

namespace damscope {

class EventDetailsPanel : public QWidget {
  Q_OBJECT

 public:
  // The width one label/value group needs to read "Launched by
  // cudaLaunchKernel at +1.2 ms, 5.1 µs" on one or two lines.
  static constexpr int kGroupWidthPx = 380;

  explicit EventDetailsPanel(QWidget* parent = nullptr);

  // Remembers the run events refer to; clears the form. Null clears.
  void setRun(std::shared_ptr<const AnalysedRun> run, int rank);

  // The lines shown now, as eventDetails returned them.
  const EventDetailLines& lines() const { return lines_; }
  // The label showing the value of the line `key` ("Launched by"); null when
  // no such line is shown.
  QLabel* valueLabel(const QString& key) const;
  // The column groups the lines are laid out in now.
  int groups() const { return groups_; }

 public slots:
  void showEvent(const damscope::EventRef& event);
  // Shows `lines` as they are: what a selected time window holds
  // (rangeSummaryLines, gui/timeline/range_summary.h).
  void showLines(const damscope::EventDetailLines& lines);

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void fill();
  int groupsFor(int width) const;

  std::shared_ptr<const AnalysedRun> run_;
  EventDetailLines lines_;
  int groups_ = 1;
  QLabel* name_ = nullptr;
  QGridLayout* grid_ = nullptr;
  QLabel* placeholder_ = nullptr;
};

}  // namespace damscope
