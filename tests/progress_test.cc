// Progress and cancellation (base/progress.h): parts map into the whole job's
// scale, stages and details pass through, a default Progress is silent, and a
// cancel from another thread is seen.
#include "base/progress.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace damscope {
namespace {

struct Recorded {
  std::string stage, detail;
  double fraction;
};

TEST(Progress, PartsMapIntoTheWholeJobsScale) {
  std::vector<Recorded> seen;
  Progress job(
      [&](const ProgressUpdate& u) {
        seen.push_back({std::string(u.stage), std::string(u.detail), u.fraction});
      },
      nullptr);
  const Progress second_rank = job.part(0.5, 1.0, "analysing", "rank1.db");
  const Progress import = second_rank.part(0.0, 0.5, "importing");
  import.report(0.5);
  second_rank.report(1.0);
  import.report(7.0);  // clamped
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0].stage, "importing");
  EXPECT_EQ(seen[0].detail, "rank1.db");
  EXPECT_DOUBLE_EQ(seen[0].fraction, 0.625);
  EXPECT_EQ(seen[1].stage, "analysing");
  EXPECT_DOUBLE_EQ(seen[1].fraction, 1.0);
  EXPECT_DOUBLE_EQ(seen[2].fraction, 0.75);
}

TEST(Progress, DefaultProgressIsSilentAndNeverCancelled) {
  const Progress silent;
  silent.part(0.2, 0.4, "x").report(0.5);
  EXPECT_FALSE(silent.cancelled());
  EXPECT_TRUE(silent.checkCancelled().ok());
}

TEST(Progress, CancelFromAnotherThreadIsSeenByEveryPart) {
  CancelToken token;
  const Progress job(nullptr, &token);
  const Progress part = job.part(0.1, 0.2, "importing");
  EXPECT_FALSE(part.cancelled());
  std::thread([&] { token.cancel(); }).join();
  EXPECT_TRUE(part.cancelled());
  const Status status = part.checkCancelled();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code(), ErrorCode::kCancelled);
  EXPECT_EQ(status.error().message(), "cancelled");
  EXPECT_EQ(status.error().withContext("a.json").code(), ErrorCode::kCancelled);
}

TEST(Progress, InvertedOrOutOfRangePartsStayInsideTheirParent) {
  std::vector<double> seen;
  Progress job([&](const ProgressUpdate& u) { seen.push_back(u.fraction); }, nullptr);
  job.part(0.5, 0.25).report(1.0);  // end before begin: an empty part at 0.5
  job.part(1.5, 2.0).report(0.0);   // past the end: the end
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_DOUBLE_EQ(seen[0], 0.5);
  EXPECT_DOUBLE_EQ(seen[1], 1.0);
}

}  // namespace
}  // namespace damscope
