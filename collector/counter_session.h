// The CUPTI range profiler behind `damscope record --counters`: per-kernel
// hardware counters, measured as Nsight Compute and Kineto's CUPTI profiler
// mode measure them (auto range: one range per kernel launch; kernel
// replay: CUPTI replays the kernel until every counter is read).
//
// How a launch is measured. CUPTI calls back on the launching thread at the
// entry and exit of each launch call (cuptiEnableCallback on the collector's
// subscription, cupti_session.h). The CUPTI range profiling sample
// (extras/CUPTI/samples, auto range with kernel replay driven from a
// cuLaunchKernel callback) does what this file does: at the driver
// launch's entry, cuptiRangeProfilerStart; at its exit, Stop, DecodeData
// (which synchronizes the context, CUPTI 13 "Range Profiling API"), one
// cuptiProfilerHostEvaluateToGpuValues, and the counter data image reset for
// the next launch. The values go with the correlation id of the outermost
// launch call (runtime or driver, whichever the program called) into a
// fixed ring that the writer drains (measured_kernel_rows.h joins them to
// their kernels). Graph launches, memcpy kernels and launches from inside
// kernels are not bracketed and not measured.
//
// What it costs the program: every measured kernel runs alone, replayed as
// many times as its counters need passes, and each launch waits for its
// kernel (auto range "includes a context synchronization at the end of each
// kernel launch, making operations synchronous", CUPTI 13). Kernel times in
// such a recording are not the program's normal ones. The time spent inside
// measured launches is counted (Counts::measured_ns) so the user sees it.
//
// Threads and locks. One launch is measured at a time: a launch claims the
// session with a compare-and-swap on the owner thread id and releases it at
// its exit; a launch on another thread meanwhile is not measured (counted in
// Counts::busy), never waits — the program's threads never block on damscope.
// The owner alone touches the per-context profiler state, so it needs no
// lock. Setting up a context (the first measured launch in it: chip name,
// counter availability, host object, config and counter data images) runs
// on that launching thread and allocates, once per context; later launches
// allocate nothing on damscope's side. Results pass to the writer through a
// single-producer ring (one owner at a time) and a single consumer.
//
// No GPU: every call needs a device, so on a machine without one the session
// is created (it only resolves symbols) but never called; CounterHost, the
// host half, works on CUPTI's chip tables alone and is tested here.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"
#include "collector/counter_metrics.h"

namespace damscope::collector {

// The range profiler, profiler host and target functions of libcupti
// (CUPTI 12.6 and later), resolved with dlsym. Defined in counter_session.cc.
struct CounterApi;

// Resolves CounterApi in an open libcupti (`library`, a dlopen handle;
// `path` names it in messages). An error when a function is missing: the
// CUPTI is older than 12.6.
Result<std::shared_ptr<const CounterApi>> resolveCounterApi(void* library, const std::string& path);

// The host half for one chip: which metrics it knows, the config image that
// schedules them, and evaluation of decoded counter data. Needs no device.
class CounterHost {
 public:
  // `chip`: cuptiDeviceGetChipName's name ("GH100"). `availability`: the
  // device's counter availability image, empty when none (host only).
  // Metrics the chip does not know are left out (missing()); an error when
  // it knows none of the selection's.
  static Result<std::unique_ptr<CounterHost>> create(std::shared_ptr<const CounterApi> api,
                                                     const std::string& chip,
                                                     const std::vector<uint8_t>& availability,
                                                     const CounterSelection& selection);
  ~CounterHost();
  CounterHost(const CounterHost&) = delete;
  CounterHost& operator=(const CounterHost&) = delete;

  const std::string& chip() const { return chip_; }
  const std::vector<uint8_t>& configImage() const { return config_image_; }
  // The metric names collected, in Metric order (CUPTI wants them so).
  const std::vector<const char*>& names() const { return names_; }
  // Names of the selection's metrics the chip does not know.
  const std::vector<std::string>& missing() const { return missing_; }
  // Values of range `range` of a decoded counter data image into `out`
  // (NaN for metrics not collected). Returns the CUptiResult (0: success).
  // Allocates nothing.
  int evaluate(const uint8_t* image, size_t image_bytes, size_t range, MetricValues* out) const;

