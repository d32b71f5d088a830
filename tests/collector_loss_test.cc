// What a recording loses when the recorded program dies badly, counted
// exactly: programs/nvtx_flood.cc floods NVTX ranges on two threads at a
// known rate and keeps its own count of completed ranges where SIGKILL cannot
// reach it (a shared file mapping); the trace's ranges are compared with it.
//  - SIGKILL: at most about one second of events is missing, and the file
//    says that it ended abruptly and roughly how much is missing.
//  - SIGSEGV, SIGABRT, SIGFPE, SIGBUS: the collector saves what is buffered
//    before the signal proceeds; the crashing thread loses nothing, and the
//    program dies of its signal (or its own handler runs).
//  - A file whose recorder never finalized it is finalized by `info`.
#include <gtest/gtest.h>
#include <signal.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "collector/trace_finalizer.h"
#include "tests/collector_test_support.h"
#include "trace/trace_reader.h"

namespace damscope {
namespace {

using namespace damscope::testing;
namespace fs = std::filesystem;

constexpr int kThreads = 2;
constexpr double kRatePerThread = 20000;  // ranges per second
constexpr double kRate = kThreads * kRatePerThread;

std::string floodBinary() {
  return std::string(DAMSCOPE_BINARY_DIR) + "/tests/nvtx_flood";
}

// The program's own count of completed ranges, per thread (0: main).
std::vector<int64_t> readCounts(const std::string& path) {
  std::vector<int64_t> counts(kThreads, 0);
  std::ifstream in(path, std::ios::binary);
  in.read(reinterpret_cast<char*>(counts.data()),
          static_cast<std::streamsize>(counts.size() * sizeof(int64_t)));
  return counts;
}

// Completed ranges named `name` in the trace (a range still open at the end
// is not one the program completed).
int64_t rangesInTrace(const TraceTables& t, const std::string& name) {
  int64_t n = 0;
  for (size_t i = 0; i < t.ranges.size(); ++i) {
    if (t.strings.get(t.ranges.name[i]) == name &&
        t.ranges.args[i].find("open_at_end") == std::string::npos) {
      ++n;
    }
  }
  return n;
}

class Loss : public ::testing::Test {
 protected:
  ProcessResult recordFlood(const std::string& die, int ms,
                            const std::vector<std::string>& extra = {}) {
    std::vector<std::string> argv = {damscopeBinary(),
                                     "record",
                                     "-o",
                                     dir_.file("run.db"),
                                     "--",
                                     floodBinary(),
                                     "--count-file",
                                     dir_.file("counts"),
                                     "--threads",
                                     std::to_string(kThreads),
                                     "--rate",
                                     std::to_string(kRatePerThread),
                                     "--ms",
                                     std::to_string(ms),
                                     "--die",
                                     die};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return runProcess(argv, {{"DAMSCOPE_CONTROL_DIR", dir_.file("ctl")}}, dir_.path());
  }
  TraceTables load() {
    auto trace = readTrace(dir_.file("run.db"));
    EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.error().message());
    return trace.ok() ? std::move(trace).value() : TraceTables();
  }
  // Ranges the program completed that the trace neither holds nor counts
  // as dropped.
  int64_t uncounted(const TraceTables& t, const std::vector<int64_t>& counts) {
    const int64_t written = counts[0] + counts[1];
    const int64_t recorded = rangesInTrace(t, "tick") + rangesInTrace(t, "work");
    const int64_t dropped = t.getStat("collector.nvtx_ring_overflow");
    std::printf(
        "written %lld, recorded %lld, dropped %lld, missing %lld (%.2f%%, %.3f s)\n",
        static_cast<long long>(written), static_cast<long long>(recorded),
        static_cast<long long>(dropped), static_cast<long long>(written - recorded - dropped),
        100.0 * static_cast<double>(written - recorded - dropped) / static_cast<double>(written),
        static_cast<double>(written - recorded - dropped) / kRate);
    return written - recorded - dropped;
  }

