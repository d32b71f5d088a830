// The zoom history: jumps are steps, a run of gradual moves is one step,
// back and forward walk them, a new move drops the forward stack.
#include <gtest/gtest.h>

#include "gui/timeline/zoom_history.h"

namespace damscope {
namespace {

TEST(ZoomHistory, BackAndForwardWalkTheJumps) {
  ZoomHistory h;
  EXPECT_FALSE(h.back({0, 100}));
  h.leave({0, 100}, false);
  h.leave({10, 20}, false);
  EXPECT_EQ(h.back({12, 14}), (ViewSpan{10, 20}));
  EXPECT_EQ(h.back({10, 20}), (ViewSpan{0, 100}));
  EXPECT_FALSE(h.canGoBack());
  EXPECT_EQ(h.forward({0, 100}), (ViewSpan{10, 20}));
  EXPECT_EQ(h.forward({10, 20}), (ViewSpan{12, 14}));
  EXPECT_FALSE(h.canGoForward());
}

TEST(ZoomHistory, AGestureOfGradualMovesIsOneStep) {
  ZoomHistory h;
  h.leave({0, 100}, true);  // first wheel notch: leaves the whole view
  h.leave({5, 95}, true);
  h.leave({10, 90}, true);
  EXPECT_EQ(h.back({15, 85}), (ViewSpan{0, 100}));
  EXPECT_FALSE(h.canGoBack());
  // A jump ends the gesture: the next gradual move starts a new step.
  h.leave({15, 85}, false);
  h.leave({20, 30}, true);
  h.leave({21, 31}, true);
  EXPECT_EQ(h.back({22, 32}), (ViewSpan{20, 30}));
  EXPECT_EQ(h.back({20, 30}), (ViewSpan{15, 85}));
}

TEST(ZoomHistory, AMoveAfterBackDropsForward) {
  ZoomHistory h;
  h.leave({0, 100}, false);
  ASSERT_TRUE(h.back({10, 20}));
  EXPECT_TRUE(h.canGoForward());
  h.leave({0, 100}, false);
  EXPECT_FALSE(h.canGoForward());
}

TEST(ZoomHistory, KeepsAtMostItsDepth) {
  ZoomHistory h;
  for (int64_t i = 0; i < static_cast<int64_t>(ZoomHistory::kDepth) + 10; ++i)
    h.leave({i, i + 1}, false);
  size_t steps = 0;
  std::optional<ViewSpan> last;
  while (auto v = h.back({-1, -1})) {
    last = v;
    ++steps;
  }
  EXPECT_EQ(steps, ZoomHistory::kDepth);
  EXPECT_EQ(last, (ViewSpan{10, 11})) << "the oldest are forgotten";
}

}  // namespace
}  // namespace damscope
