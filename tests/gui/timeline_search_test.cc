// Find by name, headless: case-insensitive substrings over kernel, range and
// API call names, time order, next and previous from a position, wrapping.
#include "gui/models/timeline_search.h"

#include <gtest/gtest.h>

#include "tests/gui/gui_test_support.h"
#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::analysedRunOf;
using testing::TraceBuilder;

// Kernels, a range and calls whose names share "gemm" in three spellings.
AnalysedRun namedRun() {
  TraceBuilder b;
  b.device(0, 80);
  b.kernel(100, 10, "volta_sgemm_128x64_nn", kNullInt);   // 0
  b.kernel(200, 10, "vectorized_elementwise", kNullInt);  // 1
  b.kernel(300, 10, "volta_sgemm_128x64_nn", kNullInt);   // 2
  b.range(150, 20, "GEMM block");
  b.call(250, 5, "cublasGemmEx");
  b.call(260, 5, "cudaLaunchKernel");
  return analysedRunOf(b.build());
}

TEST(TimelineSearch, MatchesNamesOfEveryKindIgnoringCaseInTimeOrder) {
  const AnalysedRun run = namedRun();
  const TimelineSearch search(run, 0, "GeMm");
  ASSERT_EQ(search.matches().size(), 4u);
  std::vector<EventKind> kinds;
  for (size_t i = 0; i < search.matches().size(); ++i) {
    kinds.push_back(search.matches()[i].event.kind);
    EXPECT_NE(QString::fromStdString(nameOf(search.matches()[i].event, run))
                  .indexOf("gemm", 0, Qt::CaseInsensitive),
              -1);
    if (i > 0) {
      EXPECT_LE(search.matches()[i - 1].ts, search.matches()[i].ts);
    }
  }
  EXPECT_EQ(kinds, (std::vector<EventKind>{EventKind::kKernel, EventKind::kRange,
                                           EventKind::kApiCall, EventKind::kKernel}));
  EXPECT_EQ(search.text(), "GeMm");
}

TEST(TimelineSearch, NextAndPreviousFromAPositionWrap) {
  const AnalysedRun run = namedRun();
  const TimelineSearch search(run, 0, "volta_sgemm");  // "sgemm" alone: cublaSGEMMex too
  ASSERT_EQ(search.matches().size(), 2u);
  const EventRef first = search.matches()[0].event;
  const EventRef second = search.matches()[1].event;
  EXPECT_EQ(search.next(search.at(0)), first);
  EXPECT_EQ(search.next(search.at(testing::us(100))), first)
      << "a time alone comes before its events";
  EXPECT_EQ(search.next(search.matches()[0]), second) << "from a match: the one after it";
  EXPECT_EQ(search.next(search.matches()[1]), first) << "wraps past the last";
  EXPECT_EQ(search.previous(search.matches()[1]), first);
  EXPECT_EQ(search.previous(search.matches()[0]), second) << "wraps before the first";
  EXPECT_EQ(search.previous(search.at(testing::us(250))), first);
}

TEST(TimelineSearch, IndexOfAMatchForThreeOfFortyOne) {
  const AnalysedRun run = namedRun();
  const TimelineSearch search(run, 0, "gemm");
  ASSERT_EQ(search.matches().size(), 4u);
  for (size_t i = 0; i < search.matches().size(); ++i)
    EXPECT_EQ(search.indexOf(search.matches()[i]), i);
  EXPECT_FALSE(search.indexOf(search.at(testing::us(100)))) << "a time alone is no match";
  const EventRef elementwise{0, EventKind::kKernel, 1};
  EXPECT_FALSE(search.indexOf({testing::us(200), elementwise}));
}

TEST(TimelineSearch, NothingForEmptyTextNoMatchOrAnotherRank) {
  const AnalysedRun run = namedRun();
  EXPECT_TRUE(TimelineSearch(run, 0, "").empty());
  const TimelineSearch none(run, 0, "no such kernel");
  EXPECT_TRUE(none.empty());
  EXPECT_FALSE(none.next(none.at(0)));
  EXPECT_FALSE(none.previous(none.at(0)));
  EXPECT_TRUE(TimelineSearch(run, 3, "gemm").empty());
}

}  // namespace
}  // namespace damscope
