// Re-analyses one rank of the open run over a time window, off the UI thread:
// what the diagnosis, the scorecard and the statistics show once a person
// selects a window on the timeline (Shift+drag; View ▸ Analyse Visible
// Range). The work is analyseRange (analyzer/pipeline/window_analysis.h) on
// the rank's event tables, which the open run already holds: nothing is read
// again, and nothing is stored.
//
// The newest window wins (a JobTracker, job_tracker.h): a window selected
// while another is being analysed cancels that one and drops its result, so
// dragging twice quickly shows the second window only. clear() drops the one
// running (the whole run is shown again).
#pragma once

#include <QObject>
#include <QString>
#include <memory>

#include "analyzer/pipeline/pipeline.h"
#include "gui/app/job_tracker.h"
#include "gui/models/time_window.h"

namespace damscope {

class WindowAnalyser : public QObject {
  Q_OBJECT

 public:
  explicit WindowAnalyser(QObject* parent = nullptr);
  ~WindowAnalyser() override;

  // Starts analysing `rank` of `run` over `window` with `options` (those the
  // run was opened with, so only the window differs).
  void analyse(const std::shared_ptr<const AnalysedRun>& run, int rank, const TimeWindow& window,
               const AnalysisOptions& options);
  // Drops the analysis running, if any.
  void clear() { jobs_.abandon(); }
  bool busy() const { return jobs_.busy(); }

 signals:
  void analysed(int rank, const damscope::TimeWindow& window,
                std::shared_ptr<const damscope::RankResult> result);
  // What went wrong, naming the window; never for an analysis dropped or cancelled.
  void failed(const QString& message);

 private:
  JobTracker jobs_{this};
};

}  // namespace damscope

Q_DECLARE_METATYPE(std::shared_ptr<const damscope::RankResult>)
