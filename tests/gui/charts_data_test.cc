// The charts' data, prepared without drawing: the roofline's points (filtered
// for log axes, counted when left out), its whole-decade ranges and marker
// sizes, the lookup of a marker under the pointer, the step and kernel series
// and the shortened kernel names.
#include <gtest/gtest.h>

#include <cmath>

#include "gui/charts/chart_series.h"
#include "gui/charts/roofline_points.h"
#include "tests/gui/gui_test_support.h"

namespace damscope {
namespace {

bool isDecade(double v) {
  const double e = std::log10(v);
  return std::fabs(e - std::round(e)) < 1e-9;
}

RooflinePoint point(std::string name, std::optional<double> intensity, double flops_per_s,
                    int64_t time_ns, KernelCategory category = KernelCategory::kGemm) {
  RooflinePoint p;
  p.name = std::move(name);
  p.category = category;
  p.intensity = intensity;
  p.achieved_flops_per_s = flops_per_s;
  p.time_ns = time_ns;
  p.kernels = 1;
  return p;
}

TEST(DecadesCovering, RoundsOutToWholeDecades) {
  const DecadeRange r = decadesCovering(0.3, 2000);
  EXPECT_DOUBLE_EQ(r.min, 0.1);
  EXPECT_DOUBLE_EQ(r.max, 1e4);
}

TEST(DecadesCovering, AValueOnADecadeIsItsOwnBound) {
  const DecadeRange r = decadesCovering(100, 1e12);
  EXPECT_DOUBLE_EQ(r.min, 100);
  EXPECT_DOUBLE_EQ(r.max, 1e12);
}

TEST(DecadesCovering, ASingleValueStillSpansADecade) {
  const DecadeRange r = decadesCovering(100, 100);
  EXPECT_DOUBLE_EQ(r.min, 100);
  EXPECT_DOUBLE_EQ(r.max, 1000);
}

TEST(RooflinePlot, LeavesOutAndCountsPointsThatLogAxesCannotShow) {
  RooflineReport roofline;
  roofline.kernels = {point("ok_a", 10.0, 1e12, 400),
                      point("no_bytes", std::nullopt, 1e12, 300),
                      point("zero_ai", 0.0, 1e12, 300),
                      point("negative_ai", -2.0, 1e12, 300),
                      point("no_flops", 5.0, 0, 300),
                      point("nan_ai", std::nan(""), 1e12, 300),
                      point("inf_rate", 5.0, INFINITY, 300),
                      point("ok_b", 0.5, 3e10, 100, KernelCategory::kElementwise)};
  const RooflinePlot plot = rooflinePlot(roofline);
  ASSERT_EQ(plot.markers.size(), 2u);
  EXPECT_EQ(plot.left_out, 6);
  EXPECT_EQ(plot.markers[0].kernel, 0u);
  EXPECT_EQ(plot.markers[1].kernel, 7u);
  for (const RooflineMarker& m : plot.markers) {
    EXPECT_GT(m.intensity, 0);
    EXPECT_GT(m.flops_per_s, 0);
  }
  EXPECT_EQ(plot.categories,
            (std::vector<KernelCategory>{KernelCategory::kGemm, KernelCategory::kElementwise}));
}

TEST(RooflinePlot, NoPlaceablePointIsEmptyNotAnAxisOfZeros) {
  RooflineReport roofline;
  roofline.kernels = {point("no_bytes", std::nullopt, 1e12, 300)};
  const RooflinePlot plot = rooflinePlot(roofline);
  EXPECT_TRUE(plot.empty());
  EXPECT_EQ(plot.left_out, 1);
  EXPECT_TRUE(plot.bandwidth_roof.empty());
  EXPECT_TRUE(plot.peak_roofs.empty());
}

TEST(RooflinePlot, RangesAreWholeDecadesHoldingEveryPointCeilingAndRidge) {
  RooflineReport roofline;
  roofline.bandwidth_bytes_per_s = 900e9;
  roofline.ceilings = {{Precision::kFp32, 15.7e12, 15.7e12 / 900e9},
                       {Precision::kFp16, 125e12, 125e12 / 900e9}};
  roofline.kernels = {point("gemm", 300.0, 40e12, 1000), point("relu", 0.07, 5e9, 500),
                      point("mid", 3.0, 2e11, 10)};
  const RooflinePlot plot = rooflinePlot(roofline);
  ASSERT_EQ(plot.markers.size(), 3u);
  EXPECT_TRUE(isDecade(plot.x.min) && isDecade(plot.x.max)) << plot.x.min << " " << plot.x.max;
  EXPECT_TRUE(isDecade(plot.y.min) && isDecade(plot.y.max)) << plot.y.min << " " << plot.y.max;
  for (const RooflineMarker& m : plot.markers) {
    EXPECT_TRUE(plot.x.contains(m.intensity)) << m.intensity;
    EXPECT_TRUE(plot.y.contains(m.flops_per_s)) << m.flops_per_s;
  }
  ASSERT_EQ(plot.peak_roofs.size(), 2u);
  for (const PeakRoof& roof : plot.peak_roofs) {
    ASSERT_EQ(roof.group.ceilings.size(), 1u);
    const RooflineCeiling& c = roofline.ceilings[roof.group.ceilings.front()];
    EXPECT_TRUE(plot.y.contains(c.peak_flops_per_s));
    ASSERT_TRUE(roof.ridge.has_value());
    EXPECT_TRUE(plot.x.contains(roof.ridge->x()));
    EXPECT_DOUBLE_EQ(roof.from.x(), *c.ridge_flops_per_byte);  // the flat roof starts at the ridge
    EXPECT_DOUBLE_EQ(roof.to.x(), plot.x.max);
  }
  // The memory roof rises from the bottom edge to the highest ridge, on bandwidth x AI.
  ASSERT_EQ(plot.bandwidth_roof.size(), 2u);
  // It enters at the bottom or the left edge, whichever bandwidth x AI reaches first.
  const QPointF entry = plot.bandwidth_roof.front();
  EXPECT_TRUE(std::fabs(entry.y() - plot.y.min) < plot.y.min * 1e-9 || entry.x() == plot.x.min)
      << entry.x() << " " << entry.y();
  EXPECT_DOUBLE_EQ(plot.bandwidth_roof.back().x(), 125e12 / 900e9);
  for (const QPointF& p : plot.bandwidth_roof) EXPECT_NEAR(p.y(), 900e9 * p.x(), p.y() * 1e-9);
}

// A roofline of a sliver of the kernel time says so in its title.
TEST(RooflineTitle, SaysTheShareOfKernelTimeItIsBuiltFrom) {
  RooflineReport roofline;
  roofline.time_with_work_pct = 0.1;
  EXPECT_EQ(rooflineTitle(roofline, 3),
            "Roofline of 3 kernels: 0.1 % of computation kernel time (the rest has no FLOP or "
            "byte counts)");
  roofline.time_with_work_pct = 100;
  EXPECT_EQ(rooflineTitle(roofline, 1), "Roofline of 1 kernel: 100.0 % of computation kernel time");
}

TEST(MarkerDiameter, AreaFollowsTimeAndSmallKernelsStayVisible) {
  EXPECT_DOUBLE_EQ(markerDiameterPx(1000, 1000), kMaxDiameterPx);
  // A quarter of the time: half the diameter, a quarter of the area.
  EXPECT_DOUBLE_EQ(markerDiameterPx(250, 1000), kMaxDiameterPx / 2);
  EXPECT_DOUBLE_EQ(markerDiameterPx(1, 1'000'000), kMinDiameterPx);
  EXPECT_DOUBLE_EQ(markerDiameterPx(0, 1000), kMinDiameterPx);
}

TEST(MarkerAt, FindsTheNearestDiscUnderThePointer) {
  const std::vector<QPointF> centres = {{100, 100}, {110, 100}, {300, 300}};
  const std::vector<double> diameters = {30, 8, 8};
  EXPECT_EQ(markerAt(centres, diameters, {109, 101}), 1u);  // inside both: the nearer centre
  EXPECT_EQ(markerAt(centres, diameters, {88, 100}), 0u);   // only the large disc
  EXPECT_EQ(markerAt(centres, diameters, {304, 303}),
            2u);  // within the small disc's minimum hit radius
  EXPECT_FALSE(markerAt(centres, diameters, {200, 200}).has_value());
  EXPECT_FALSE(markerAt({}, {}, {0, 0}).has_value());
}

TEST(RateUnit, KeepsAxisLabelsShort) {
  EXPECT_STREQ(rateUnitFor(1e14).name, "TFLOP/s");
  EXPECT_STREQ(rateUnitFor(1e13).name, "GFLOP/s");  // 10^4 GFLOP/s: still short
  EXPECT_STREQ(rateUnitFor(1e9).name, "MFLOP/s");
  EXPECT_STREQ(rateUnitFor(1e20).name, "PFLOP/s");
  EXPECT_EQ(rateWords(15.7e12), "15.7 TFLOP/s");
  EXPECT_EQ(rateWords(312e12), "312 TFLOP/s");
  EXPECT_STREQ(memoryWord(DeviceKind::kCpu), "DRAM");
  EXPECT_STREQ(memoryWord(DeviceKind::kGpu), "HBM");
}

TEST(KernelLabel, DropsReturnTypeArgumentsAndTemplateArguments) {
  EXPECT_EQ(kernelLabel("void at::native::vectorized_elementwise_kernel<4, "
                        "at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3> >(int, "
                        "at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)"),
            "at::native::vectorized_elementwise_kernel<…>");
  EXPECT_EQ(kernelLabel("volta_sgemm_128x64_nn"), "volta_sgemm_128x64_nn");
  EXPECT_EQ(
      kernelLabel("void (anonymous namespace)::softmax_warp_forward<float, float, 10>(float*)"),
      "softmax_warp_forward<…>");
}

TEST(KernelLabel, LongNamesLoseLeadingNamespacesThenTheirMiddle) {
  EXPECT_EQ(kernelLabel("void cudnn::detail::implicit_convolve_sgemm<float, float, 1024>(int)", 32),
            "…::implicit_convolve_sgemm<…>");
  const std::string label = kernelLabel(std::string(100, 'k'), 20);
  EXPECT_EQ(label, std::string(9, 'k') + "…" + std::string(10, 'k'));
}

TEST(TopKernelBars, LabelsAreUniqueWhenShortNamesCollide) {
  RankResult rank;
  TopKernelResult a{
      "void f<int>(int)", KernelCategory::kGemm, 3, 3'000'000, 1'000'000, 0, 0, 60, {}};
  TopKernelResult b{
      "void f<float>(float)", KernelCategory::kGemm, 1, 2'000'000, 2'000'000, 0, 0, 40, {}};
  rank.kernels.top = {a, b};
  const std::vector<KernelBar> bars = topKernelBars(rank);
  ASSERT_EQ(bars.size(), 2u);
  EXPECT_EQ(bars[0].label, "f<…>");
  EXPECT_EQ(bars[1].label, "f<…> (2)");
  EXPECT_DOUBLE_EQ(bars[0].ms, 3.0);
  EXPECT_EQ(bars[1].name, b.name);
  EXPECT_EQ(topKernelBars(rank, 1).size(), 1u);
}

TEST(StepSeries, OneValuePerAxisAndStepFromTheScorecard) {
  const AnalysedRun run = testing::analysedRunOf(testing::smallTrainingTrace());
  const RankResult& r = run.run.ranks.at(0);
  ASSERT_TRUE(r.scorecard.has_value());
  const StepBreakdownBars bars = stepBreakdownBars(r);
  ASSERT_EQ(bars.labels.size(), r.scorecard->steps.size());
  ASSERT_FALSE(bars.empty());
  for (size_t a = 0; a < kAxisCount; ++a) {
    ASSERT_EQ(bars.ms[a].size(), bars.labels.size());
    for (size_t i = 0; i < bars.labels.size(); ++i) {
      EXPECT_DOUBLE_EQ(bars.ms[a][i], static_cast<double>(r.scorecard->steps[i].ns[a]) / 1e6);
    }
  }
  for (size_t i = 0; i < bars.labels.size(); ++i) EXPECT_EQ(bars.range_ids[i], r.steps[i].range_id);
  // The fabricated loader stall shows as data stall in the first step.
  EXPECT_GT(bars.ms[static_cast<size_t>(Axis::kDataStall)][0], 0);
}

TEST(StepSeries, MfuNotComputedSaysWhyInTheReportsWords) {
  const AnalysedRun run = testing::analysedRunOf(testing::smallTrainingTrace());
  const StepTimes times = stepTimes(run.run.ranks.at(0));
  ASSERT_EQ(times.ms.size(), run.run.ranks[0].steps.size());
  EXPECT_FALSE(times.mfu_computed);
  EXPECT_EQ(times.mfu_words.rfind("MFU not computed: ", 0), 0u) << times.mfu_words;
  for (const auto& v : times.mfu_pct) EXPECT_FALSE(v.has_value());
}

TEST(StepSeries, MfuPerStepWhenComputed) {
  AnalysedRun run = testing::analysedRunOf(testing::smallTrainingTrace());
  RankResult& r = run.run.ranks.at(0);
  r.mfu.mfu_pct = 41.0;
  r.mfu.steps.assign(r.steps.size(), StepMfu{});
  for (size_t i = 0; i < r.mfu.steps.size(); ++i)
    r.mfu.steps[i].mfu_pct = 40.0 + static_cast<double>(i);
  const StepTimes times = stepTimes(r);
  EXPECT_TRUE(times.mfu_computed);
  EXPECT_TRUE(times.mfu_words.empty());
  ASSERT_EQ(times.mfu_pct.size(), r.steps.size());
  EXPECT_EQ(times.mfu_pct[1], 41.0);
}

}  // namespace
}  // namespace damscope
