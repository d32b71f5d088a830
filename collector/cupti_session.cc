// The CUPTI activity session: see cupti_session.h. CUPTI calls and their
// contracts are those of cupti_activity.h / cupti_callbacks.h (CUPTI 13.0).
#include "collector/cupti_session.h"

#include <cupti.h>
#include <dlfcn.h>
#include <time.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <utility>

#include "collector/counter_session.h"
#include "collector/cupti_activity_decoder.h"
#include "collector/cupti_holder.h"

#ifndef DAMSCOPE_CUPTI_BUILD_PATH
#define DAMSCOPE_CUPTI_BUILD_PATH ""
#endif

namespace damscope::collector {

// Resolved with dlsym; `decltype(&cuptiX)` keeps every signature exactly the
// header's.
struct CuptiSession::Api {
  decltype(&cuptiGetVersion) getVersion = nullptr;
  decltype(&cuptiGetResultString) getResultString = nullptr;
  decltype(&cuptiSubscribe) subscribe = nullptr;
  decltype(&cuptiUnsubscribe) unsubscribe = nullptr;
  decltype(&cuptiActivityEnable) enable = nullptr;
  decltype(&cuptiActivityEnableAndDump) enableAndDump = nullptr;  // optional
  decltype(&cuptiActivityDisable) disable = nullptr;
  decltype(&cuptiActivityRegisterCallbacks) registerCallbacks = nullptr;
  decltype(&cuptiActivityRegisterTimestampCallback) registerTimestampCallback =
      nullptr;  // optional
  decltype(&cuptiActivityFlushAll) flushAll = nullptr;
  decltype(&cuptiActivityGetNextRecord) getNextRecord = nullptr;
  decltype(&cuptiActivityGetNumDroppedRecords) getNumDroppedRecords = nullptr;
  decltype(&cuptiGetTimestamp) getTimestamp = nullptr;
  decltype(&cuptiSetThreadIdType) setThreadIdType = nullptr;
  decltype(&cuptiEnableCallback) enableCallback = nullptr;  // optional: only --counters needs it
};

namespace {

constexpr uint32_t kSupportedMajor = CUPTI_API_VERSION / 10000;

// The pool CUPTI's buffer callbacks serve from. CUPTI's callbacks carry no
// user pointer, hence a global; set before the callbacks are registered.
std::atomic<BufferPool*> g_pool{nullptr};

void CUPTIAPI bufferRequested(uint8_t** buffer, size_t* size, size_t* max_records) noexcept {
  BufferPool* pool = g_pool.load(std::memory_order_acquire);
  *buffer = pool ? pool->acquire() : nullptr;
  *size = *buffer ? pool->bufferBytes() : 0;
  *max_records = 0;  // as many as fit
}

void CUPTIAPI bufferCompleted(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) noexcept {
  if (BufferPool* pool = g_pool.load(std::memory_order_acquire)) pool->complete(buffer, valid);
}

// Timestamps for every record, so that GPU and host activity share the
// trace's clock with NVTX ranges and CPU samples.
uint64_t CUPTIAPI realtimeNs() noexcept {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<uint64_t>(ts.tv_nsec);
}

// The subscription exists to claim CUPTI (and learn whether someone else
// has). Only with --counters are callbacks enabled, the launch calls', and
// `userdata` is then the counter session; otherwise this is never called.
void CUPTIAPI launchCallback(void* userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                             const void* data) noexcept {
  if (userdata) static_cast<CounterSession*>(userdata)->onCallback(domain, cbid, data);
}

std::string readProcMaps() {
  std::ifstream in("/proc/self/maps");
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

struct Kind {
  CUpti_ActivityKind kind;
  const char* name;
  bool dump;  // enable with cuptiActivityEnableAndDump: also report what exists already
};

// The kinds, plus DEVICE (device properties) and CONTEXT (context ->
// device, for synchronization records).
constexpr Kind kKinds[] = {
    {CUPTI_ACTIVITY_KIND_DEVICE, "DEVICE", true},
    {CUPTI_ACTIVITY_KIND_CONTEXT, "CONTEXT", true},
    {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, "CONCURRENT_KERNEL", false},
    {CUPTI_ACTIVITY_KIND_MEMCPY, "MEMCPY", false},
    {CUPTI_ACTIVITY_KIND_MEMCPY2, "MEMCPY2", false},
    {CUPTI_ACTIVITY_KIND_MEMSET, "MEMSET", false},
    {CUPTI_ACTIVITY_KIND_RUNTIME, "RUNTIME", false},
    {CUPTI_ACTIVITY_KIND_DRIVER, "DRIVER", false},
    {CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, "SYNCHRONIZATION", false},
    {CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION, "EXTERNAL_CORRELATION", false},
    {CUPTI_ACTIVITY_KIND_OVERHEAD, "OVERHEAD", false},
};

}  // namespace

Result<std::unique_ptr<CuptiSession>> CuptiSession::load(const std::string& explicit_path) {
  const std::string soname = "libcupti.so." + std::to_string(kSupportedMajor);
  std::vector<std::pair<std::string, int>> attempts;  // path, extra dlopen flags
  if (!explicit_path.empty()) {
    attempts.emplace_back(explicit_path, 0);
  } else {
    attempts.emplace_back(soname, RTLD_NOLOAD);
    attempts.emplace_back("libcupti.so", RTLD_NOLOAD);
    if (*DAMSCOPE_CUPTI_BUILD_PATH) attempts.emplace_back(DAMSCOPE_CUPTI_BUILD_PATH, 0);
    attempts.emplace_back(soname, 0);
    attempts.emplace_back("libcupti.so", 0);
  }
  std::unique_ptr<CuptiSession> session(new CuptiSession());
  std::string last_error;
  for (const auto& [path, flags] : attempts) {
    session->library_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | flags);
    if (session->library_) {
      session->library_path_ = path;
      break;
    }
    if (!(flags & RTLD_NOLOAD)) last_error = dlerror();
  }
  if (!session->library_) {
    return Error("CUPTI cannot be loaded (" + last_error +
                 "); set DAMSCOPE_CUPTI_PATH to libcupti.so." + std::to_string(kSupportedMajor));
  }
  auto api = std::make_unique<Api>();
  bool missing = false;
  std::string missing_name;
  auto resolve = [&](auto& fn, const char* name, bool required) {
    fn = reinterpret_cast<std::decay_t<decltype(fn)>>(dlsym(session->library_, name));
    if (!fn && required && !missing) missing = true, missing_name = name;
  };
  resolve(api->getVersion, "cuptiGetVersion", true);
  resolve(api->getResultString, "cuptiGetResultString", true);
  resolve(api->subscribe, "cuptiSubscribe", true);
  resolve(api->unsubscribe, "cuptiUnsubscribe", true);
  resolve(api->enable, "cuptiActivityEnable", true);
  resolve(api->enableAndDump, "cuptiActivityEnableAndDump", false);
  resolve(api->disable, "cuptiActivityDisable", true);
  resolve(api->registerCallbacks, "cuptiActivityRegisterCallbacks", true);
  resolve(api->registerTimestampCallback, "cuptiActivityRegisterTimestampCallback", false);
  resolve(api->flushAll, "cuptiActivityFlushAll", true);
  resolve(api->getNextRecord, "cuptiActivityGetNextRecord", true);
  resolve(api->getNumDroppedRecords, "cuptiActivityGetNumDroppedRecords", true);
  resolve(api->getTimestamp, "cuptiGetTimestamp", true);
  resolve(api->setThreadIdType, "cuptiSetThreadIdType", true);
  resolve(api->enableCallback, "cuptiEnableCallback", false);
  if (missing) {
    return Error("CUPTI at " + session->library_path_ + " lacks " + missing_name +
                 "; damscope needs CUPTI " + std::to_string(kSupportedMajor));
  }
  session->api_ = std::move(api);
  if (session->api_->getVersion(&session->version_) != CUPTI_SUCCESS ||
      session->version_ / 10000 != kSupportedMajor) {
    // Record layouts change between CUPTI major versions (Kernel9 -> Kernel10).
    return Error("CUPTI at " + session->library_path_ + " has API version " +
                 std::to_string(session->version_) + "; this damscope decodes CUPTI " +
                 std::to_string(kSupportedMajor) + " records (API version " +
                 std::to_string(kSupportedMajor) + "xxxx)");
  }
  return session;
}

CuptiSession::~CuptiSession() {
  if (subscriber_) (void)stop();
  // libcupti stays loaded: CUPTI may still call into its own threads.
}

Status CuptiSession::start(BufferPool* pool, CounterSession* counters) {
  if (subscriber_) return okStatus();
  auto text = [&](CUptiResult r) {
    const char* s = nullptr;
    if (api_->getResultString(r, &s) != CUPTI_SUCCESS || !s) return std::to_string(r);
    return std::string(s);
  };
  CUpti_SubscriberHandle subscriber = nullptr;
  const CUptiResult subscribed = api_->subscribe(&subscriber, &launchCallback, counters);
  if (subscribed == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
    return Error(
        "CUPTI is already in use in this process (CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_"
        "SUPPORTED), most likely by " +
        describeCuptiHolder(readProcMaps(), [](const char* n) { return std::getenv(n); }) +
        "; only one CUPTI client can record a process");
  }
  if (subscribed == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES) {
    return Error(
        "CUPTI refused access (CUPTI_ERROR_INSUFFICIENT_PRIVILEGES): the driver restricts "
        "GPU performance counters to administrators (NVreg_RestrictProfilingToAdminUsers)");
  }
  if (subscribed != CUPTI_SUCCESS) {
    return Error("cuptiSubscribe failed with " + text(subscribed) +
                 " (no usable GPU or driver in this process?)");
  }
  subscriber_ = subscriber;
  g_pool.store(pool, std::memory_order_release);

  // CUPTI documents both settings as "before any activity kind is enabled".
  (void)api_->setThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM);
  clock_offset_ns_ = 0;
  clock_source_ = "timestamp_callback";
  if (!api_->registerTimestampCallback ||
      api_->registerTimestampCallback(&realtimeNs) != CUPTI_SUCCESS) {
    // CUPTI keeps its own clock (CLOCK_REALTIME on Linux, but not under
    // WSL): measure the offset once.
    uint64_t cupti_now = 0;
    if (api_->getTimestamp(&cupti_now) == CUPTI_SUCCESS && cupti_now != 0) {
      clock_offset_ns_ = static_cast<int64_t>(realtimeNs()) - static_cast<int64_t>(cupti_now);
    }
    clock_source_ = "offset";
  }
  if (CUptiResult r = api_->registerCallbacks(&bufferRequested, &bufferCompleted);
      r != CUPTI_SUCCESS) {
    (void)stop();
    return Error("cuptiActivityRegisterCallbacks failed with " + text(r));
  }
  unavailable_kinds_.clear();
  enabled_kinds_.clear();
  for (const Kind& k : kKinds) {
    const CUptiResult r =
        (k.dump && api_->enableAndDump) ? api_->enableAndDump(k.kind) : api_->enable(k.kind);
    if (r == CUPTI_SUCCESS) {
      enabled_kinds_.push_back(k.kind);
      continue;
    }
    if (k.kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
      (void)stop();
      return Error(
          "CUPTI cannot trace kernels: cuptiActivityEnable(CONCURRENT_KERNEL) failed "
          "with " +
          text(r));
    }
    unavailable_kinds_.push_back(std::string(k.name) + " (" + text(r) + ")");
  }
  counters_error_.clear();
  if (counters) {
    const auto callbacks = CounterSession::launchCallbacks();
    if (!api_->enableCallback) counters_error_ = "CUPTI lacks cuptiEnableCallback";
    for (const auto& [domain, cbid] : callbacks) {
      if (!counters_error_.empty()) break;
      const CUptiResult r =
          api_->enableCallback(1, subscriber, static_cast<CUpti_CallbackDomain>(domain), cbid);
      if (r != CUPTI_SUCCESS) {
        counters_error_ =
            "cuptiEnableCallback(" +
            std::string(domain == CUPTI_CB_DOMAIN_RUNTIME_API ? "runtime" : "driver") + " launch " +
            std::to_string(cbid) + ") failed with " + text(r);
      }
    }
    if (!counters_error_.empty() && api_->enableCallback) {
      // Half the launch calls bracketed would measure some launches only.
      for (const auto& [domain, cbid] : callbacks) {
        (void)api_->enableCallback(0, subscriber, static_cast<CUpti_CallbackDomain>(domain), cbid);
      }
    }
  }
  return okStatus();
}

