// A stand-in libcupti for tests without a GPU: the CUPTI 13 entry points that
// CuptiSession resolves (cupti_session.cc), with CUPTI's declarations
// (cupti.h) so every signature is checked, plus the controls in
// fake_cupti.h. The collector loads it through its seam, DAMSCOPE_CUPTI_PATH.
//
// It models what the collector's locking depends on, not what CUPTI records:
// - Every entry point holds one internal lock for the length of the call, as
//   CUPTI holds its own (and the driver's) locks; fakeCudaInit holds it while
//   it calls the injection's entry point, as cuInit does.
// - Buffers reach the buffer-completed callback on a worker thread, as
//   CUPTI's worker thread delivers them (cupti_activity.h, CUPTI 13.0,
//   cuptiActivityFlushPeriod), and the calling thread waits for that
//   delivery inside the entry point: cuptiActivityFlushAll "is a blocking
//   call" that delivers buffers "using the callback registered in
//   cuptiActivityRegisterCallbacks" (ibid.). Full buffers go on every entry
//   point's round trip; cuptiActivityFlushAll also hands over the buffer
//   being filled.
// - On every round trip the worker runs the test's probe. A probe that takes
//   a lock the calling thread holds across the call cannot get it: the
//   lock-order hazard (caller holds lock L and waits inside CUPTI for a CUPTI
//   thread that needs L) shows up as a probe that times out, not as a hang.
// Records are CUpti_ActivityKernel10, packed back to back as CUPTI packs them
// (cupti_activity_decoder.h); cuptiActivityGetNextRecord walks only those.
#include "tests/fake_cupti.h"

#include <cupti.h>
#include <time.h>

#include <condition_variable>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

uint64_t realtimeNs() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<uint64_t>(ts.tv_nsec);
}

// CUPTI's worker thread: runs one job at a time for a caller that waits.
// Callers are serialized by the fake's internal lock.
class Worker {
 public:
  Worker() {
    std::thread([this] { loop(); }).detach();
  }

  void run(std::function<void()> job) {
    std::unique_lock<std::mutex> lock(mutex_);
    job_ = std::move(job);
    changed_.notify_all();
    changed_.wait(lock, [&] { return !job_; });
  }

 private:
  void loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      changed_.wait(lock, [&] { return static_cast<bool>(job_); });
      std::function<void()> job = job_;
      lock.unlock();
      job();
      lock.lock();
      job_ = nullptr;
      changed_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::function<void()> job_;  // mutex_
};

struct Buffer {
  uint8_t* data = nullptr;
  size_t size = 0;
  size_t used = 0;
};

struct FakeCupti {
  // CUPTI's internal lock; recursive because cuInit holds it while the
  // injection calls back into CUPTI.
  std::recursive_mutex lock;
  Worker worker;  // never destroyed: it outlives every caller

  // Everything below: `lock`.
  bool subscribed = false;
  CUpti_BuffersCallbackRequestFunc request = nullptr;
  CUpti_BuffersCallbackCompleteFunc complete = nullptr;
  CUpti_TimestampCallbackFunc timestamp = nullptr;
  Buffer filling;
  std::vector<Buffer> full;
  size_t dropped = 0;
  uint32_t correlation = 0;
  void (*probe)(void*, const char*) = nullptr;
  void* probe_arg = nullptr;

  // Counts and the gate have their own locks: the test reads and opens them
  // while a caller waits at the gate holding `lock`.
  std::mutex calls_mutex;
  std::map<std::string, int> calls;  // calls_mutex
  std::mutex gate_mutex;
  std::condition_variable gate_changed;
  bool gate_closed = false;   // gate_mutex
  bool gate_reached = false;  // gate_mutex
};

FakeCupti& fake() {
  static FakeCupti* instance = new FakeCupti();
  return *instance;
}

uint64_t now(const FakeCupti& f) {
  return f.timestamp ? f.timestamp() : realtimeNs();
}

