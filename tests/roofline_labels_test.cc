// Roofline labels shared by the report and the GUI
// (analyzer/report/roofline_labels.h): one roof per peak, labels apart.
#include "analyzer/report/roofline_labels.h"

#include <regex>
#include <string>

#include <gtest/gtest.h>

#include "analyzer/report/report_charts.h"

namespace damscope {
namespace {

// The A100's ceilings as the analysis gives them: fp64 (tensor core) and
// fp32 both at 19.5 TFLOP/s, tf32 at 156.
RooflineReport a100() {
  RooflineReport r;
  r.bandwidth_bytes_per_s = 1555e9;
  r.ceilings = {{Precision::kFp64, 19.5e12, 19.5e12 / 1555e9},
                {Precision::kFp32, 19.5e12, 19.5e12 / 1555e9},
                {Precision::kTf32, 156e12, 156e12 / 1555e9}};
  RooflinePoint p;
  p.name = "gemm";
  p.category = KernelCategory::kGemm;
  p.intensity = 30.0;
  p.achieved_flops_per_s = 10e12;
  p.time_ns = 1000;
  p.kernels = 1;
  r.kernels = {p};
  return r;
}

TEST(PeakGroups, CeilingsWithOnePeakShareOneRoof) {
  const RooflineReport r = a100();
  const std::vector<PeakGroup> groups = peakGroups(r.ceilings);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].ceilings, (std::vector<size_t>{0, 1}));
  EXPECT_DOUBLE_EQ(groups[0].peak_flops_per_s, 19.5e12);
  EXPECT_EQ(peakNames(r.ceilings, groups[0].ceilings), "fp64/fp32");
  EXPECT_EQ(peakNames(r.ceilings, groups[1].ceilings), "tf32");
  EXPECT_TRUE(peakGroups({{Precision::kFp32, 0, std::nullopt}}).empty());  // no peak, no roof
}

TEST(SeparateLabels, TwoRidgeLabelsOnOneSpotStackUpwards) {
  // The V100's ridges at 8.7 and 17.4 FLOP/B put their labels 30 px apart,
  // each 110 px wide: the second goes one line up.
  const LabelRect area{0, 0, 600, 400};
  const auto placed = separateLabels({{{300, 380, 110, 14}, -1}, {{330, 380, 110, 14}, -1}}, area);
  ASSERT_TRUE(placed[0] && placed[1]);
  EXPECT_DOUBLE_EQ(placed[0]->y, 380);
  EXPECT_DOUBLE_EQ(placed[1]->y, 380 - 16);
  EXPECT_FALSE(placed[0]->overlaps(*placed[1]));
}

TEST(SeparateLabels, PeakLabelsMoveDownAndLabelsApartStayPut) {
  const LabelRect area{0, 0, 600, 400};
  const auto placed = separateLabels(
      {{{400, 40, 150, 14}, +1}, {{400, 46, 150, 14}, +1}, {{10, 46, 50, 14}, +1}}, area);
  ASSERT_TRUE(placed[0] && placed[1] && placed[2]);
  EXPECT_DOUBLE_EQ(placed[1]->y, 46 + 16);
  EXPECT_DOUBLE_EQ(placed[2]->y, 46);
  EXPECT_DOUBLE_EQ(placed[2]->x, 10);
}

TEST(SeparateLabels, ALabelWithNoRoomLeftIsLeftOutNotDrawnOver) {
  // An area one line high: the second label has nowhere to go.
  const auto placed =
      separateLabels({{{0, 2, 100, 14}, -1}, {{50, 2, 100, 14}, -1}}, LabelRect{0, 0, 600, 20});
  EXPECT_TRUE(placed[0]);
  EXPECT_FALSE(placed[1]);
}

// The report's roofline: one label per peak, and no two roof labels on one
// baseline whose estimated boxes overlap.
TEST(RooflineSvg, OneLabelPerPeakAndNoneOnAnother) {
  const std::string svg = rooflineSvg(a100());
  const std::regex label(
      R"re(<text x="([0-9.]+)" y="([0-9.]+)" text-anchor="(start|end)" class="roof-label">([^<]*)</text>)re");
  std::vector<LabelRect> boxes;
  std::vector<std::string> texts;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), label); it != std::sregex_iterator();
       ++it) {
    const double x = std::stod((*it)[1]), y = std::stod((*it)[2]);
    const std::string body = (*it)[4];
    const double width = 6.4 * static_cast<double>(body.size());
    if (body.find("GB/s") != std::string::npos) continue;  // along the slope
    boxes.push_back({(*it)[3] == "end" ? x - width : x, y - 11, width, 13});
    texts.push_back(body);
  }
  ASSERT_EQ(texts.size(), 4u) << svg;  // two peaks, two ridges
  EXPECT_NE(svg.find("fp64/fp32 peak 19.5 TFLOP/s"), std::string::npos);
  EXPECT_EQ(svg.find(">fp32 peak"), std::string::npos);
  for (size_t i = 0; i < boxes.size(); ++i) {
    for (size_t j = i + 1; j < boxes.size(); ++j) {
      EXPECT_FALSE(boxes[i].overlaps(boxes[j])) << texts[i] << " / " << texts[j];
    }
  }
}

}  // namespace
}  // namespace damscope