Status CuptiSession::stop() {
  if (!subscriber_) return okStatus();
  for (int kind : enabled_kinds_) (void)api_->disable(static_cast<CUpti_ActivityKind>(kind));
  enabled_kinds_.clear();
  // Forced: also buffers with records still incomplete (cupti_activity.h
  // recommends it at the end of a session).
  (void)api_->flushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  // Records dropped since the last query would be lost with the session.
  dropped_at_stop_ += readDroppedRecords();
  const CUptiResult r = api_->unsubscribe(static_cast<CUpti_SubscriberHandle>(subscriber_));
  subscriber_ = nullptr;
  if (r != CUPTI_SUCCESS) return Error("cuptiUnsubscribe failed with code " + std::to_string(r));
  return okStatus();
}

void CuptiSession::flush(bool forced) {
  if (subscriber_) (void)api_->flushAll(forced ? CUPTI_ACTIVITY_FLAG_FLUSH_FORCED : 0);
}

int64_t CuptiSession::takeDroppedRecords() {
  const int64_t at_stop = std::exchange(dropped_at_stop_, 0);
  return at_stop + (subscriber_ ? readDroppedRecords() : 0);
}

int64_t CuptiSession::readDroppedRecords() {
  size_t dropped = 0;
  // CUDA 6+ delivers only global buffers: the NULL context covers them all.
  if (api_->getNumDroppedRecords(nullptr, 0, &dropped) != CUPTI_SUCCESS) return 0;
  return static_cast<int64_t>(dropped);
}

size_t CuptiSession::decodeBuffer(uint8_t* buffer, size_t valid_bytes, ActivitySink& sink,
                                  int64_t* unreadable) {
  size_t records = 0;
  CUpti_Activity* record = nullptr;
  for (;;) {
    const CUptiResult r = api_->getNextRecord(buffer, valid_bytes, &record);
    if (r == CUPTI_SUCCESS) {
      decodeActivityRecord(record, sink);
      ++records;
      continue;
    }
    // MAX_LIMIT_REACHED is the normal end; INVALID_KIND an incomplete or
    // invalid record, after which nothing more can be read.
    if (r != CUPTI_ERROR_MAX_LIMIT_REACHED && unreadable) ++*unreadable;
    break;
  }
  return records;
}

}  // namespace damscope::collector
