// What a stretch of the timeline holds: busy time per row (a union, cut at
// the window's edges), kernel time by class, bubble time by cause, and the
// lines the Event dock shows for it.
#include <gtest/gtest.h>

#include "gui/timeline/range_summary.h"
#include "tests/gui/gui_test_support.h"
#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::us;

class RangeSummaryTest : public ::testing::Test {
 protected:
  // smallTrainingTrace: each 2000 µs step has a 40 µs copy at 830 µs, then
  // six 140 µs kernels at 880 + 150 k µs (odd k: sgemm, even k: elementwise),
  // and a host thread inside ranges all along (the step's own range).
  RangeSummaryTest()
      : run_(testing::analysedRunOf(testing::smallTrainingTrace())),
        rows_(buildTimelineRows(run_, 0)) {}

  size_t rowOf(RowKind kind) const {
    for (size_t r = 0; r < rows_.rows.size(); ++r)
      if (rows_.rows[r].kind == kind) return r;
    ADD_FAILURE() << "no such row";
    return 0;
  }
  TimeWindow window(double from_us, double to_us) const {
    return {rows_.start + us(from_us), rows_.start + us(to_us)};
  }

  AnalysedRun run_;
  TimelineRows rows_;
};

TEST_F(RangeSummaryTest, OneStepHoldsItsKernelsCopyAndDataLoadingBubble) {
  const RangeSummary s = summarizeRange(rows_, run_, window(0, 2000));
  const size_t gemm = static_cast<size_t>(KernelCategory::kGemm);
  EXPECT_EQ(s.kernels[gemm], 3);
  EXPECT_EQ(s.kernel_ns[gemm], us(420));
  EXPECT_EQ(s.row_busy_ns[rowOf(RowKind::kStream)], us(6 * 140 + 40));
  EXPECT_EQ(s.row_busy_ns[rowOf(RowKind::kThread)], us(2000)) << "nested ranges count once";
  EXPECT_EQ(s.row_busy_ns[rowOf(RowKind::kBubbles)], -1) << "bubbles are not busy time";
  const int64_t loading = s.bubble_ns[static_cast<size_t>(GapCause::kDataLoading)];
  EXPECT_GT(loading, us(700));
  EXPECT_LE(loading, us(2000 - 6 * 140 - 40)) << "no more than the stream's idle time";
}

TEST_F(RangeSummaryTest, AnEventAcrossAnEdgeCountsThePartInside) {
  // Up to 1100 µs: the copy, kernel 0 (880–1020) and 70 µs of kernel 1.
  const RangeSummary s = summarizeRange(rows_, run_, window(0, 1100));
  EXPECT_EQ(s.row_busy_ns[rowOf(RowKind::kStream)], us(40 + 140 + 70));
  EXPECT_EQ(s.kernel_ns[static_cast<size_t>(KernelCategory::kGemm)], us(70));
  EXPECT_EQ(s.kernels[static_cast<size_t>(KernelCategory::kGemm)], 1);
  // From 1100 µs on, kernel 1's other 70 µs.
  const RangeSummary rest = summarizeRange(rows_, run_, window(1100, 1200));
  EXPECT_EQ(rest.kernel_ns[static_cast<size_t>(KernelCategory::kGemm)], us(70));
}

TEST_F(RangeSummaryTest, AnEmptyWindowHoldsNothing) {
  const RangeSummary s = summarizeRange(rows_, run_, window(5, 5));
  for (int64_t ns : s.kernel_ns) EXPECT_EQ(ns, 0);
  EXPECT_TRUE(rangeSummaryLines(s, rows_).empty());
}

TEST_F(RangeSummaryTest, LinesLargestFirstWithTheirShares) {
  const RangeSummary s = summarizeRange(rows_, run_, window(0, 2000));
  const auto lines = rangeSummaryLines(s, rows_);
  ASSERT_GE(lines.size(), 4u);
  EXPECT_EQ(lines[0].first, "Window");
  std::vector<std::string> keys;
  keys.reserve(lines.size());
  for (const auto& [key, value] : lines) keys.push_back(key);
  const auto find = [&](const std::string& key) {
    return std::find(keys.begin(), keys.end(), key) - keys.begin();
  };
  EXPECT_LT(find("Kernels: gemm"), static_cast<long>(keys.size()));
  EXPECT_LT(find("Bubbles: data loading"), static_cast<long>(keys.size()));
  const std::string stream = "Busy: " + rows_.rows[rowOf(RowKind::kStream)].label;
  ASSERT_LT(find(stream), static_cast<long>(keys.size()));
  EXPECT_NE(lines[static_cast<size_t>(find(stream))].second.find("(44.0 %)"), std::string::npos)
      << lines[static_cast<size_t>(find(stream))].second;
}

TEST_F(RangeSummaryTest, RowHeadersShowTheirBusyShare) {
  const RangeSummary s = summarizeRange(rows_, run_, window(0, 2000));
  EXPECT_EQ(busyShareText(s, rowOf(RowKind::kStream)), "44 %");
  EXPECT_EQ(busyShareText(s, rowOf(RowKind::kBubbles)), "");
  const RangeSummary whole = summarizeRange(rows_, run_, window(0, 20000));
  EXPECT_EQ(busyShareText(whole, rowOf(RowKind::kStream)), "13 %");  // 3 × 880 of 20000 µs
  const RangeSummary longer = summarizeRange(rows_, run_, window(0, 40000));
  EXPECT_EQ(busyShareText(longer, rowOf(RowKind::kStream)), "6.6 %") << "a decimal under 10 %";
}

}  // namespace
}  // namespace damscope