// The worker's part of an entry point: deliver buffers (all full ones; with
// `flush`, the one being filled too), then run the probe. The caller holds
// `f.lock` and waits.
void roundTrip(FakeCupti& f, const char* function, bool flush) {
  {
    std::lock_guard<std::mutex> counting(f.calls_mutex);
    ++f.calls[function];
  }
  if (flush && f.filling.data && f.filling.used > 0) {
    f.full.push_back(f.filling);
    f.filling = Buffer();
  }
  std::vector<Buffer> deliver;
  if (f.complete) deliver.swap(f.full);
  f.worker.run([&] {
    for (const Buffer& b : deliver) f.complete(nullptr, 0, b.data, b.size, b.used);
    if (f.probe) f.probe(f.probe_arg, function);
  });
}

// One entry point: CUPTI's lock for the whole call and the round trip.
class Entry {
 public:
  explicit Entry(const char* function, bool flush = false) : f_(fake()), hold_(f_.lock) {
    roundTrip(f_, function, flush);
  }
  FakeCupti& f() { return f_; }

 private:
  FakeCupti& f_;
  std::lock_guard<std::recursive_mutex> hold_;
};

}  // namespace

extern "C" {

// --- The CUPTI entry points CuptiSession resolves ----------------------------------

CUptiResult CUPTIAPI cuptiGetVersion(uint32_t* version) {
  Entry e("cuptiGetVersion");
  *version = CUPTI_API_VERSION;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetResultString(CUptiResult result, const char** str) {
  Entry e("cuptiGetResultString");
  *str = result == CUPTI_SUCCESS ? "CUPTI_SUCCESS" : "CUPTI_ERROR_FAKE";
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiSubscribe(CUpti_SubscriberHandle* subscriber, CUpti_CallbackFunc, void*) {
  Entry e("cuptiSubscribe");
  if (e.f().subscribed) return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
  e.f().subscribed = true;
  static int handle;
  *subscriber = reinterpret_cast<CUpti_SubscriberHandle>(&handle);
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiUnsubscribe(CUpti_SubscriberHandle) {
  Entry e("cuptiUnsubscribe");
  e.f().subscribed = false;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityEnable(CUpti_ActivityKind) {
  Entry e("cuptiActivityEnable");
  FakeCupti& f = e.f();
  std::unique_lock<std::mutex> gate(f.gate_mutex);
  f.gate_reached = f.gate_closed;
  f.gate_changed.wait(gate, [&] { return !f.gate_closed; });
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityDisable(CUpti_ActivityKind) {
  Entry e("cuptiActivityDisable");
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc requested,
                                                    CUpti_BuffersCallbackCompleteFunc completed) {
  Entry e("cuptiActivityRegisterCallbacks");
  if (!requested || !completed) return CUPTI_ERROR_INVALID_PARAMETER;
  e.f().request = requested;
  e.f().complete = completed;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityRegisterTimestampCallback(CUpti_TimestampCallbackFunc callback) {
  Entry e("cuptiActivityRegisterTimestampCallback");
  e.f().timestamp = callback;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityFlushAll(uint32_t) {
  Entry e("cuptiActivityFlushAll", /*flush=*/true);
  return e.f().complete ? CUPTI_SUCCESS : CUPTI_ERROR_INVALID_OPERATION;
}

CUptiResult CUPTIAPI cuptiActivityGetNextRecord(uint8_t* buffer, size_t valid_bytes,
                                                CUpti_Activity** record) {
  Entry e("cuptiActivityGetNextRecord");
  const size_t at = *record ? static_cast<size_t>(reinterpret_cast<uint8_t*>(*record) - buffer) +
                                  sizeof(CUpti_ActivityKernel10)
                            : 0;
  if (at + sizeof(CUpti_ActivityKernel10) > valid_bytes) return CUPTI_ERROR_MAX_LIMIT_REACHED;
  auto* next = reinterpret_cast<CUpti_Activity*>(buffer + at);
  if (next->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) return CUPTI_ERROR_INVALID_KIND;
  *record = next;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityGetNumDroppedRecords(CUcontext, uint32_t, size_t* dropped) {
  Entry e("cuptiActivityGetNumDroppedRecords");
  // "The dropped count maintained for the queue is reset to zero when this
  // function is called" (cupti_activity.h).
  *dropped = e.f().dropped;
  e.f().dropped = 0;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetTimestamp(uint64_t* timestamp) {
  Entry e("cuptiGetTimestamp");
  *timestamp = realtimeNs();
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiSetThreadIdType(CUpti_ActivityThreadIdType) {
  Entry e("cuptiSetThreadIdType");
  return CUPTI_SUCCESS;
}

// --- Controls (fake_cupti.h) ----------------------------------------------------

void fakeCuptiReset() {
  FakeCupti& f = fake();
  std::lock_guard<std::recursive_mutex> hold(f.lock);
  f.subscribed = false;
  f.request = nullptr;
  f.complete = nullptr;
  f.timestamp = nullptr;
  f.filling = Buffer();
  f.full.clear();
  f.dropped = 0;
  f.probe = nullptr;
  f.probe_arg = nullptr;
  {
    std::lock_guard<std::mutex> counting(f.calls_mutex);
    f.calls.clear();
  }
  std::lock_guard<std::mutex> gate(f.gate_mutex);
  f.gate_closed = false;
  f.gate_reached = false;
}

void fakeCuptiSetProbe(void (*probe)(void*, const char*), void* arg) {
  FakeCupti& f = fake();
  std::lock_guard<std::recursive_mutex> hold(f.lock);
  f.probe = probe;
  f.probe_arg = arg;
}

void fakeCudaInit(void (*initialize)(void*), void* arg) {
  FakeCupti& f = fake();
  std::lock_guard<std::recursive_mutex> hold(f.lock);
  initialize(arg);
}

void fakeCuptiLaunchKernels(int count) {
  FakeCupti& f = fake();
  std::lock_guard<std::recursive_mutex> hold(f.lock);
  static const char kName[] = "fake_kernel";
  for (int i = 0; i < count; ++i) {
    Buffer& b = f.filling;
    if (b.data && b.used + sizeof(CUpti_ActivityKernel10) > b.size) {
      f.full.push_back(b);
      b = Buffer();
    }
    if (!b.data && f.request) {
      size_t max_records = 0;
      f.request(&b.data, &b.size, &max_records);
      if (!b.data || b.size < sizeof(CUpti_ActivityKernel10)) b = Buffer();
    }
    if (!b.data) {
      ++f.dropped;
      continue;
    }
    CUpti_ActivityKernel10 k;
    std::memset(&k, 0, sizeof(k));
    k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    k.start = now(f);
    k.end = k.start + 1000;
    k.contextId = 1;
    k.streamId = 7;
    k.gridX = k.gridY = k.gridZ = 1;
    k.blockX = 128, k.blockY = k.blockZ = 1;
    k.correlationId = ++f.correlation;
    k.name = kName;
    std::memcpy(b.data + b.used, &k, sizeof(k));
    b.used += sizeof(k);
  }
}

void fakeCuptiAddDroppedRecords(size_t count) {
  FakeCupti& f = fake();
  std::lock_guard<std::recursive_mutex> hold(f.lock);
  f.dropped += count;
}

int fakeCuptiCalls(const char* function) {
  FakeCupti& f = fake();
  std::lock_guard<std::mutex> counting(f.calls_mutex);
  auto it = f.calls.find(function);
  return it == f.calls.end() ? 0 : it->second;
}

void fakeCuptiSetGate(bool closed) {
  FakeCupti& f = fake();
  std::lock_guard<std::mutex> gate(f.gate_mutex);
  f.gate_closed = closed;
  if (!closed) f.gate_reached = false;
  f.gate_changed.notify_all();
}

bool fakeCuptiGateReached() {
  FakeCupti& f = fake();
  std::lock_guard<std::mutex> gate(f.gate_mutex);
  return f.gate_reached;
}

}  // extern "C"
