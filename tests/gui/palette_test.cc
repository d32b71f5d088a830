// The GUI's palette is the report's, and its text colour reads on every fill.
#include "gui/models/palette.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "analyzer/report/vocabulary.h"

namespace damscope {
namespace {

TEST(Palette, SameColoursAsTheReport) {
  for (size_t c = 0; c < kGapCauseCount; ++c) {
    const auto cause = static_cast<GapCause>(c);
    EXPECT_EQ(causeColor(cause).name().toStdString(), std::string(causeColour(cause)));
  }
  for (KernelCategory k : {KernelCategory::kGemm, KernelCategory::kAttention,
                           KernelCategory::kCommunication, KernelCategory::kOther}) {
    EXPECT_EQ(categoryColor(k).name().toStdString(), std::string(categoryColour(k)));
  }
  EXPECT_EQ(axisColor(Axis::kDataStall), causeColor(GapCause::kDataLoading));
}

TEST(Palette, TextOnAFillIsBlackOrWhiteByLuminance) {
  EXPECT_EQ(textOn(QColor(Qt::white)), QColor(Qt::black));
  EXPECT_EQ(textOn(QColor(Qt::black)), QColor(Qt::white));
  EXPECT_EQ(textOn(QColor("#2f6eb5")), QColor(Qt::white));  // GEMM blue
  EXPECT_EQ(textOn(QColor("#e6a100")), QColor(Qt::black));  // normalization amber
}

TEST(Palette, TheTimelinesOtherColoursAreDistinctAndStable) {
  const QColor copy = eventKindColor(EventKind::kMemcpy);
  EXPECT_NE(copy, eventKindColor(EventKind::kMemset));
  EXPECT_NE(copy, eventKindColor(EventKind::kApiCall));
  EXPECT_NE(eventKindColor(EventKind::kSync), eventKindColor(EventKind::kApiCall));
  EXPECT_EQ(eventKindColor(EventKind::kKernel), QColor(Qt::gray)) << "kernels by category";
  // One name, one hue, every time; neighbouring names apart.
  EXPECT_EQ(rangeColor(7), rangeColor(7));
  EXPECT_GT(std::abs(rangeColor(7).hslHue() - rangeColor(8).hslHue()), 20);
  EXPECT_NE(stepBandColor(0), stepBandColor(1));
  EXPECT_EQ(stepBandColor(0), stepBandColor(2));
  EXPECT_NE(counterColor(), highlightColor());
}

}  // namespace
}  // namespace damscope
