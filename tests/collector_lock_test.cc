// The collector's lock rule (collector_impl.h, "Locks"): no collector lock is
// held across a call into CUPTI. The real collector runs — start-up, its
// window, CUDA initialization, the writer's periodic flushes, decoding and
// dropped-record queries, exit — against the stand-in libcupti
// (fake_cupti.cc), loaded through the collector's seam (DAMSCOPE_CUPTI_PATH).
// On every CUPTI entry point the fake's worker thread, while the caller waits
// inside CUPTI as it does in cuptiActivityFlushAll, takes each of the
// collector's locks. A lock the caller holds across the call cannot be taken:
// the probe reports it after a deadline instead of deadlocking. Under
// ThreadSanitizer (scripts/sanitize.sh thread) such a lock is also reported
// as a lock-order inversion with the fake's internal lock, which fakeCudaInit
// holds while the collector takes its own, as cuInit does. On the same seam:
// records CUPTI drops after the last commit are still counted.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "collector/collector_impl.h"
#include "collector/trace_finalizer.h"
#include "tests/collector_test_support.h"
#include "tests/fake_cupti.h"
#include "tests/test_support.h"
#include "trace/trace_reader.h"

namespace damscope::collector {

// A friend of CollectorImpl: the locks the rule is about.
struct CollectorLockProbe {
  static std::vector<std::pair<const char*, std::mutex*>> locks(CollectorImpl& c) {
    return {{"gpu_mutex_", &c.gpu_mutex_}, {"mutex_", &c.mutex_}};
  }
};

namespace {

using damscope::testing::TempDir;
using damscope::testing::waitFor;
using namespace std::chrono_literals;

// Far longer than any critical section of the collector (none waits or does
// I/O under a lock), even on a loaded machine under a sanitizer; short enough
// that a test of code that breaks the rule still ends in seconds.
constexpr auto kProbeDeadline = 1s;

// The fake's controls, from the library the collector loads.
struct FakeCuptiLibrary {
  FakeCuptiLibrary() {
    handle = dlopen(DAMSCOPE_FAKE_CUPTI, RTLD_NOW | RTLD_LOCAL);
    EXPECT_NE(handle, nullptr) << dlerror();
    if (!handle) return;
    resolve(reset, "fakeCuptiReset");
    resolve(setProbe, "fakeCuptiSetProbe");
    resolve(cudaInit, "fakeCudaInit");
    resolve(launchKernels, "fakeCuptiLaunchKernels");
    resolve(addDroppedRecords, "fakeCuptiAddDroppedRecords");
    resolve(calls, "fakeCuptiCalls");
    resolve(setGate, "fakeCuptiSetGate");
    resolve(gateReached, "fakeCuptiGateReached");
    reset();
  }
  template <typename F>
  void resolve(F& f, const char* name) {
    f = reinterpret_cast<F>(dlsym(handle, name));
    ASSERT_NE(f, nullptr) << name;
  }

  void* handle = nullptr;
  FakeCuptiReset reset = nullptr;
  FakeCuptiSetProbe setProbe = nullptr;
  FakeCudaInit cudaInit = nullptr;
  FakeCuptiLaunchKernels launchKernels = nullptr;
  FakeCuptiAddDroppedRecords addDroppedRecords = nullptr;
  FakeCuptiCalls calls = nullptr;
  FakeCuptiSetGate setGate = nullptr;
  FakeCuptiGateReached gateReached = nullptr;
};

// Installed in the fake for its lifetime; runs on the fake's worker thread
// during each CUPTI entry point.
class LockProbe {
 public:
  LockProbe(CollectorImpl& collector, const FakeCuptiLibrary& cupti)
      : cupti_(cupti), locks_(CollectorLockProbe::locks(collector)) {
    cupti_.setProbe(&LockProbe::run, this);
  }
  ~LockProbe() { cupti_.setProbe(nullptr, nullptr); }
  LockProbe(const LockProbe&) = delete;
  LockProbe& operator=(const LockProbe&) = delete;

  std::vector<std::string> violations() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return {violations_.begin(), violations_.end()};
  }
  int probes() const { return probes_.load(); }

