// The CPU sampler: see cpu_sampler.h.
#include "collector/cpu_sampler.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace damscope::collector {
namespace {

int64_t clockNs(clockid_t clock) {
  timespec ts;
  if (clock_gettime(clock, &ts) != 0) return -1;
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// The CPU-time clock of thread `tid` of this process, built as glibc's
// pthread_getcpuclockid does (sysdeps/unix/sysv/linux/kernel-posix-cpu-timers.h:
// MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED)).
clockid_t threadCpuClock(int64_t tid) {
  constexpr clockid_t kCpuClockSched = 2, kCpuClockPerThread = 4;
  return static_cast<clockid_t>((~static_cast<clockid_t>(tid)) << 3) | kCpuClockSched |
         kCpuClockPerThread;
}

// Reads a small /proc file without allocating more than `buffer`.
std::string_view readSmall(const char* path, char* buffer, size_t size) {
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  const ssize_t n = ::read(fd, buffer, size - 1);
  ::close(fd);
  return n > 0 ? std::string_view(buffer, static_cast<size_t>(n)) : std::string_view();
}

int64_t ticksToNs(int64_t ticks) {
  static const long hz = sysconf(_SC_CLK_TCK);
  return ticks * (1'000'000'000 / (hz > 0 ? hz : 100));
}

}  // namespace

std::optional<int64_t> parseStatCpuTicks(std::string_view stat) {
  const size_t close = stat.rfind(')');
  if (close == std::string_view::npos) return std::nullopt;
  // After "pid (comm)": field 3 is the state; utime and stime are fields 14
  // and 15 (proc(5)), i.e. the 12th and 13th after the state.
  std::string_view rest = stat.substr(close + 1);
  int field = 2;
  int64_t utime = -1, stime = -1;
  size_t i = 0;
  while (i < rest.size() && field < 15) {
    while (i < rest.size() && rest[i] == ' ') ++i;
    if (i >= rest.size()) break;
    ++field;
    const size_t start = i;
    while (i < rest.size() && rest[i] != ' ' && rest[i] != '\n') ++i;
    if (field == 14 || field == 15) {
      int64_t value = 0;
      for (size_t k = start; k < i; ++k) {
        if (rest[k] < '0' || rest[k] > '9') return std::nullopt;
        value = value * 10 + (rest[k] - '0');
      }
      (field == 14 ? utime : stime) = value;
    }
  }
  if (utime < 0 || stime < 0) return std::nullopt;
  return utime + stime;
}

std::optional<int64_t> parseStatmResidentPages(std::string_view statm) {
  const size_t space = statm.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  int64_t value = 0;
  size_t i = space + 1, digits = 0;
  for (; i < statm.size() && statm[i] >= '0' && statm[i] <= '9'; ++i, ++digits) {
    value = value * 10 + (statm[i] - '0');
  }
  if (digits == 0) return std::nullopt;
  return value;
}

std::string threadCommName(int64_t tid) {
  char path[64], buffer[64];
  std::snprintf(path, sizeof(path), "/proc/self/task/%lld/comm", static_cast<long long>(tid));
  std::string name(readSmall(path, buffer, sizeof(buffer)));
  while (!name.empty() && (name.back() == '\n' || name.back() == '\0')) name.pop_back();
  return name;
}

CpuSnapshot readCpuSnapshot() {
  CpuSnapshot snapshot;
  snapshot.ts = clockNs(CLOCK_REALTIME);
  snapshot.mono_ns = clockNs(CLOCK_MONOTONIC);
  snapshot.process_cpu_ns = clockNs(CLOCK_PROCESS_CPUTIME_ID);
  if (DIR* dir = opendir("/proc/self/task")) {
    while (dirent* entry = readdir(dir)) {
      char* end = nullptr;
      const long long tid = std::strtoll(entry->d_name, &end, 10);
      if (end == entry->d_name || *end != '\0' || tid <= 0) continue;
      int64_t cpu = clockNs(threadCpuClock(tid));
      if (cpu < 0) {
        char path[64], buffer[1024];
        std::snprintf(path, sizeof(path), "/proc/self/task/%lld/stat", tid);
        if (auto ticks = parseStatCpuTicks(readSmall(path, buffer, sizeof(buffer)))) {
          cpu = ticksToNs(*ticks);
        }
      }
      if (cpu >= 0) snapshot.threads.push_back({tid, cpu});  // else the thread just exited
    }
    closedir(dir);
  }
  char buffer[256];
  if (auto pages = parseStatmResidentPages(readSmall("/proc/self/statm", buffer, sizeof(buffer)))) {
    snapshot.rss_bytes = *pages * sysconf(_SC_PAGESIZE);
  }
  return snapshot;
}

CpuSample utilizationBetween(const CpuSnapshot& before, const CpuSnapshot& after) {
  CpuSample sample;
  sample.ts = before.ts;
  sample.rss_bytes = after.rss_bytes;
  const double interval = static_cast<double>(after.mono_ns - before.mono_ns);
  if (interval <= 0) return sample;
  auto pct = [&](int64_t cpu_ns) { return std::max(0.0, 100.0 * cpu_ns / interval); };
  sample.process_pct = pct(after.process_cpu_ns - before.process_cpu_ns);
  std::unordered_map<int64_t, int64_t> earlier;
  earlier.reserve(before.threads.size());
  for (const auto& t : before.threads) earlier.emplace(t.tid, t.cpu_ns);
  for (const auto& t : after.threads) {
    auto it = earlier.find(t.tid);
    sample.threads.push_back({t.tid, pct(t.cpu_ns - (it == earlier.end() ? 0 : it->second))});
  }
  return sample;
}

CpuSampler::CpuSampler(double hz)
    : period_ns_(static_cast<int64_t>(1e9 / std::clamp(hz, 0.1, 10000.0))) {}

CpuSampler::~CpuSampler() {
  stop();
}

void CpuSampler::start() {
  if (thread_.joinable()) return;
  stopping_ = false;
  thread_ = std::thread([this] { run(); });
}

void CpuSampler::stop() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void CpuSampler::take(std::vector<CpuSample>& out) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& s : samples_) out.push_back(std::move(s));
  samples_.clear();
}

