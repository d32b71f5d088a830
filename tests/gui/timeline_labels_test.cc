// The step band's labels: inside their steps, never overlapping, shortened
// or skipped where a step is narrow.
#include "gui/timeline/step_labels.h"

#include <gtest/gtest.h>

#include <QFont>
#include <QFontMetricsF>

namespace damscope {
namespace {

TEST(StepLabels, WideStepsSayStepAndTheirNumber) {
  const QFontMetricsF metrics{QFont()};
  const StepExtent steps[] = {{0, 200, 1}, {200, 400, 2}};
  const auto labels = layoutStepLabels(steps, metrics);
  ASSERT_EQ(labels.size(), 2u);
  EXPECT_EQ(labels[0].text, "step 1");
  EXPECT_EQ(labels[1].step, 1u);
  EXPECT_NEAR((labels[0].x0 + labels[0].x1) / 2, 100, 0.5) << "centred";
}

TEST(StepLabels, ANarrowStepKeepsItsNumberOnlyAndATooNarrowOneNone) {
  const QFontMetricsF metrics{QFont()};
  const double number = metrics.horizontalAdvance("12");
  const double full = metrics.horizontalAdvance("step 12");
  const StepExtent steps[] = {{0, (number + full) / 2 + 4, 12}, {100, 100 + number / 2, 13}};
  const auto labels = layoutStepLabels(steps, metrics);
  ASSERT_EQ(labels.size(), 1u);
  EXPECT_EQ(labels[0].text, "12");
}

TEST(StepLabels, NoTwoLabelsOverlapEvenWhereStepsDo) {
  const QFontMetricsF metrics{QFont()};
  // 300 steps of random widths, some overlapping the one before.
  std::vector<StepExtent> steps;
  double x = 0;
  uint32_t seed = 1;
  for (int i = 0; i < 300; ++i) {
    seed = seed * 1664525u + 1013904223u;
    const double width = 5 + (seed >> 24) % 120;
    const double back = (seed >> 8) % 3 == 0 ? width / 2 : 0;
    steps.push_back({x - back, x - back + width, 1000 + i});
    x += width - back;
  }
  const auto labels = layoutStepLabels(steps, metrics);
  ASSERT_GT(labels.size(), 20u);
  for (size_t i = 0; i < labels.size(); ++i) {
    const StepExtent& step = steps[labels[i].step];
    EXPECT_GE(labels[i].x0, step.x0);
    EXPECT_LE(labels[i].x1, step.x1);
    if (i > 0) EXPECT_GE(labels[i].x0, labels[i - 1].x1 + kStepLabelGapPx);
  }
}

}  // namespace
}  // namespace damscope
