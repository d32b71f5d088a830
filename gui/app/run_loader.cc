// Opening a run off the UI thread: see run_loader.h.
#include "gui/app/run_loader.h"

#include <QtConcurrent/QtConcurrentRun>

namespace damscope {

struct RunLoader::Job {
  uint64_t generation = 0;
  CancelToken cancel;
};

RunLoader::RunLoader(QObject* parent) : QObject(parent) {
  qRegisterMetaType<std::shared_ptr<const AnalysedRun>>();
}

RunLoader::~RunLoader() {
  cancel();
  future_.waitForFinished();
}

PipelineOptions RunLoader::pipelineOptions() {
  PipelineOptions options;
  options.store_imports = false;
  return options;
}

void RunLoader::cancel() {
  if (running_) running_->cancel.cancel();
}

void RunLoader::load(const QStringList& inputs) {
  cancel();
  auto job = std::make_shared<Job>();
  job->generation = ++generation_;
  running_ = job;
  std::vector<std::string> paths;
  for (const QString& input : inputs) paths.push_back(input.toStdString());
  const PipelineOptions options = pipelineOptions();

  // The previous job, if any, was told to stop; waiting here for it keeps
  // one pipeline at a time (it notices within a few thousand events).
  future_.waitForFinished();
  future_ = QtConcurrent::run([this, job, paths, options, inputs] {
    const uint64_t generation = job->generation;
    // Reports come every few thousand events; the bar needs a few hundred
    // steps at most, so only a new stage or 0.5 % more is posted.
    auto last = std::make_shared<std::pair<std::string, double>>("", -1.0);
    const Progress progress(
        [this, generation, last](const ProgressUpdate& u) {
          if (u.stage == last->first && u.fraction - last->second < 0.005) return;
          last->first = std::string(u.stage);
          last->second = u.fraction;
          const QString stage = QString::fromUtf8(u.stage.data(), qsizetype(u.stage.size()));
          const QString detail = QString::fromUtf8(u.detail.data(), qsizetype(u.detail.size()));
          const double fraction = u.fraction;
          QMetaObject::invokeMethod(
              this,
              [this, generation, stage, detail, fraction] {
                if (generation == generation_) emit progressed(stage, detail, fraction);
              },
              Qt::QueuedConnection);
        },
        &job->cancel);
    auto opened = openRun(paths, options, EventsNeeded::kEveryRank, progress);
    std::shared_ptr<const AnalysedRun> run;
    QString message;
    bool cancelled = false;
    if (opened.ok()) {
      run = std::make_shared<const AnalysedRun>(std::move(opened.value()));
    } else {
      message = QString::fromStdString(opened.error().message());
      cancelled = opened.error().code() == ErrorCode::kCancelled;
    }
    QMetaObject::invokeMethod(
        this,
        [this, generation, run, message, cancelled, inputs] {
          if (generation != generation_) return;  // a newer load replaced this one
          running_.reset();
          if (run) {
            emit loaded(run, inputs);
          } else {
            emit failed(message, cancelled);
          }
        },
        Qt::QueuedConnection);
  });
}

}  // namespace damscope
