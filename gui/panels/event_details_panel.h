// The event-details panel: a two-column form of what eventDetails() says
// about the event the timeline selected (name, start, duration, grid/block,
// stream, bytes, its launch call and enclosing ranges, a gap's causes), or
// what a selected time window holds.
#pragma once

#include <memory>

#include <QWidget>

#include "gui/models/event_details.h"

class QFormLayout;
class QLabel;

namespace damscope {

class EventDetailsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit EventDetailsPanel(QWidget* parent = nullptr);

  // Remembers the run events refer to; clears the form. Null clears.
  void setRun(std::shared_ptr<const AnalysedRun> run, int rank);

  // The lines shown now, as eventDetails returned them.
  const EventDetailLines& lines() const { return lines_; }

 public slots:
  void showEvent(const damscope::EventRef& event);
  // Shows `lines` as they are: what a selected time window holds
  // (rangeSummaryLines, gui/timeline/range_summary.h).
  void showLines(const damscope::EventDetailLines& lines);

 private:
  void fill();

  std::shared_ptr<const AnalysedRun> run_;
  EventDetailLines lines_;
  QFormLayout* form_ = nullptr;
  QLabel* placeholder_ = nullptr;
};

}  // namespace damscope
