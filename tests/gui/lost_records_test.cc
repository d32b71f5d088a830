// The line the timeline and the status bar show about records lost on the way
// in: the count, its share, the stats it comes from, and that times are unknown.
#include "gui/models/lost_records.h"

#include <gtest/gtest.h>

namespace damscope {
namespace {

TEST(LostRecords, NothingLostSaysNothing) {
  DataLossReport loss;
  loss.events = 1000;
  loss.repaired = 3;  // repaired, not lost
  EXPECT_TRUE(lostRecordsText(loss).isEmpty());
}

TEST(LostRecords, NamesEachLossStatAndSaysTheTimesAreUnknown) {
  DataLossReport loss;
  loss.events = 98'766;
  loss.lost = 1'234;
  loss.counts = {{0, "cupti_dropped_records", LossKind::kLost, 1'200},
                 {1, "negative_durations", LossKind::kRepaired, 5},
                 {2, "nvtx_ring_overflow", LossKind::kLost, 34}};
  const QString text = lostRecordsText(loss);
  EXPECT_EQ(text.toStdString(),
            "1,234 events lost on the way in (1.2 %): cupti_dropped_records 1,200, "
            "nvtx_ring_overflow 34; when is not recorded");
}

}  // namespace
}  // namespace damscope
