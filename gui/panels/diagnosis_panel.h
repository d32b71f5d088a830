// The diagnosis panel: what damscope concludes about one rank, read top to
// bottom — the verdict (coloured by the axis it rests on), the key figures
// (step time, throughput, MFU or why it is not computed, device utilisation
// and idle, as result_words.h phrases them for every output), the scorecard
// as one stacked bar, and the findings in the analyzer's order as cards with
// their recommendation and max gain. Clicking a finding asks the timeline to
// show its evidence. With a time window selected it shows the window's
// re-analysis instead (setWindowResult), in the same form.
#pragma once

#include <memory>

#include <QWidget>

#include "gui/models/event_ref.h"

class QLabel;
class QListView;
class QGridLayout;

namespace damscope {

class ElidedLabel;
class FindingsModel;
class ScorecardBar;

class DiagnosisPanel : public QWidget {
  Q_OBJECT

 public:
  explicit DiagnosisPanel(QWidget* parent = nullptr);
  ~DiagnosisPanel() override;

  // A null run clears the panel.
  void setRun(std::shared_ptr<const AnalysedRun> run, int rank);
  // Shows `result` (the rank's re-analysis over a time window) in place of
  // the run's result for the rank, under a line naming `window` ("360–550
  // ms", as the chip says it); null shows the run's again.
  void setWindowResult(std::shared_ptr<const RankResult> result, const QString& window = {});
  // The line that says what the panel describes; hidden for the whole run.
  QLabel* scopeLabel() const { return scope_; }
  // What the panel shows: the window's result, else the run's for the rank.
  const RankResult* shown() const;

  FindingsModel* findingsModel() const { return findings_; }
  ScorecardBar* scorecardBar() const { return bar_; }
  // "Where the step time goes: the 5 analysed steps"; its tooltip says what
  // the shares are of.
  QLabel* scorecardTitle() const { return scorecard_title_; }
  QListView* findingsView() const { return view_; }

 signals:
  // The clicked finding's evidence events (eventsOfFinding), in its order.
  void eventsRequested(const damscope::EventRefs& events);

 private:
  void clearFigures();
  void showResult(const RankResult* r);

  std::shared_ptr<const AnalysedRun> run_;
  int rank_ = 0;
  std::shared_ptr<const RankResult> window_result_;
  QLabel* scope_ = nullptr;
  QLabel* verdict_ = nullptr;
  QLabel* sentence_ = nullptr;
  ElidedLabel* context_ = nullptr;
  QGridLayout* figures_ = nullptr;
  QLabel* scorecard_title_ = nullptr;
  ScorecardBar* bar_ = nullptr;
  QLabel* findings_title_ = nullptr;
  FindingsModel* findings_ = nullptr;
  QListView* view_ = nullptr;
};

}  // namespace damscope
