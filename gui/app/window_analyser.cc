// Re-analysing a time window off the UI thread: see window_analyser.h.
#include "gui/app/window_analyser.h"

#include "analyzer/pipeline/window_analysis.h"

namespace damscope {

WindowAnalyser::WindowAnalyser(QObject* parent) : QObject(parent) {
  qRegisterMetaType<std::shared_ptr<const RankResult>>();
  qRegisterMetaType<TimeWindow>();
}

WindowAnalyser::~WindowAnalyser() = default;

void WindowAnalyser::analyse(const std::shared_ptr<const AnalysedRun>& run, int rank,
                             const TimeWindow& window, const AnalysisOptions& options) {
  if (!run || rank < 0 || static_cast<size_t>(rank) >= run->tables.size()) return;
  struct Outcome {
    std::shared_ptr<const RankResult> result;
    QString message;
    bool cancelled = false;
  };
  jobs_.run(
      [run, rank, window, options](const JobTracker::Job& job) {
        const size_t r = static_cast<size_t>(rank);
        auto analysed = analyseRange(run->tables[r], run->run.ranks[r].source, window.start,
                                     window.end, options, Progress({}, &job.cancel));
        Outcome out;
        if (analysed.ok()) {
          out.result = std::make_shared<const RankResult>(std::move(analysed).value());
        } else {
          out.message = QString::fromStdString(analysed.error().message());
          out.cancelled = analysed.error().code() == ErrorCode::kCancelled;
        }
        return out;
      },
      [this, rank, window](const Outcome& out) {
        if (out.result) {
          emit analysed(rank, window, out.result);
        } else if (!out.cancelled) {
          emit failed(QStringLiteral("Cannot analyse the window: %1").arg(out.message));
        }
      });
}

}  // namespace damscope
