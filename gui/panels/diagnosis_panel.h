// The diagnosis panel: what damscope concludes about one rank, read top to
// bottom — the verdict (coloured by the axis it rests on), the key figures
// (step time, throughput, MFU or why it is not computed, device utilisation
// and idle, as result_words.h phrases them for every output), the scorecard
// as one stacked bar, and the findings in the analyzer's order as cards with
// their recommendation and max gain. Clicking a finding asks the timeline to
// show its evidence.
#pragma once

#include <memory>

#include <QWidget>

#include "gui/models/event_ref.h"

class QLabel;
class QListView;
class QGridLayout;

namespace damscope {

class FindingsModel;
class ScorecardBar;

class DiagnosisPanel : public QWidget {
  Q_OBJECT

 public:
  explicit DiagnosisPanel(QWidget* parent = nullptr);
  ~DiagnosisPanel() override;

  // A null run clears the panel.
  void setRun(std::shared_ptr<const AnalysedRun> run, int rank);

  FindingsModel* findingsModel() const { return findings_; }
  QListView* findingsView() const { return view_; }

 signals:
  // The clicked finding's evidence events (eventsOfFinding), in its order.
  void eventsRequested(const damscope::EventRefs& events);

 private:
  void clearFigures();

  std::shared_ptr<const AnalysedRun> run_;
  QLabel* verdict_ = nullptr;
  QLabel* sentence_ = nullptr;
  QLabel* context_ = nullptr;
  QGridLayout* figures_ = nullptr;
  ScorecardBar* bar_ = nullptr;
  QLabel* findings_title_ = nullptr;
  FindingsModel* findings_ = nullptr;
  QListView* view_ = nullptr;
};

}  // namespace damscope