 private:
  static void run(void* self, const char* function) {
    static_cast<LockProbe*>(self)->check(function);
  }
  void check(const char* function) {
    ++probes_;
    for (const auto& [name, lock] : locks_) {
      const std::string violation = std::string(function) + " was entered with " + name + " held";
      {
        // Once per entry point and lock: each costs a deadline.
        std::lock_guard<std::mutex> guard(mutex_);
        if (violations_.count(violation)) continue;
      }
      if (takeBefore(*lock, std::chrono::steady_clock::now() + kProbeDeadline)) continue;
      std::lock_guard<std::mutex> guard(mutex_);
      violations_.insert(violation);
    }
  }
  static bool takeBefore(std::mutex& lock, std::chrono::steady_clock::time_point deadline) {
    while (!lock.try_lock()) {
      if (std::chrono::steady_clock::now() >= deadline) return false;
      std::this_thread::sleep_for(1ms);
    }
    lock.unlock();
    return true;
  }

  const FakeCuptiLibrary& cupti_;
  const std::vector<std::pair<const char*, std::mutex*>> locks_;
  std::atomic<int> probes_{0};
  mutable std::mutex mutex_;
  std::set<std::string> violations_;  // mutex_
};

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += "\n  " + line;
  return text;
}

// A collector as the injected library makes one (collector.cc), recording
// into `output` and loading the fake as its libcupti. Like the library's, it
// is never deleted (its threads are detached); the list keeps it reachable.
CollectorImpl& newCollector(const std::string& output) {
  static auto* collectors = new std::vector<CollectorImpl*>();
  CollectorConfig config;
  config.output = output;
  config.cupti_path = DAMSCOPE_FAKE_CUPTI;
  config.buffer_bytes = 64 << 10;
  config.buffer_count = 4;
  collectors->push_back(new CollectorImpl(config, RankInfo{}));
  return *collectors->back();
}

// InitializeInjection, as the driver calls it inside cuInit.
void initializeInjection(void* collector) {
  static_cast<CollectorImpl*>(collector)->onCudaInitialized();
}

TraceTables finalizedTrace(const std::string& path) {
  EXPECT_TRUE(finalizeTraceFile(path).ok());
  auto trace = readTrace(path);
  EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.error().message());
  return trace.ok() ? std::move(trace).value() : TraceTables();
}

TEST(CollectorLocks, NoneIsHeldAcrossAnyCuptiCall) {
  FakeCuptiLibrary cupti;
  ASSERT_NE(cupti.handle, nullptr);
  TempDir dir;
  CollectorImpl& collector = newCollector(dir.file("run.db"));
  LockProbe probe(collector, cupti);
  ASSERT_TRUE(collector.start());  // opens the window

  cupti.cudaInit(&initializeInjection, &collector);  // starts CUPTI on this thread
  ASSERT_EQ(cupti.calls("cuptiSubscribe"), 1);
  cupti.launchKernels(30);
  cupti.addDroppedRecords(3);
  // The writer's commit, about once a second: a flush, the buffers decoded,
  // the dropped records asked for.
  ASSERT_TRUE(waitFor([&] { return cupti.calls("cuptiActivityGetNumDroppedRecords") >= 1; }));
  cupti.launchKernels(20);
  collector.shutdown();  // exit: the last (forced) flush, then unsubscribe

  EXPECT_TRUE(probe.violations().empty()) << joined(probe.violations());
  // Every kind of call the collector makes was probed.
  for (const char* function :
       {"cuptiGetVersion", "cuptiSubscribe", "cuptiSetThreadIdType",
        "cuptiActivityRegisterTimestampCallback", "cuptiActivityRegisterCallbacks",
        "cuptiActivityEnable", "cuptiActivityFlushAll", "cuptiActivityGetNextRecord",
        "cuptiActivityGetNumDroppedRecords", "cuptiActivityDisable", "cuptiUnsubscribe"}) {
    EXPECT_GE(cupti.calls(function), 1) << function;
  }
  EXPECT_GE(cupti.calls("cuptiActivityFlushAll"), 2);  // periodic and final
  EXPECT_EQ(cupti.calls("cuptiUnsubscribe"), 1);
  EXPECT_GT(probe.probes(), 50);

  // What went through CUPTI arrived.
  const TraceTables t = finalizedTrace(dir.file("run.db"));
  EXPECT_EQ(t.kernels.size(), 50u);
  EXPECT_EQ(t.getStat("collector.cupti_dropped_records"), 3);
  EXPECT_EQ(t.getMeta("collector.gpu"), "recorded");
}

