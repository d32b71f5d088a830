// The CPU sampler: a thread that measures, at a fixed rate (100 Hz by
// default), how busy each thread of the process was and how much memory the
// process holds. These become counters, the evidence for "the CPU was fully
// busy while the GPU waited" (the data-bound verdict).
//
// Per-thread CPU time comes from the thread's CPU-time clock (the clockid
// glibc's pthread_getcpuclockid builds from a thread id, readable for any
// thread of the calling process; nanosecond resolution); when that clock is
// unavailable, from utime + stime in /proc/self/task/<tid>/stat, whose
// 10 ms ticks are coarse at 100 Hz. Threads are listed from /proc/self/task.
// RSS is /proc/self/statm's resident pages.
//
// Counters (docs/collector.md):
//   cpu_thread_utilization_pct   per thread, % of one core
//   cpu_process_utilization_pct  whole process, % of one core (can exceed 100)
//   memory_rss_bytes             resident set size
// A utilization value covers the interval from its ts to the next sample.
// A thread's counter is written when non-zero, and once when it drops to
// zero, so idle threads do not fill the trace.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

namespace damscope::collector {

struct ThreadCpuTime {
  int64_t tid = 0;
  int64_t cpu_ns = 0;
};

struct CpuSnapshot {
  int64_t ts = 0;       // CLOCK_REALTIME ns
  int64_t mono_ns = 0;  // CLOCK_MONOTONIC ns, for the interval length
  std::vector<ThreadCpuTime> threads;
  int64_t process_cpu_ns = 0;
  int64_t rss_bytes = -1;  // -1: unknown
};

// utime + stime of a /proc/<pid>/stat line, in clock ticks; nullopt when the
// line does not parse. The command name (field 2) may contain spaces and
// parentheses, so fields are counted after its last ')'.
std::optional<int64_t> parseStatCpuTicks(std::string_view stat);
// Resident pages (field 2) of a /proc/<pid>/statm line.
std::optional<int64_t> parseStatmResidentPages(std::string_view statm);

// Reads the calling process's threads, CPU time and RSS now.
CpuSnapshot readCpuSnapshot();

struct ThreadUtilization {
  int64_t tid;
  double pct;
};

struct CpuSample {
  int64_t ts = 0;  // start of the interval
  std::vector<ThreadUtilization> threads;
  double process_pct = 0;
  int64_t rss_bytes = -1;
};

// Utilization between two snapshots. A thread absent from `before` started
// inside the interval, so all its CPU time counts.
CpuSample utilizationBetween(const CpuSnapshot& before, const CpuSnapshot& after);

class CpuSampler {
 public:
  explicit CpuSampler(double hz);
  ~CpuSampler();
  CpuSampler(const CpuSampler&) = delete;
  CpuSampler& operator=(const CpuSampler&) = delete;

  void start();
  void stop();

  // Writer thread: moves the samples taken since the last call into `out`.
  void take(std::vector<CpuSample>& out);

  // Threads the sampler saw for the first time, with their /proc comm name,
  // since the last call.
  void takeNewThreads(std::vector<std::pair<int64_t, std::string>>& out);

  // Samples that could not be taken on time (the thread was descheduled for
  // more than a whole period).
  int64_t late() const { return late_.load(std::memory_order_relaxed); }

 private:
  void run();

  const int64_t period_ns_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::vector<CpuSample> samples_;                            // guarded by mutex_
  std::vector<std::pair<int64_t, std::string>> new_threads_;  // guarded by mutex_
  std::unordered_map<int64_t, bool> last_nonzero_;            // sampler thread only
  std::atomic<int64_t> late_{0};
};

// The name the kernel gives thread `tid` of this process (/proc/self/task/<tid>/comm).
std::string threadCommName(int64_t tid);

}  // namespace damscope::collector
