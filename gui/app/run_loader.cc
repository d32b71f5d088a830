// Opening a run off the UI thread: see run_loader.h.
#include "gui/app/run_loader.h"

namespace damscope {

RunLoader::RunLoader(QObject* parent) : QObject(parent) {
  qRegisterMetaType<std::shared_ptr<const AnalysedRun>>();
}

RunLoader::~RunLoader() = default;

PipelineOptions RunLoader::pipelineOptions() {
  PipelineOptions options;
  options.store_imports = false;
  return options;
}

void RunLoader::cancel() {
  jobs_.cancel();
}

void RunLoader::load(const QStringList& inputs) {
  std::vector<std::string> paths;
  for (const QString& input : inputs) paths.push_back(input.toStdString());
  const PipelineOptions options = pipelineOptions();
  struct Outcome {
    std::shared_ptr<const AnalysedRun> run;
    QString message;
    bool cancelled = false;
  };
  // The previous job, if any, is told to stop and waited for: one pipeline
  // at a time (it notices within a few thousand events).
  jobs_.run(
      [this, paths, options](const JobTracker::Job& job) {
        const uint64_t id = job.id;
        // Reports come every few thousand events; the bar needs a few hundred
        // steps at most, so only a new stage or 0.5 % more is posted.
        auto last = std::make_shared<std::pair<std::string, double>>("", -1.0);
        const Progress progress(
            [this, id, last](const ProgressUpdate& u) {
              if (u.stage == last->first && u.fraction - last->second < 0.005) return;
              last->first = std::string(u.stage);
              last->second = u.fraction;
              const QString stage = QString::fromUtf8(u.stage.data(), qsizetype(u.stage.size()));
              const QString detail = QString::fromUtf8(u.detail.data(), qsizetype(u.detail.size()));
              const double fraction = u.fraction;
              QMetaObject::invokeMethod(
                  this,
                  [this, id, stage, detail, fraction] {
                    if (jobs_.isCurrent(id)) emit progressed(stage, detail, fraction);
                  },
                  Qt::QueuedConnection);
            },
            &job.cancel);
        auto opened = openRun(paths, options, EventsNeeded::kEveryRank, progress);
        Outcome out;
        if (opened.ok()) {
          out.run = std::make_shared<const AnalysedRun>(std::move(opened.value()));
        } else {
          out.message = QString::fromStdString(opened.error().message());
          out.cancelled = opened.error().code() == ErrorCode::kCancelled;
        }
        return out;
      },
      [this, inputs](const Outcome& out) {
        if (out.run) {
          emit loaded(out.run, inputs);
        } else {
          emit failed(out.message, out.cancelled);
        }
      },
      JobTracker::Overlap::kWaitForPrevious);
}

}  // namespace damscope