TEST(CollectorLocks, WindowClosingWhileCudaStartsCuptiWaitsThenStopsIt) {
  // The process exits while CUPTI is being started inside cuInit (the fake
  // holds cuptiActivityEnable): closing the window must neither call CUPTI
  // meanwhile nor leave CUPTI running afterwards.
  FakeCuptiLibrary cupti;
  ASSERT_NE(cupti.handle, nullptr);
  TempDir dir;
  CollectorImpl& collector = newCollector(dir.file("run.db"));
  LockProbe probe(collector, cupti);
  ASSERT_TRUE(collector.start());

  cupti.setGate(true);
  std::thread cuda([&] { cupti.cudaInit(&initializeInjection, &collector); });
  ASSERT_TRUE(waitFor([&] { return cupti.gateReached(); }));
  std::atomic<bool> exited{false};
  std::thread exiting([&] {
    collector.shutdown();
    exited = true;
  });
  std::this_thread::sleep_for(300ms);
  EXPECT_FALSE(exited.load());
  EXPECT_EQ(cupti.calls("cuptiActivityFlushAll"), 0);
  EXPECT_EQ(cupti.calls("cuptiActivityDisable"), 0);
  cupti.setGate(false);
  cuda.join();
  exiting.join();

  EXPECT_TRUE(probe.violations().empty()) << joined(probe.violations());
  EXPECT_EQ(cupti.calls("cuptiUnsubscribe"), 1);
  EXPECT_GE(cupti.calls("cuptiActivityFlushAll"), 1);
  EXPECT_EQ(finalizedTrace(dir.file("run.db")).getMeta("collector.gpu"), "recorded");
}

TEST(CollectorCupti, RecordsDroppedAfterTheLastCommitAreCounted) {
  // The process exits before the writer's first periodic commit: CUPTI's
  // count must be read at the end, before unsubscribing ends the session.
  FakeCuptiLibrary cupti;
  ASSERT_NE(cupti.handle, nullptr);
  TempDir dir;
  CollectorImpl& collector = newCollector(dir.file("run.db"));
  ASSERT_TRUE(collector.start());
  cupti.cudaInit(&initializeInjection, &collector);
  cupti.launchKernels(10);
  cupti.addDroppedRecords(5);
  collector.shutdown();

  const TraceTables t = finalizedTrace(dir.file("run.db"));
  EXPECT_EQ(t.kernels.size(), 10u);
  EXPECT_EQ(t.getStat("collector.cupti_dropped_records"), 5);
  EXPECT_EQ(t.getStat("collector.dropped_records"), 5);
}

int64_t realtimeNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

TEST(CollectorCupti, DroppedRecordsArePlacedBetweenTheCommitsThatSawThem) {
  // Two episodes of loss with a commit between them that saw none: two
  // lost_spans rows, each the interval between the commit before the drop
  // and the commit that read it, so each holds the moment of its drop.
  FakeCuptiLibrary cupti;
  ASSERT_NE(cupti.handle, nullptr);
  TempDir dir;
  CollectorImpl& collector = newCollector(dir.file("run.db"));
  ASSERT_TRUE(collector.start());
  cupti.cudaInit(&initializeInjection, &collector);
  cupti.launchKernels(10);
  auto queries = [&] { return cupti.calls("cuptiActivityGetNumDroppedRecords"); };
  const int64_t first_before = realtimeNs();
  cupti.addDroppedRecords(3);
  const int64_t first_after = realtimeNs();
  const int seen_first = queries();
  // Read by the next commit, then a commit with nothing dropped.
  ASSERT_TRUE(waitFor([&] { return queries() >= seen_first + 2; }, 10s));
  const int64_t second_before = realtimeNs();
  cupti.addDroppedRecords(4);
  const int64_t second_after = realtimeNs();
  collector.shutdown();

  const TraceTables t = finalizedTrace(dir.file("run.db"));
  EXPECT_EQ(t.getStat("collector.cupti_dropped_records"), 7);
  ASSERT_EQ(t.lost_spans.size(), 2u);
  const int64_t window_start = std::stoll(t.getMeta("collector.window_start_ns"));
  const int64_t window_end = std::stoll(t.getMeta("collector.window_end_ns"));
  const int64_t before[] = {first_before, second_before};
  const int64_t after[] = {first_after, second_after};
  const int64_t events[] = {3, 4};
  for (size_t i = 0; i < 2; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(t.lost_spans.stat[i], "collector.cupti_dropped_records");
    EXPECT_EQ(t.lost_spans.events[i], events[i]);
    EXPECT_LE(t.lost_spans.ts[i], after[i]);
    EXPECT_GE(t.lost_spans.ts[i] + t.lost_spans.dur[i], before[i]);
    EXPECT_GE(t.lost_spans.ts[i], window_start);
    EXPECT_LE(t.lost_spans.ts[i] + t.lost_spans.dur[i], window_end);
  }
  EXPECT_LT(t.lost_spans.ts[0] + t.lost_spans.dur[0], t.lost_spans.ts[1]);
}

}  // namespace
}  // namespace damscope::collector
