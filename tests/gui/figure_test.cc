// Figures as every panel writes them (figure_text.h) and what they count over
// (figure_scope.h): a figure that does not exist is a dash with its reason,
// never "0 ns" or "-0.0 %", and every scope is named in words a person can
// tell apart.
#include <gtest/gtest.h>

#include "analyzer/report/result_words.h"
#include "gui/models/figure_scope.h"
#include "gui/models/figure_text.h"
#include "tests/gui/gui_test_support.h"

namespace damscope {
namespace {

using testing::analysedRunOf;
using testing::smallTrainingTrace;

TEST(FigureText, APercentThatRoundsToZeroHasNoSign) {
  EXPECT_EQ(percentText(-0.04), QStringLiteral("0.0 %"));
  EXPECT_EQ(percentText(-0.0), QStringLiteral("0.0 %"));
  EXPECT_EQ(percentText(-0.4, 0), QStringLiteral("0 %"));
  EXPECT_EQ(percentText(-0.06), QStringLiteral("-0.1 %")) << "a real negative keeps its sign";
  EXPECT_EQ(percentText(12.345), QStringLiteral("12.3 %"));
}

TEST(FigureText, AMissingFigureIsADashWithItsReason) {
  const FigureText missing = percentFigure(std::nullopt, QStringLiteral("no collectives"));
  EXPECT_TRUE(missing.missing);
  EXPECT_EQ(missing.text, missingText());
  EXPECT_EQ(missing.text, QStringLiteral("–"));
  EXPECT_EQ(missing.tooltip, QStringLiteral("no collectives"));
  EXPECT_TRUE(durationFigure(std::nullopt, QStringLiteral("no steps")).missing);
  EXPECT_TRUE(durationFigure(std::nan(""), QStringLiteral("no steps")).missing);

  const FigureText zero = durationFigure(0.0, QStringLiteral("unused"));
  EXPECT_FALSE(zero.missing) << "a measured zero is a figure";
  EXPECT_EQ(zero.text, QStringLiteral("0 ns"));
  EXPECT_TRUE(zero.tooltip.isEmpty());
  EXPECT_EQ(percentFigure(-0.01, QStringLiteral("unused")).text, QStringLiteral("0.0 %"));
}

// smallTrainingTrace has three steps; HTA's cut leaves two analysed.
TEST(FigureScope, TheAnalysedStepsAndTheWholeTraceAreNamedApart) {
  const AnalysedRun run = analysedRunOf(smallTrainingTrace());
  const RankResult& rank = run.run.ranks[0];
  ASSERT_EQ(rank.steps.size(), 3u);
  ASSERT_EQ(rank.window.step_count, 2);
  EXPECT_EQ(scopeWords(rank, FigureScope::kAnalysedSteps),
            QStringLiteral("the 2 analysed steps (the last of 3 steps is cut off, as HTA does)"));
  EXPECT_EQ(scopeWords(rank, FigureScope::kWholeTrace),
            QStringLiteral("the whole trace (3 steps)"));

  EXPECT_FALSE(scopeWindow(rank, FigureScope::kWholeTrace));
  const std::optional<TimeWindow> analysed = scopeWindow(rank, FigureScope::kAnalysedSteps);
  ASSERT_TRUE(analysed);
  EXPECT_EQ(analysed->start, *rank.window.start_ns);
  EXPECT_EQ(analysed->end, *rank.window.end_ns);
  EXPECT_LT(analysed->end, rank.steps.back().ts + rank.steps.back().dur)
      << "the cut step is outside";
}

TEST(FigureScope, EveryKeyFigureOfTheDiagnosisSaysWhatItCountsOver) {
  const AnalysedRun run = analysedRunOf(smallTrainingTrace());
  const RankResult& rank = run.run.ranks[0];
  const std::vector<KeyFigure> figures = keyFigures(rank, {});
  ASSERT_GE(figures.size(), 3u);
  for (const KeyFigure& f : figures) {
    EXPECT_FALSE(keyFigureScope(rank, f.label).isEmpty()) << f.label;
  }
  // Utilization is of wall time, not of the kernels' time the statistics share.
  const QString utilization = keyFigureScope(rank, "GPU utilization");
  EXPECT_TRUE(utilization.contains("wall time")) << utilization.toStdString();
  EXPECT_TRUE(utilization.contains("Statistics")) << utilization.toStdString();
  EXPECT_TRUE(scorecardScope(rank).contains(scopeWords(rank, FigureScope::kAnalysedSteps)));
  EXPECT_TRUE(keyFigureScope(rank, "no such figure").isEmpty());
}

}  // namespace
}  // namespace damscope
