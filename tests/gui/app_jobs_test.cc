// The jobs that run off the UI thread: the newest job's result is delivered
// on the UI thread and every older one dropped, a cancel reaches the work,
// and a window's re-analysis answers with that window's result only.
#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <atomic>
#include <chrono>
#include <thread>

#include "gui/app/job_tracker.h"
#include "gui/app/window_analyser.h"
#include "tests/gui/gui_test_support.h"

namespace damscope {
namespace {

using testing::analysedRunOf;
using testing::smallTrainingTrace;

// Sleeps until cancelled or `ms` passed; says which.
bool sleepUnlessCancelled(const JobTracker::Job& job, int ms) {
  for (int i = 0; i < ms; ++i) {
    if (job.cancel.cancelled()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

TEST(JobTracker, OnlyTheNewestJobsResultIsDeliveredOnTheUiThread) {
  QObject context;
  std::vector<int> delivered;
  std::atomic<int> cancelled{0};
  {
    JobTracker jobs(&context);
    for (int i = 0; i < 3; ++i) {
      jobs.run(
          [i, &cancelled](const JobTracker::Job& job) {
            if (sleepUnlessCancelled(job, i < 2 ? 2000 : 10)) ++cancelled;
            return i;
          },
          [&delivered, &context](int i) {
            EXPECT_EQ(QThread::currentThread(), context.thread());
            delivered.push_back(i);
          });
    }
    EXPECT_TRUE(jobs.busy());
    QTRY_VERIFY_WITH_TIMEOUT(!jobs.busy(), 10000);
    QTest::qWait(50);  // any stale result would be in by now
  }
  EXPECT_EQ(delivered, std::vector<int>{2});
  EXPECT_EQ(cancelled.load(), 2) << "each older job was asked to stop";
}

TEST(JobTracker, ACancelledJobStillAnswersButAnAbandonedOneDoesNot) {
  QObject context;
  JobTracker jobs(&context);
  std::vector<bool> answers;
  auto work = [](const JobTracker::Job& job) { return sleepUnlessCancelled(job, 5000); };
  auto deliver = [&answers](bool cancelled) { answers.push_back(cancelled); };
  jobs.run(work, deliver);
  jobs.cancel();
  QTRY_VERIFY_WITH_TIMEOUT(!jobs.busy(), 10000);
  EXPECT_EQ(answers, std::vector<bool>{true});

  const uint64_t id = jobs.run(work, deliver);
  EXPECT_TRUE(jobs.isCurrent(id));
  jobs.abandon();
  EXPECT_FALSE(jobs.busy());
  EXPECT_FALSE(jobs.isCurrent(id));
  QTest::qWait(100);
  EXPECT_EQ(answers.size(), 1u) << "an abandoned job's answer is dropped";
}

TEST(JobTracker, WaitForPreviousKeepsJobsFromOverlapping) {
  QObject context;
  JobTracker jobs(&context);
  std::atomic<int> running{0};
  std::atomic<int> most{0};
  auto work = [&](const JobTracker::Job& job) {
    most = std::max(most.load(), ++running);
    sleepUnlessCancelled(job, 50);
    --running;
    return 0;
  };
  for (int i = 0; i < 4; ++i)
    jobs.run(
        work, [](int) {}, JobTracker::Overlap::kWaitForPrevious);
  QTRY_VERIFY_WITH_TIMEOUT(!jobs.busy(), 10000);
  EXPECT_EQ(most.load(), 1);
}

TEST(WindowAnalyser, AnswersWithTheNewestWindowsResultOnly) {
  const auto run = std::make_shared<const AnalysedRun>(analysedRunOf(smallTrainingTrace()));
  const RankResult& whole = run->run.ranks[0];
  ASSERT_GE(whole.steps.size(), 3u);
  WindowAnalyser analyser;
  QSignalSpy analysed(&analyser, &WindowAnalyser::analysed);
  QSignalSpy failed(&analyser, &WindowAnalyser::failed);
  const TimeWindow first{whole.steps[0].ts, whole.steps[0].ts + whole.steps[0].dur};
  const TimeWindow second{whole.steps[1].ts, whole.steps[1].ts + whole.steps[1].dur};
  analyser.analyse(run, 0, first, {});
  analyser.analyse(run, 0, second, {});
  ASSERT_TRUE(analysed.wait(30000));
  QTest::qWait(100);
  ASSERT_EQ(analysed.count(), 1);
  EXPECT_EQ(failed.count(), 0);
  EXPECT_EQ(analysed.front().at(1).value<TimeWindow>(), second);
  const auto result = analysed.front().at(2).value<std::shared_ptr<const RankResult>>();
  ASSERT_TRUE(result && result->scorecard);
  EXPECT_EQ(result->scorecard->run, whole.scorecard->steps[1]);
  EXPECT_FALSE(analyser.busy());

  analyser.analyse(run, 0, first, {});
  analyser.clear();
  QTest::qWait(200);
  EXPECT_EQ(analysed.count(), 1) << "a cleared window answers nothing";
}

}  // namespace
}  // namespace damscope