void CpuSampler::takeNewThreads(std::vector<std::pair<int64_t, std::string>>& out) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& t : new_threads_) out.push_back(std::move(t));
  new_threads_.clear();
}

void CpuSampler::run() {
  pthread_setname_np(pthread_self(), "damscope-sample");
  CpuSnapshot previous = readCpuSnapshot();
  std::vector<std::pair<int64_t, std::string>> seen;
  for (const auto& t : previous.threads) {
    seen.emplace_back(t.tid, threadCommName(t.tid));
    last_nonzero_[t.tid] = true;  // report every thread in the first sample
  }
  int64_t next = previous.mono_ns + period_ns_;
  std::unique_lock<std::mutex> lock(mutex_);
  new_threads_ = std::move(seen);
  for (;;) {
    const int64_t now = clockNs(CLOCK_MONOTONIC);
    if (wake_.wait_for(lock, std::chrono::nanoseconds(std::max<int64_t>(next - now, 0)),
                       [&] { return stopping_; })) {
      return;
    }
    lock.unlock();
    CpuSnapshot current = readCpuSnapshot();
    CpuSample sample = utilizationBetween(previous, current);
    // Idle threads: one zero after activity, then nothing until they work again.
    std::vector<ThreadUtilization> kept;
    std::vector<std::pair<int64_t, std::string>> fresh;
    for (const ThreadUtilization& t : sample.threads) {
      auto [it, added] = last_nonzero_.try_emplace(t.tid, true);
      if (added) fresh.emplace_back(t.tid, threadCommName(t.tid));
      const bool nonzero = t.pct > 0.05;
      if (nonzero || it->second) kept.push_back(t);
      it->second = nonzero;
    }
    sample.threads = std::move(kept);
    previous = std::move(current);
    next += period_ns_;
    if (next < previous.mono_ns) {
      late_.fetch_add(1, std::memory_order_relaxed);
      next = previous.mono_ns + period_ns_;
    }
    lock.lock();
    samples_.push_back(std::move(sample));
    for (auto& f : fresh) new_threads_.push_back(std::move(f));
  }
}

}  // namespace damscope::collector
