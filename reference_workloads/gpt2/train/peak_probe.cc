// The peak FLOP/s and bandwidth probes: see peak_probe.h.
#include "reference_workloads/gpt2/train/peak_probe.h"

#include <immintrin.h>
#include <omp.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <fstream>
#include <vector>

namespace damscope::gpt2 {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

constexpr int kChains = 12;
constexpr int kFmaRepetitions = 6;    // half before the triad, half after
constexpr int kTriadRepetitions = 4;  // the best counts

// Each kernel runs `iterations` rounds of kChains independent multiply-adds
// a = a * m + c on full vectors and returns a value that depends on all
// chains (so nothing is optimised away). m slightly below 1 keeps the values
// finite for any iteration count.
__attribute__((target("avx512f"))) float fmaChainsAvx512(int64_t iterations) {
  __m512 a[kChains];
  const __m512 m = _mm512_set1_ps(0.999999f), c = _mm512_set1_ps(1e-7f);
  for (int i = 0; i < kChains; ++i) a[i] = _mm512_set1_ps(static_cast<float>(i));
  for (int64_t k = 0; k < iterations; ++k) {
#pragma GCC unroll 12
    for (int i = 0; i < kChains; ++i) a[i] = _mm512_fmadd_ps(a[i], m, c);
  }
  __m512 s = a[0];
  for (int i = 1; i < kChains; ++i) s = _mm512_add_ps(s, a[i]);
  float out[16];
  _mm512_storeu_ps(out, s);
  return out[0] + out[15];
}

__attribute__((target("avx2,fma"))) float fmaChainsAvx2(int64_t iterations) {
  __m256 a[kChains];
  const __m256 m = _mm256_set1_ps(0.999999f), c = _mm256_set1_ps(1e-7f);
  for (int i = 0; i < kChains; ++i) a[i] = _mm256_set1_ps(static_cast<float>(i));
  for (int64_t k = 0; k < iterations; ++k) {
#pragma GCC unroll 12
    for (int i = 0; i < kChains; ++i) a[i] = _mm256_fmadd_ps(a[i], m, c);
  }
  __m256 s = a[0];
  for (int i = 1; i < kChains; ++i) s = _mm256_add_ps(s, a[i]);
  float out[8];
  _mm256_storeu_ps(out, s);
  return out[0] + out[7];
}

// Without FMA a multiply and an add per chain element: 2 FLOPs, as one FMA.
float mulAddChainsSse2(int64_t iterations) {
  __m128 a[kChains];
  const __m128 m = _mm_set1_ps(0.999999f), c = _mm_set1_ps(1e-7f);
  for (int i = 0; i < kChains; ++i) a[i] = _mm_set1_ps(static_cast<float>(i));
  for (int64_t k = 0; k < iterations; ++k) {
#pragma GCC unroll 12
    for (int i = 0; i < kChains; ++i) a[i] = _mm_add_ps(_mm_mul_ps(a[i], m), c);
  }
  __m128 s = a[0];
  for (int i = 1; i < kChains; ++i) s = _mm_add_ps(s, a[i]);
  float out[4];
  _mm_storeu_ps(out, s);
  return out[0] + out[3];
}

struct FmaKernel {
  float (*run)(int64_t);
  int lanes;
  const char* isa;
};

FmaKernel pickKernel() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return {fmaChainsAvx512, 16, "avx512f"};
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    return {fmaChainsAvx2, 8, "avx2+fma"};
  return {mulAddChainsSse2, 4, "sse2"};
}

// The calling thread's CPU time in seconds.
double threadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

// Each thread's FLOP/s over `iterations` rounds, by its own CPU time: on a
// machine shared with other work, a thread that is descheduled for a while
// does not count the wait.
std::vector<double> runFma(const FmaKernel& k, int threads, int64_t iterations) {
  std::vector<double> rates(threads, 0.0);
  volatile float sink = 0;
#pragma omp parallel num_threads(threads)
  {
    const double start = threadCpuSeconds();
    const float r = k.run(iterations);
    const double seconds = threadCpuSeconds() - start;
    if (r == 12345.678f) sink = r;  // never true; keeps the result live
    rates[omp_get_thread_num()] = double(iterations) * kChains * k.lanes * 2 / seconds;
  }
  (void)sink;
  return rates;
}