 private:
  CounterHost() = default;
  std::shared_ptr<const CounterApi> api_;
  void* host_object_ = nullptr;  // CUpti_Profiler_Host_Object
  std::string chip_;
  std::vector<uint8_t> config_image_;
  std::vector<const char*> names_;
  std::vector<Metric> collected_;        // names_' metrics
  mutable std::vector<double> scratch_;  // evaluate's output, one per name
  std::vector<std::string> missing_;
};

struct MeasuredLaunch {
  uint32_t correlation_id = 0;
  MetricValues values{};
};

class CounterSession {
 public:
  static Result<std::unique_ptr<CounterSession>> create(void* library, const std::string& path,
                                                        const CounterSelection& selection);
  ~CounterSession();
  CounterSession(const CounterSession&) = delete;
  CounterSession& operator=(const CounterSession&) = delete;

  // The (CUpti_CallbackDomain, CUpti_CallbackId) pairs to enable: the
  // runtime's and the driver's kernel launch calls.
  static std::vector<std::pair<uint32_t, uint32_t>> launchCallbacks();

  // CUPTI's callback for those ids, on the launching thread (`data` is a
  // CUpti_CallbackData). Never throws; a CUPTI failure stops measuring
  // (failure()) and the program runs on.
  void onCallback(uint32_t domain, uint32_t cbid, const void* data) noexcept;

  // Writer thread: the launches measured since the last call.
  void take(std::vector<MeasuredLaunch>& out);

  struct Counts {
    int64_t measured = 0;        // launches whose values reached the ring
    int64_t measured_ns = 0;     // time inside measured launches (kernel, replays, readout)
    int64_t busy = 0;            // launches not measured: another thread's launch was
    int64_t ring_full = 0;       // values lost: the writer's ring was full
    int64_t ranges_dropped = 0;  // cuptiRangeProfilerDecodeData's numOfRangeDropped
  };
  Counts counts() const;
  // The first failure ("" while none): once set, no launch is measured.
  std::string failure() const;
  // What the first context set up says about its chip: "GH100", or
  // "GB202 (lacks dram__bytes_read.sum, ...)"; "" before any.
  std::string chipNote() const;

 private:
  struct Context;
  CounterSession() = default;
  Context* contextFor(void* ctx);
  bool setUp(Context& c, void* ctx);
  void enter(uint32_t domain, const void* data);
  void exit(uint32_t domain, const void* data);
  void measureExit();
  // Records the first failure: `call` failed with CUptiResult `result`.
  void fail(const char* call, int result);

  // Text written once by whichever thread gets there first, read by the
  // writer once published (state 2).
  struct OnceText {
    std::atomic<int> state{0};
    std::string text;
    bool set(std::string value);
    std::string get() const;
  };

  std::shared_ptr<const CounterApi> api_;
  CounterSelection selection_;
  static constexpr size_t kContexts = 8;
  std::unique_ptr<Context[]> contexts_;  // the owner's
  bool profiler_initialized_ = false;    // the owner's

  std::atomic<int64_t> owner_{0};  // OS tid of the thread measuring a launch, 0: none
  // The owner's bracket: opened by the runtime call (else by the driver's),
  // the correlation id of that outermost call, the context measuring.
  bool opened_by_runtime_ = false;
  uint32_t correlation_ = 0;
  Context* running_ = nullptr;
  int64_t started_mono_ns_ = 0;

  std::atomic<bool> failed_{false};
  OnceText failure_, chip_note_;
  std::atomic<int64_t> measured_{0}, measured_ns_{0}, busy_{0}, ring_full_{0}, ranges_dropped_{0};

  // Single producer (the owner), single consumer (the writer).
  static constexpr size_t kRing = 4096;
  std::unique_ptr<MeasuredLaunch[]> ring_;
  std::atomic<uint64_t> head_{0}, tail_{0};
};

}  // namespace damscope::collector
