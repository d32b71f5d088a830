// The zoom history: see zoom_history.h.
#include "gui/timeline/zoom_history.h"

namespace damscope {

void ZoomHistory::leave(const ViewSpan& from, bool gradual) {
  const bool continues = gradual && in_gesture_;
  in_gesture_ = gradual;
  if (continues) return;
  forward_.clear();
  if (!back_.empty() && back_.back() == from) return;
  back_.push_back(from);
  if (back_.size() > kDepth) back_.pop_front();
}

std::optional<ViewSpan> ZoomHistory::back(const ViewSpan& current) {
  in_gesture_ = false;
  if (back_.empty()) return std::nullopt;
  const ViewSpan to = back_.back();
  back_.pop_back();
  forward_.push_back(current);
  return to;
}

std::optional<ViewSpan> ZoomHistory::forward(const ViewSpan& current) {
  in_gesture_ = false;
  if (forward_.empty()) return std::nullopt;
  const ViewSpan to = forward_.back();
  forward_.pop_back();
  back_.push_back(current);
  return to;
}

void ZoomHistory::clear() {
  back_.clear();
  forward_.clear();
  in_gesture_ = false;
}

}  // namespace damscope