// Iterations for ~4 ms a repetition on one thread. The first rounds also
// wake the threads and let the clock settle.
int64_t calibrateFma(const FmaKernel& k, int threads) {
  constexpr int64_t kCalibration = 100000;
  double rate = 0;
  for (double r : runFma(k, threads, kCalibration)) rate = std::max(rate, r);
  return std::max<int64_t>(kCalibration, int64_t(rate / (kChains * k.lanes * 2) * 0.004));
}

// Runs `repetitions` and keeps each thread's best rate in best.
void fmaRepetitions(const FmaKernel& k, int threads, int64_t iterations, int repetitions,
                    std::vector<double>& best) {
  for (int rep = 0; rep < repetitions; ++rep) {
    const std::vector<double> rates = runFma(k, threads, iterations);
    for (int t = 0; t < threads; ++t) best[t] = std::max(best[t], rates[t]);
  }
}

// The last-level cache of one core's cluster (Linux sysfs), e.g. 32 MiB on a
// Zen 3 CCX; 32 MiB when unknown.
size_t lastLevelCacheBytes() {
  size_t best = 0;
  int best_level = 0;
  for (int index = 0; index < 8; ++index) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index);
    std::ifstream level_file(dir + "/level"), size_file(dir + "/size");
    int level = 0;
    std::string size;
    if (!(level_file >> level) || !(size_file >> size) || size.empty()) continue;
    size_t bytes = std::stoull(size);
    if (size.back() == 'K') bytes <<= 10;
    if (size.back() == 'M') bytes <<= 20;
    if (level > best_level) {
      best_level = level;
      best = bytes;
    }
  }
  return best > 0 ? best : size_t(32) << 20;
}

double triadBandwidth(int threads, size_t* array_bytes) {
  // 1.5x the last-level cache per array, 4.5x for the three: a streaming
  // pass cannot be served from the cache. STREAM asks for 4x the cache per
  // array; the first touch of the pages is most of the probe's time, and
  // this keeps the probe under its 0.2 s budget. Clamped to [16, 48] MiB.
  const size_t bytes =
      std::clamp<size_t>(3 * lastLevelCacheBytes() / 2, size_t(16) << 20, size_t(48) << 20);
  *array_bytes = bytes;
  const size_t n = bytes / sizeof(float);
  void* mem = mmap(nullptr, 3 * bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) return 0;
  float* a = static_cast<float*>(mem);
  float* b = a + n;
  float* c = b + n;
  // First touch by the threads that use the data (NUMA placement, as STREAM;
  // the same static split as the timed loop).
#pragma omp parallel for simd schedule(static) num_threads(threads)
  for (size_t i = 0; i < n; ++i) {
    a[i] = 0.0f;
    b[i] = 1.0f;
    c[i] = 2.0f;
  }
  // Timed by the wall clock around the whole parallel loop, as STREAM times
  // it: the memory system is shared, so the threads' passes must overlap to
  // measure it (a sum of per-thread rates, as runFma takes, would count a
  // time-sliced pair as two machines). The best repetition is the one least
  // disturbed by other work.
  const float s = 3.0f;
  double best = 0;
  for (int rep = 0; rep < kTriadRepetitions; ++rep) {
    const auto start = Clock::now();
#pragma omp parallel for simd schedule(static) num_threads(threads)
    for (size_t i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
    best = std::max(best, 3.0 * bytes / secondsSince(start));
  }
  munmap(mem, 3 * bytes);
  return best;
}

}  // namespace

PeakProbe probePeak(int threads) {
  const auto start = Clock::now();
  PeakProbe p;
  const FmaKernel kernel = pickKernel();
  p.isa = kernel.isa;
  // Half of the FMA repetitions before the bandwidth probe and half after,
  // so that they span the whole probe: each thread's best repetition counts,
  // and a disturbance shorter than the probe (on a virtual machine, the host
  // briefly running two of its vCPUs on one physical core, which halves
  // both) cannot spoil all of them.
  const int64_t iterations = calibrateFma(kernel, threads);
  std::vector<double> best(threads, 0.0);
  fmaRepetitions(kernel, threads, iterations, kFmaRepetitions / 2, best);
  p.bytes_per_s = triadBandwidth(threads, &p.array_bytes);
  fmaRepetitions(kernel, threads, iterations, kFmaRepetitions - kFmaRepetitions / 2, best);
  for (double r : best) p.flops_per_s += r;
  p.seconds = secondsSince(start);
  return p;
}

}  // namespace damscope::gpt2
