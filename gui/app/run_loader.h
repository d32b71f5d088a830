// Opens a run off the UI thread: the pipeline's openRun (import or read,
// analyse, store; every rank's events kept) runs on a worker thread while the window stays
// responsive; progress and the outcome come back to the UI thread as queued
// signals (Hotspot's habit: heavy work in a pool, results delivered by
// queued calls, stale results dropped).
//
// One load at a time: load() while another runs cancels it, waits for it to
// stop, and whatever the cancelled one still delivers is dropped (a
// JobTracker, job_tracker.h, keeps the jobs). cancel()
// is cooperative (base/progress.h): the pipeline stops at its next check and
// leaves no partial file. The destructor cancels and waits, so no worker
// outlives the loader.
//
// Where results go: a run.db gets its analysis stored in it (as `damscope
// analyze` does, so the next open only reads); a Kineto or nsys trace is
// imported and analysed in memory and nothing is written beside it, so
// opening a file never leaves files in the current directory.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <memory>

#include "analyzer/pipeline/pipeline.h"
#include "base/progress.h"
#include "gui/app/job_tracker.h"

namespace damscope {

class RunLoader : public QObject {
  Q_OBJECT

 public:
  explicit RunLoader(QObject* parent = nullptr);
  ~RunLoader() override;

  // Starts opening `inputs` as the ranks of one run, in order.
  void load(const QStringList& inputs);
  void cancel();
  bool busy() const { return jobs_.busy(); }

  // The options the pipeline gets: results stored only into run.db files.
  static PipelineOptions pipelineOptions();

 signals:
  // fraction of the whole load, 0..1; stage as the pipeline names it
  // ("importing", "analysing", ...), detail the input it works on.
  void progressed(const QString& stage, const QString& detail, double fraction);
  void loaded(std::shared_ptr<const damscope::AnalysedRun> run, const QStringList& inputs);
  // message names the file and what is wrong; cancelled: the user asked.
  void failed(const QString& message, bool cancelled);

 private:
  JobTracker jobs_{this};
};

}  // namespace damscope

Q_DECLARE_METATYPE(std::shared_ptr<const damscope::AnalysedRun>)
