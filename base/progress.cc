// Progress and cancellation: see progress.h.
#include "base/progress.h"

#include <algorithm>

namespace damscope {

Progress::Progress(ProgressCallback callback, const CancelToken* cancel)
    : sink_(std::make_shared<const Sink>(Sink{std::move(callback), cancel})) {}

Progress Progress::part(double begin, double end, std::string stage, std::string detail) const {
  Progress sub = *this;
  const double span = end_ - begin_;
  const double b = std::clamp(begin, 0.0, 1.0);
  sub.begin_ = begin_ + span * b;
  sub.end_ = begin_ + span * std::clamp(end, b, 1.0);
  if (!stage.empty()) sub.stage_ = std::move(stage);
  if (!detail.empty()) sub.detail_ = std::move(detail);
  return sub;
}

void Progress::report(double fraction) const {
  if (!sink_ || !sink_->callback) return;
  const double f = begin_ + (end_ - begin_) * std::clamp(fraction, 0.0, 1.0);
  sink_->callback(ProgressUpdate{stage_, detail_, f});
}

Status Progress::checkCancelled() const {
  if (cancelled()) return cancelledError();
  return okStatus();
}

ParallelProgress::ParallelProgress(const Progress& whole, size_t pieces)
    : state_(std::make_shared<State>()) {
  state_->whole = whole;
  state_->done.assign(pieces, 0.0);
}

Progress ParallelProgress::piece(size_t i) const {
  const CancelToken* cancel = state_->whole.sink_ ? state_->whole.sink_->cancel : nullptr;
  std::shared_ptr<State> state = state_;
  return Progress(
      [state, i](const ProgressUpdate& u) {
        std::lock_guard<std::mutex> lock(state->mutex);
        state->sum += u.fraction - state->done[i];
        state->done[i] = u.fraction;
        const double n = static_cast<double>(state->done.size());
        state->whole.part(0, 1, std::string(u.stage), std::string(u.detail)).report(state->sum / n);
      },
      cancel);
}

Error cancelledError() {
  return Error("cancelled", ErrorCode::kCancelled);
}

}  // namespace damscope
