// The timeline as the main window shows it: the TimelineWidget under a bar
// with search (Ctrl+F focuses it; Enter and F3 go to the next match,
// Shift+F3 to the previous one; "3 of 41" says where the match stands among
// all of them), Fit, and a one-line reminder of the mouse
// and keys. Large runs get their rows and level-of-detail aggregates built
// off the UI thread (buildTimelineData), so opening a 10 M-event trace does
// not freeze the window; ready() says when the timeline shows the run. The
// build is a job of a JobTracker (gui/app/job_tracker.h): another run or
// rank asked for meanwhile makes its result stale, and it is dropped. With
// rank TimelineWidget::kAllRanks every rank of the job is stacked
// (buildJobTimelineData), and the bar says which clock aligns them.
#pragma once

#include <QWidget>
#include <memory>

#include "gui/app/job_tracker.h"
#include "gui/models/event_ref.h"

class QLabel;
class QLineEdit;

namespace damscope {

class TimelineWidget;

class TimelineView : public QWidget {
  Q_OBJECT

 public:
  // Runs with fewer events are built on the calling thread (a few ms each
  // 100 k events), the rest on a worker.
  static constexpr size_t kBuildOnWorkerEvents = 500'000;

  explicit TimelineView(QWidget* parent = nullptr);
  ~TimelineView() override;

  TimelineWidget* timeline() const { return timeline_; }
  bool isReady() const { return ready_; }
  // What the search bar says: "3 of 41", "no event named …" or nothing.
  QString searchStatus() const;

 public slots:
  void setRun(const std::shared_ptr<const damscope::AnalysedRun>& run, int rank);
  void showEvents(const damscope::EventRefs& events);
  void focusSearch();

 signals:
  void eventSelected(const damscope::EventRef& event);
  // How far a build on the worker is, 0..1 (a new stage or 1 % more).
  void buildProgressed(double fraction);
  void ready();

 private:
  void find(bool forward);
  // The run is shown: say on which clock a stacked view's ranks are, and
  // show what was asked for meanwhile.
  void shown();

  TimelineWidget* timeline_ = nullptr;
  QLineEdit* search_ = nullptr;
  QLabel* status_ = nullptr;
  QString clock_text_;  // a stacked view's clock, shown when no search message is
  JobTracker builds_{this};
  bool ready_ = false;
  EventRefs pending_events_;  // asked for while the rows were being built
};

}  // namespace damscope
