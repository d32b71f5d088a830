// An NVTX-heavy program that dies badly, for the collector's loss tests
// (tests/collector_loss_test.cc). Each thread pushes and pops ranges at a
// steady rate and keeps, in a shared file mapping, how many it has completed;
// the mapping is the kernel's page cache, so the counts survive SIGKILL and
// crashes exactly. Then the main thread dies as asked: a real segmentation
// fault, abort(), a real integer division by zero, a raised SIGBUS, or
// SIGKILL; or it exits normally.
//
// Usage: nvtx_flood --count-file F [--threads N] [--rate RANGES_PER_S_PER_THREAD]
//          [--ms MS] [--die segv|abrt|fpe|bus|kill|exit] [--own-handler]
// Count file: one int64 per thread, thread 0 being the main thread, whose
// ranges are named "tick"; the others' are named "work".
// --own-handler: the program installs its own SIGSEGV handler first (before
// its first NVTX call, so before the collector starts), which writes
// "own handler ran" and exits 42.
#include <fcntl.h>
#include <nvtx3/nvToolsExt.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr long kChunk = 250;  // ranges between two looks at the clock

std::atomic<bool> g_stop{false};

void onOwnSegv(int) {
  const char text[] = "own handler ran\n";
  (void)!write(2, text, sizeof(text) - 1);
  _exit(42);
}

// Pushes and pops `name` at `rate` ranges per second until g_stop or
// `until`, counting each completed range in `*count`.
void flood(const char* name, double rate, std::chrono::steady_clock::time_point until,
           std::atomic<int64_t>* count) {
  const auto chunk_time = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(static_cast<double>(kChunk) / rate));
  auto next = std::chrono::steady_clock::now();
  while (!g_stop.load(std::memory_order_relaxed) && std::chrono::steady_clock::now() < until) {
    for (long i = 0; i < kChunk; ++i) {
      nvtxRangePushA(name);
      nvtxRangePop();
      count->fetch_add(1, std::memory_order_relaxed);
    }
    next += chunk_time;
    std::this_thread::sleep_until(next);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string count_file, die = "exit";
  int threads = 1;
  double rate = 20000;
  int ms = 2000;
  bool own_handler = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (arg == "--count-file") {
      count_file = next();
    } else if (arg == "--threads") {
      threads = std::atoi(next().c_str());
    } else if (arg == "--rate") {
      rate = std::atof(next().c_str());
    } else if (arg == "--ms") {
      ms = std::atoi(next().c_str());
    } else if (arg == "--die") {
      die = next();
    } else if (arg == "--own-handler") {
      own_handler = true;
    } else {
      std::fprintf(stderr, "nvtx_flood: unknown argument %s\n", arg.c_str());
      return 64;
    }
  }
  if (count_file.empty() || threads < 1 || threads > 64 || !(rate > 0)) {
    std::fprintf(stderr, "nvtx_flood: --count-file F required; --threads 1..64; --rate > 0\n");
    return 64;
  }
  // Dying is the point here; a core file of each death is not.
  const rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  const int fd = open(count_file.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0644);
  if (fd < 0 || ftruncate(fd, 4096) != 0) {
    std::perror(count_file.c_str());
    return 65;
  }
  void* mapping = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (mapping == MAP_FAILED) {
    std::perror("mmap");
    return 65;
  }
  auto* counts = static_cast<std::atomic<int64_t>*>(mapping);
  if (own_handler) {
    struct sigaction action {};
    action.sa_handler = &onOwnSegv;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, nullptr);
  }

  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  std::vector<std::thread> workers;
  for (int t = 1; t < threads; ++t) {
    workers.emplace_back([&, t] { flood("work", rate, until, &counts[t]); });
  }
  flood("tick", rate, until, &counts[0]);

  if (die == "segv") {
    *static_cast<volatile int*>(nullptr) = 1;
  } else if (die == "abrt") {
    std::abort();
  } else if (die == "fpe") {
    // Both operands unknown to the compiler, which would otherwise turn
    // 1 / x into a comparison that never traps.
    volatile int one = 1, zero = 0;
    volatile int quotient = one / zero;
    (void)quotient;
  } else if (die == "bus") {
    raise(SIGBUS);
  } else if (die == "kill") {
    kill(getpid(), SIGKILL);
  }
  g_stop.store(true);
  for (std::thread& w : workers) w.join();
  if (die != "exit") {
    std::fprintf(stderr, "nvtx_flood: still alive after --die %s\n", die.c_str());
    return 99;
  }
  return 0;
}
