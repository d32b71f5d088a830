// The timeline's zoom history, as a browser's: every jump of the view (fit,
// a zoom to a range, to a finding's evidence or a search match) leaves the
// view it left on the back stack; back (Alt+Left) returns to it and forward
// (Alt+Right) undoes the back. A run of small moves (wheel notches, a drag,
// key presses that zoom or pan) is one step, so back undoes the whole
// gesture, not its last notch — as Perfetto and Nsight Systems do for their
// zoom undo. A new move after a back drops the forward stack.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

namespace damscope {

// A view of the timeline: [start, end) in ns on the trace's clock.
struct ViewSpan {
  int64_t start = 0;
  int64_t end = 0;
  bool operator==(const ViewSpan&) const = default;
};

class ZoomHistory {
 public:
  // Back entries kept; older ones are forgotten (a session of zooming rarely
  // needs more, and each entry is 16 bytes).
  static constexpr size_t kDepth = 100;

  // The view is about to change from `from`. `gradual`: a small move that
  // continues the previous one, if that was gradual too.
  void leave(const ViewSpan& from, bool gradual);
  // The view to go back to from `current` (which forward() will return to),
  // or none.
  std::optional<ViewSpan> back(const ViewSpan& current);
  std::optional<ViewSpan> forward(const ViewSpan& current);
  bool canGoBack() const { return !back_.empty(); }
  bool canGoForward() const { return !forward_.empty(); }
  void clear();

 private:
  std::deque<ViewSpan> back_;
  std::vector<ViewSpan> forward_;
  bool in_gesture_ = false;
};

}  // namespace damscope
