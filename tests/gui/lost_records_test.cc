// The line the timeline and the status bar show about records lost on the way
// in (the count, its share, the stats it comes from, and how much of it the
// crosshatched bands place), and a band's tooltip.
#include "gui/models/lost_records.h"

#include <gtest/gtest.h>

#include "gui/models/figure_text.h"

namespace damscope {
namespace {

DataLossReport collectorLoss() {
  DataLossReport loss;
  loss.events = 98'766;
  loss.lost = 1'234;
  loss.counts = {{0, "collector.dropped_records", LossKind::kLost, 1'200},
                 {1, "collector.negative_durations", LossKind::kRepaired, 5},
                 {2, "collector.dropped_after_max_size", LossKind::kLost, 34}};
  return loss;
}

TEST(LostRecords, NothingLostSaysNothing) {
  DataLossReport loss;
  loss.events = 1000;
  loss.repaired = 3;  // repaired, not lost
  EXPECT_TRUE(lostRecordsText(loss, {}).isEmpty());
}

TEST(LostRecords, WithoutSpansNamesEachLossStatAndSaysTheTimesAreUnknown) {
  EXPECT_EQ(lostRecordsText(collectorLoss(), {}).toStdString(),
            "1,234 events lost on the way in (1.2 %): collector.dropped_records 1,200, "
            "collector.dropped_after_max_size 34; when is not recorded");
}

TEST(LostRecords, SaysHowMuchOfTheLossTheSpansPlace) {
  LostSpanTable spans;
  spans.append({1'000, 500, "collector.cupti_dropped_records", 1'000});
  // A span of a stat that counts no lost events is not part of the count.
  spans.append({3'000, 500, "collector.nvtx_open_at_end", 7});
  EXPECT_EQ(
      lostRecordsText(collectorLoss(), spans).toStdString(),
      "1,234 events lost on the way in (1.2 %): collector.dropped_records 1,200, "
      "collector.dropped_after_max_size 34; 1,000 of them in 1 time range crosshatched on the "
      "timeline; when the rest were lost is not recorded");
  spans.append({2'000, 500, "collector.cupti_dropped_records", 200});
  spans.append({2'600, 500, "collector.dropped_after_max_size", 34});
  EXPECT_EQ(
      lostRecordsText(collectorLoss(), spans).toStdString(),
      "1,234 events lost on the way in (1.2 %): collector.dropped_records 1,200, "
      "collector.dropped_after_max_size 34; all in 3 time ranges crosshatched on the timeline");
}

TEST(LostRecords, ABandsTooltipSaysHowManyWhenWhatAndThatTheGapIsNotIdle) {
  const LostBand band{5'000'000,
                      5'500'000,
                      1'200,
                      "collector.cupti_dropped_records",
                      "GPU activity records CUPTI dropped for lack of buffer space",
                      1};
  const std::string one = lostBandTooltip(band, 1'000'000, false).toStdString();
  EXPECT_EQ(one, "⚠ 1,200 events lost between " + durationText(4e6).toStdString() + " and " +
                     durationText(4.5e6).toStdString() +
                     "\ncollector.cupti_dropped_records: GPU activity records CUPTI dropped for "
                     "lack of buffer space\nWhere within this range is not known: a gap here is "
                     "not idle time.");
  const std::string stacked = lostBandTooltip(band, 1'000'000, true).toStdString();
  EXPECT_NE(stacked.find(" on rank 1\n"), std::string::npos) << stacked;
}

}  // namespace
}  // namespace damscope
