// The GUI's palette is the report's, and its text colour reads on every fill.
#include "gui/models/palette.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

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
  EXPECT_EQ(textOn(categoryColor(KernelCategory::kGemm)), QColor(Qt::white));  // mid purple
  EXPECT_EQ(textOn(axisColor(Axis::kSyncStall)), QColor(Qt::black));           // yellow
}

TEST(Palette, HueFamiliesByHueDistanceAndNeutralsByLightness) {
  // The clashes the palettes had: GEMM blue beside communication-wait blue,
  // NCCL green beside compute-bound green.
  EXPECT_TRUE(sameHueFamily(QColor("#2f6eb5"), QColor("#3b82c4")));
  EXPECT_TRUE(sameHueFamily(QColor("#1b9e3e"), QColor("#4c9f38")));
  // Across 0 degrees: red at 355 and at 10 are one family.
  EXPECT_TRUE(sameHueFamily(QColor::fromHsl(355, 200, 120), QColor::fromHsl(10, 200, 120)));
  EXPECT_FALSE(sameHueFamily(QColor::fromHsl(0, 200, 120), QColor::fromHsl(40, 200, 120)));
  // A grey has no hue: it never matches a colour, and matches a grey of
  // about its lightness only.
  EXPECT_FALSE(sameHueFamily(QColor("#808080"), QColor::fromHsl(0, 200, 128)));
  EXPECT_TRUE(sameHueFamily(QColor("#a3a3a3"), QColor("#b8b8b8")));
  EXPECT_FALSE(sameHueFamily(QColor("#737373"), QColor("#bdbdbd")));
}

TEST(Palette, NoKernelClassSharesAHueFamilyWithAnAxisOrACause) {
  std::vector<QColor> diagnosis;
  for (size_t a = 0; a < kAxisCount; ++a) diagnosis.push_back(axisColor(static_cast<Axis>(a)));
  for (size_t c = 0; c < kGapCauseCount; ++c) {
    diagnosis.push_back(causeColor(static_cast<GapCause>(c)));
  }
  for (size_t k = 0; k < kKernelCategoryCount; ++k) {
    const auto category = static_cast<KernelCategory>(k);
    for (const QColor& other : diagnosis) {
      EXPECT_FALSE(sameHueFamily(categoryColor(category), other))
          << toText(category) << " " << categoryColor(category).name().toStdString() << " vs "
          << other.name().toStdString();
    }
  }
}

TEST(Palette, EachKernelClassAndEachAxisHasAColourOfItsOwn) {
  for (size_t i = 0; i < kKernelCategoryCount; ++i) {
    for (size_t j = i + 1; j < kKernelCategoryCount; ++j) {
      EXPECT_NE(categoryColor(static_cast<KernelCategory>(i)),
                categoryColor(static_cast<KernelCategory>(j)));
    }
  }
  for (size_t i = 0; i < kAxisCount; ++i) {
    for (size_t j = i + 1; j < kAxisCount; ++j) {
      EXPECT_NE(axisColor(static_cast<Axis>(i)), axisColor(static_cast<Axis>(j)));
    }
  }
}

TEST(Palette, AFoldsOpacityIsItsBusyFractionAboveAFloor) {
  EXPECT_DOUBLE_EQ(foldAlpha(0.003), kMinFoldAlpha) << "0.3 % busy is not solid";
  EXPECT_DOUBLE_EQ(foldAlpha(0.6), 0.6);
  EXPECT_DOUBLE_EQ(foldAlpha(1.0), 1.0);
  EXPECT_DOUBLE_EQ(foldAlpha(2.5), 1.0) << "overlapping events count twice: capped";
  const QColor fold = foldColor(QColor("#6a51a3"), 0.003);
  EXPECT_EQ(fold.rgb(), QColor("#6a51a3").rgb());
  EXPECT_NEAR(fold.alphaF(), kMinFoldAlpha, 1.0 / 255);
}

TEST(Palette, TheSelectionsTwoRingsContrastWithEachOther) {
  EXPECT_EQ(textOn(selectionOuterColor()), QColor(Qt::white)) << "the outer ring is dark";
  EXPECT_EQ(textOn(selectionInnerColor()), QColor(Qt::black)) << "the inner ring is light";
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
}

}  // namespace
}  // namespace damscope