  TempDir dir_;
};

TEST_F(Loss, SigkillLosesAtMostAboutOneSecondAndTheFileCountsIt) {
  const ProcessResult r = recordFlood("kill", 2500);
  EXPECT_EQ(r.signal, SIGKILL) << r.err;
  const std::vector<int64_t> counts = readCounts(dir_.file("counts"));
  ASSERT_GT(counts[0], kRatePerThread);  // it ran for seconds
  const TraceTables t = load();
  EXPECT_EQ(t.getMeta("collector.finalized"), "1");
  EXPECT_EQ(t.getMeta("collector.end_reason"), "");  // nothing could close the window
  const int64_t missing = uncounted(t, counts);
  EXPECT_GE(missing, 0);
  // Commits every 0.5 s: the batch being filled and the one being written.
  EXPECT_LE(static_cast<double>(missing), 1.0 * kRate);
  // The file says so, and roughly how much: the tail is measured from the
  // last commit to when record saw the program die.
  EXPECT_EQ(t.getStat("collector.ended_abruptly"), 1);
  const int64_t tail = t.getStat("collector.unrecorded_tail_ns");
  EXPECT_GT(tail, 0);
  EXPECT_LE(tail, 1'500'000'000);
  const int64_t estimate = t.getStat("collector.estimated_lost_events");
  std::printf("estimated lost %lld over %.3f s\n", static_cast<long long>(estimate),
              static_cast<double>(tail) / 1e9);
  // Events include the CPU samples, so the estimate is above the ranges
  // missing; it must at least cover them.
  EXPECT_GE(estimate, missing);
  EXPECT_LE(static_cast<double>(estimate), 1.5 * kRate);
  EXPECT_NE(r.err.find("the recording ended abruptly"), std::string::npos) << r.err;
}

struct Crash {
  const char* die;
  int signal;
  const char* end_reason;
};

class Crashes : public Loss, public ::testing::WithParamInterface<Crash> {};

TEST_P(Crashes, SaveEverythingBufferedThenDieOfTheSameSignal) {
  const Crash& c = GetParam();
  const ProcessResult r = recordFlood(c.die, 1200);
  EXPECT_FALSE(r.exited) << r.err;
  EXPECT_EQ(r.signal, c.signal) << r.err;
  EXPECT_EQ(r.err.find("still alive"), std::string::npos) << r.err;
  const std::vector<int64_t> counts = readCounts(dir_.file("counts"));
  const TraceTables t = load();
  EXPECT_EQ(t.getMeta("collector.end_reason"), c.end_reason);
  EXPECT_EQ(t.getStat("collector.ended_abruptly"), 0);
  // The crashing thread stopped before the save: every range it completed
  // is in the file. The other thread runs on while the writer commits, for a
  // few milliseconds of ranges at most. A range the ring had no room for is
  // counted in nvtx_ring_overflow, which counts both threads' (it overflows
  // only when the writer falls behind, on a loaded machine): the crashing
  // thread's ranges are those in the file plus at most all of those.
  const int64_t ticks = rangesInTrace(t, "tick");
  EXPECT_LE(ticks, counts[0]);
  EXPECT_GE(ticks + t.getStat("collector.nvtx_ring_overflow"), counts[0]);
  const int64_t missing = uncounted(t, counts);
  EXPECT_GE(missing, 0);
  EXPECT_LE(static_cast<double>(missing), 0.1 * kRatePerThread);
}

INSTANTIATE_TEST_SUITE_P(FatalSignals, Crashes,
                         ::testing::Values(Crash{"segv", SIGSEGV, "signal SIGSEGV"},
                                           Crash{"abrt", SIGABRT, "signal SIGABRT"},
                                           Crash{"fpe", SIGFPE, "signal SIGFPE"},
                                           Crash{"bus", SIGBUS, "signal SIGBUS"}),
                         [](const ::testing::TestParamInfo<Crash>& info) {
                           return std::string(info.param.die);
                         });

TEST_F(Loss, TheProgramsOwnCrashHandlerStillRunsAfterTheSave) {
  const ProcessResult r = recordFlood("segv", 600, {"--own-handler"});
  ASSERT_TRUE(r.exited) << r.err;
  EXPECT_EQ(r.exit_code, 42) << r.err;
  EXPECT_NE(r.err.find("own handler ran"), std::string::npos) << r.err;
  const std::vector<int64_t> counts = readCounts(dir_.file("counts"));
  const TraceTables t = load();
  EXPECT_EQ(t.getMeta("collector.end_reason"), "signal SIGSEGV");
  // As above: nvtx_ring_overflow counts both threads' lost ranges, so on a
  // loaded machine (the ring overflows only then) it can exceed the crashing
  // thread's share; the file never holds more than the thread completed.
  const int64_t ticks = rangesInTrace(t, "tick");
  EXPECT_LE(ticks, counts[0]);
  EXPECT_GE(ticks + t.getStat("collector.nvtx_ring_overflow"), counts[0]);
}

TEST_F(Loss, InfoFinalizesARecordingItsRecorderNeverFinished) {
  // Injected by hand and killed: nobody finalized the file (a record killed
  // while it finalized leaves the same).
  const ProcessResult killed = runProcess(
      {floodBinary(), "--count-file", dir_.file("counts"), "--ms", "700", "--die", "kill"},
      {{"NVTX_INJECTION64_PATH", injectLibraryPath()},
       {"DAMSCOPE_OUTPUT", dir_.file("run.db")},
       {"DAMSCOPE_CONTROL_DIR", dir_.file("ctl")}},
      dir_.path());
  ASSERT_EQ(killed.signal, SIGKILL) << killed.err;
  ASSERT_TRUE(collector::needsFinalize(dir_.file("run.db")).value());

  const ProcessResult info =
      runProcess({damscopeBinary(), "info", dir_.file("run.db")}, {}, dir_.path());
  EXPECT_EQ(info.exit_code, 0) << info.err;
  EXPECT_NE(info.err.find(dir_.file("run.db") + ": finalized the recording"), std::string::npos)
      << info.err;
  EXPECT_NE(info.err.find("ended abruptly"), std::string::npos) << info.err;
  const TraceTables t = load();
  EXPECT_EQ(t.getMeta("collector.finalized"), "1");
  EXPECT_EQ(t.getStat("collector.ended_abruptly"), 1);
  // The end was not seen: the tail is the bound.
  EXPECT_EQ(t.getStat("collector.unrecorded_tail_ns"), collector::kMaxUnsavedNs);
  EXPECT_GT(rangesInTrace(t, "tick"), 0);

  // Once is enough: a second open says nothing.
  const ProcessResult again =
      runProcess({damscopeBinary(), "info", dir_.file("run.db")}, {}, dir_.path());
  EXPECT_EQ(again.exit_code, 0);
  EXPECT_EQ(again.err.find("finalized"), std::string::npos) << again.err;
}

}  // namespace
}  // namespace damscope
