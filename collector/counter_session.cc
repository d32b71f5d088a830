// The CUPTI range profiler for per-kernel counters: see counter_session.h.
// Calls and their contracts are CUPTI 13.0's (cupti_range_profiler.h,
// cupti_profiler_host.h, cupti_profiler_target.h, cupti_target.h,
// cupti_callbacks.h) and the "CUPTI Range Profiling API" chapter.
#include "collector/counter_session.h"

#include <cupti.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <dlfcn.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cmath>
#include <limits>

// NOLINT(bugprone-sizeof-expression) below: CUPTI's *_STRUCT_SIZE macros end
// in sizeof the struct's last field, which for these structs is a pointer to
// an aggregate; that size is what CUPTI wants (CUPTI_PROFILER_STRUCT_SIZE).

namespace damscope::collector {

struct CounterApi {
  decltype(&cuptiGetResultString) resultString = nullptr;
  decltype(&cuptiGetDeviceId) deviceId = nullptr;
  decltype(&cuptiDeviceGetChipName) chipName = nullptr;
  decltype(&cuptiProfilerInitialize) profilerInitialize = nullptr;
  decltype(&cuptiProfilerGetCounterAvailability) counterAvailability = nullptr;
  decltype(&cuptiProfilerHostInitialize) hostInitialize = nullptr;
  decltype(&cuptiProfilerHostDeinitialize) hostDeinitialize = nullptr;
  decltype(&cuptiProfilerHostGetMetricProperties) metricProperties = nullptr;
  decltype(&cuptiProfilerHostConfigAddMetrics) configAddMetrics = nullptr;
  decltype(&cuptiProfilerHostGetConfigImageSize) configImageSize = nullptr;
  decltype(&cuptiProfilerHostGetConfigImage) configImage = nullptr;
  decltype(&cuptiProfilerHostEvaluateToGpuValues) evaluate = nullptr;
  decltype(&cuptiRangeProfilerEnable) enable = nullptr;
  decltype(&cuptiRangeProfilerGetCounterDataSize) counterDataSize = nullptr;
  decltype(&cuptiRangeProfilerCounterDataImageInitialize) counterDataInitialize = nullptr;
  decltype(&cuptiRangeProfilerSetConfig) setConfig = nullptr;
  decltype(&cuptiRangeProfilerStart) start = nullptr;
  decltype(&cuptiRangeProfilerStop) stop = nullptr;
  decltype(&cuptiRangeProfilerDecodeData) decode = nullptr;
  decltype(&cuptiRangeProfilerGetCounterDataInfo) counterDataInfo = nullptr;

  std::string text(int result) const {
    const char* s = nullptr;
    if (resultString(static_cast<CUptiResult>(result), &s) != CUPTI_SUCCESS || !s) {
      return std::to_string(result);
    }
    return s;
  }
};

Result<std::shared_ptr<const CounterApi>> resolveCounterApi(void* library,
                                                            const std::string& path) {
  auto api = std::make_shared<CounterApi>();
  std::string missing;
  auto resolve = [&](auto& fn, const char* name) {
    fn = reinterpret_cast<std::decay_t<decltype(fn)>>(dlsym(library, name));
    if (!fn && missing.empty()) missing = name;
  };
  resolve(api->resultString, "cuptiGetResultString");
  resolve(api->deviceId, "cuptiGetDeviceId");
  resolve(api->chipName, "cuptiDeviceGetChipName");
  resolve(api->profilerInitialize, "cuptiProfilerInitialize");
  resolve(api->counterAvailability, "cuptiProfilerGetCounterAvailability");
  resolve(api->hostInitialize, "cuptiProfilerHostInitialize");
  resolve(api->hostDeinitialize, "cuptiProfilerHostDeinitialize");
  resolve(api->metricProperties, "cuptiProfilerHostGetMetricProperties");
  resolve(api->configAddMetrics, "cuptiProfilerHostConfigAddMetrics");
  resolve(api->configImageSize, "cuptiProfilerHostGetConfigImageSize");
  resolve(api->configImage, "cuptiProfilerHostGetConfigImage");
  resolve(api->evaluate, "cuptiProfilerHostEvaluateToGpuValues");
  resolve(api->enable, "cuptiRangeProfilerEnable");
  resolve(api->counterDataSize, "cuptiRangeProfilerGetCounterDataSize");
  resolve(api->counterDataInitialize, "cuptiRangeProfilerCounterDataImageInitialize");
  resolve(api->setConfig, "cuptiRangeProfilerSetConfig");
  resolve(api->start, "cuptiRangeProfilerStart");
  resolve(api->stop, "cuptiRangeProfilerStop");
  resolve(api->decode, "cuptiRangeProfilerDecodeData");
  resolve(api->counterDataInfo, "cuptiRangeProfilerGetCounterDataInfo");
  if (!missing.empty()) {
    return Error("CUPTI at " + path + " lacks " + missing +
                 ": the range profiler needs CUPTI 12.6 or later");
  }
  return std::shared_ptr<const CounterApi>(std::move(api));
}

// --- Host -----------------------------------------------------------------------

Result<std::unique_ptr<CounterHost>> CounterHost::create(std::shared_ptr<const CounterApi> api,
                                                         const std::string& chip,
                                                         const std::vector<uint8_t>& availability,
                                                         const CounterSelection& selection) {
  std::unique_ptr<CounterHost> host(new CounterHost());
  host->api_ = std::move(api);
  host->chip_ = chip;
  const CounterApi& a = *host->api_;
  CUpti_Profiler_Host_Initialize_Params init{
      CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};  // NOLINT(bugprone-sizeof-expression)
  init.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  init.pChipName = chip.c_str();
  init.pCounterAvailabilityImage = availability.empty() ? nullptr : availability.data();
  if (CUptiResult r = a.hostInitialize(&init); r != CUPTI_SUCCESS) {
    return Error("cuptiProfilerHostInitialize for chip " + chip + " failed with " + a.text(r));
  }
  host->host_object_ = init.pHostObject;
  for (size_t i = 0; i < kMetricCount; ++i) {
    const auto metric = static_cast<Metric>(i);
    if (!metricWanted(selection, metric)) continue;
    CUpti_Profiler_Host_GetMetricProperties_Params p{
        CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE};
    p.pHostObject = init.pHostObject;
    p.pMetricName = metricName(metric);
    if (a.metricProperties(&p) == CUPTI_SUCCESS) {
      host->names_.push_back(metricName(metric));
      host->collected_.push_back(metric);
    } else {
      host->missing_.emplace_back(metricName(metric));
    }
  }
  if (host->names_.empty()) {
    return Error("chip " + chip + " knows none of the metrics of --counters " +
                 counterListText(selection));
  }
  CUpti_Profiler_Host_ConfigAddMetrics_Params add{
      CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
  add.pHostObject = init.pHostObject;
  add.ppMetricNames = host->names_.data();
  add.numMetrics = host->names_.size();
  if (CUptiResult r = a.configAddMetrics(&add); r != CUPTI_SUCCESS) {
    return Error("cuptiProfilerHostConfigAddMetrics for chip " + chip + " failed with " +
                 a.text(r));
  }
  CUpti_Profiler_Host_GetConfigImageSize_Params size{
      CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
  size.pHostObject = init.pHostObject;
  if (CUptiResult r = a.configImageSize(&size); r != CUPTI_SUCCESS || size.configImageSize == 0) {
    return Error("cuptiProfilerHostGetConfigImageSize for chip " + chip + " failed with " +
                 a.text(r));
  }
  host->config_image_.resize(size.configImageSize);
  CUpti_Profiler_Host_GetConfigImage_Params image{
      CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
  image.pHostObject = init.pHostObject;
  image.configImageSize = host->config_image_.size();
  image.pConfigImage = host->config_image_.data();
  if (CUptiResult r = a.configImage(&image); r != CUPTI_SUCCESS) {
    return Error("cuptiProfilerHostGetConfigImage for chip " + chip + " failed with " + a.text(r));
  }
  host->scratch_.resize(host->names_.size());
  return host;
}

CounterHost::~CounterHost() {
  if (!host_object_) return;
  CUpti_Profiler_Host_Deinitialize_Params p{
      CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};  // NOLINT(bugprone-sizeof-expression)
  p.pHostObject = static_cast<CUpti_Profiler_Host_Object*>(host_object_);
  (void)api_->hostDeinitialize(&p);
}

int CounterHost::evaluate(const uint8_t* image, size_t image_bytes, size_t range,
                          MetricValues* out) const {
  CUpti_Profiler_Host_EvaluateToGpuValues_Params p{
      CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
  p.pHostObject = static_cast<CUpti_Profiler_Host_Object*>(host_object_);
  p.pCounterDataImage = image;
  p.counterDataImageSize = image_bytes;
  p.rangeIndex = range;
  // CUPTI reads the names through a non-const pointer; it does not write them.
  p.ppMetricNames = const_cast<const char**>(names_.data());
  p.numMetrics = names_.size();
  p.pMetricValues = scratch_.data();
  const CUptiResult r = api_->evaluate(&p);
  out->fill(std::numeric_limits<double>::quiet_NaN());
  if (r != CUPTI_SUCCESS) return r;
  for (size_t i = 0; i < collected_.size(); ++i) {
    (*out)[static_cast<size_t>(collected_[i])] = scratch_[i];
  }
  return CUPTI_SUCCESS;
}

// --- Session ----------------------------------------------------------------------

struct CounterSession::Context {
  CUcontext ctx = nullptr;
  CUpti_RangeProfiler_Object* object = nullptr;
  std::unique_ptr<CounterHost> host;
  std::vector<uint8_t> counter_data;
  bool unusable = false;  // its set-up failed; its launches are not measured
};

namespace {

int64_t monotonicNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

int64_t threadId() {
  return static_cast<int64_t>(::syscall(SYS_gettid));
}

// Launch calls, runtime and driver, that start one kernel on the host's
// behalf (cupti_runtime_cbid.h, cupti_driver_cbid.h, CUDA 13.0). Graph
// launches (many kernels under one call) are not measured.
constexpr uint32_t kRuntimeLaunches[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000,
};
constexpr uint32_t kDriverLaunches[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
};

}  // namespace

bool CounterSession::OnceText::set(std::string value) {
  int expected = 0;
  if (!state.compare_exchange_strong(expected, 1, std::memory_order_acq_rel)) return false;
  text = std::move(value);
  state.store(2, std::memory_order_release);
  return true;
}

std::string CounterSession::OnceText::get() const {
  return state.load(std::memory_order_acquire) == 2 ? text : std::string();
}

Result<std::unique_ptr<CounterSession>> CounterSession::create(void* library,
                                                               const std::string& path,
                                                               const CounterSelection& selection) {
  DAMSCOPE_ASSIGN_OR_RETURN(std::shared_ptr<const CounterApi> api,
                            resolveCounterApi(library, path));
  std::unique_ptr<CounterSession> s(new CounterSession());
  s->api_ = std::move(api);
  s->selection_ = selection;
  s->contexts_ = std::make_unique<Context[]>(kContexts);
  s->ring_ = std::make_unique<MeasuredLaunch[]>(kRing);
  return s;
}

// Profiler objects stay: the session lives as long as the process's
// collector, and disabling needs each context alive.
CounterSession::~CounterSession() = default;

std::vector<std::pair<uint32_t, uint32_t>> CounterSession::launchCallbacks() {
  std::vector<std::pair<uint32_t, uint32_t>> ids;
  for (uint32_t cbid : kRuntimeLaunches) ids.emplace_back(CUPTI_CB_DOMAIN_RUNTIME_API, cbid);
  for (uint32_t cbid : kDriverLaunches) ids.emplace_back(CUPTI_CB_DOMAIN_DRIVER_API, cbid);
  return ids;
}

void CounterSession::onCallback(uint32_t domain, uint32_t /*cbid*/, const void* data) noexcept {
  try {
    if (failed_.load(std::memory_order_relaxed) && owner_.load() == 0) return;
    const auto* cb = static_cast<const CUpti_CallbackData*>(data);
    if (cb->callbackSite == CUPTI_API_ENTER) {
      enter(domain, data);
    } else {
      exit(domain, data);
    }
  } catch (...) {
    fail("an internal error (exception)", CUPTI_ERROR_UNKNOWN);
  }
}

void CounterSession::enter(uint32_t domain, const void* data) {
  const auto* cb = static_cast<const CUpti_CallbackData*>(data);
  const int64_t tid = threadId();
  if (owner_.load(std::memory_order_acquire) != tid) {
    int64_t none = 0;
    if (!owner_.compare_exchange_strong(none, tid, std::memory_order_acq_rel)) {
      // Counted once per launch, at the driver call, which every launch makes.
      if (domain == CUPTI_CB_DOMAIN_DRIVER_API) busy_.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    opened_by_runtime_ = domain == CUPTI_CB_DOMAIN_RUNTIME_API;
    correlation_ = cb->correlationId;
    running_ = nullptr;
  }
  // The runtime call only opens the bracket; its driver call measures.
  if (domain != CUPTI_CB_DOMAIN_DRIVER_API || running_ || failed_.load()) return;
  Context* c = contextFor(cb->context);
  if (!c) return;
  CUpti_RangeProfiler_Start_Params start{
      CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};  // NOLINT(bugprone-sizeof-expression)
  start.pRangeProfilerObject = c->object;
  if (CUptiResult r = api_->start(&start); r != CUPTI_SUCCESS) {
    fail("cuptiRangeProfilerStart", r);
    return;
  }
  running_ = c;
  started_mono_ns_ = monotonicNs();
}

void CounterSession::exit(uint32_t domain, const void* data) {
  const auto* cb = static_cast<const CUpti_CallbackData*>(data);
  if (owner_.load(std::memory_order_acquire) != threadId()) return;
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API && running_) measureExit();
  const bool closes = opened_by_runtime_ == (domain == CUPTI_CB_DOMAIN_RUNTIME_API) &&
                      (domain == CUPTI_CB_DOMAIN_DRIVER_API || cb->correlationId == correlation_);
  if (closes) {
    running_ = nullptr;
    owner_.store(0, std::memory_order_release);
  }
}

void CounterSession::measureExit() {
  Context& c = *running_;
  running_ = nullptr;
  CUpti_RangeProfiler_Stop_Params stop{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
  stop.pRangeProfilerObject = c.object;
  if (CUptiResult r = api_->stop(&stop); r != CUPTI_SUCCESS)
    return fail("cuptiRangeProfilerStop", r);
  CUpti_RangeProfiler_DecodeData_Params decode{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
  decode.pRangeProfilerObject = c.object;
  if (CUptiResult r = api_->decode(&decode); r != CUPTI_SUCCESS) {
    return fail("cuptiRangeProfilerDecodeData", r);
  }
  ranges_dropped_.fetch_add(static_cast<int64_t>(decode.numOfRangeDropped),
                            std::memory_order_relaxed);
  CUpti_RangeProfiler_GetCounterDataInfo_Params info{
      CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
  info.pCounterDataImage = c.counter_data.data();
  info.counterDataImageSize = c.counter_data.size();
  if (CUptiResult r = api_->counterDataInfo(&info); r != CUPTI_SUCCESS) {
    return fail("cuptiRangeProfilerGetCounterDataInfo", r);
  }
  // One launch, one kernel: auto range gives it range 0. A launch that ran
  // no kernel (an error) has no range.
  if (info.numTotalRanges >= 1) {
    const uint64_t head = head_.load(std::memory_order_relaxed);
    if (head - tail_.load(std::memory_order_acquire) >= kRing) {
      ring_full_.fetch_add(1, std::memory_order_relaxed);
    } else {
      MeasuredLaunch& m = ring_[head % kRing];
      m.correlation_id = correlation_;
      if (int r = c.host->evaluate(c.counter_data.data(), c.counter_data.size(), 0, &m.values);
          r != CUPTI_SUCCESS) {
        return fail("cuptiProfilerHostEvaluateToGpuValues", r);
      }
      head_.store(head + 1, std::memory_order_release);
      measured_.fetch_add(1, std::memory_order_relaxed);
    }
  }
  // "This can also be used to reset the counter data image" (cupti_range_profiler.h).
  CUpti_RangeProfiler_CounterDataImage_Initialize_Params reset{
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
  reset.pRangeProfilerObject = c.object;
  reset.counterDataSize = c.counter_data.size();
  reset.pCounterData = c.counter_data.data();
  if (CUptiResult r = api_->counterDataInitialize(&reset); r != CUPTI_SUCCESS) {
    return fail("cuptiRangeProfilerCounterDataImageInitialize", r);
  }
  measured_ns_.fetch_add(monotonicNs() - started_mono_ns_, std::memory_order_relaxed);
}

CounterSession::Context* CounterSession::contextFor(void* ctx) {
  Context* empty = nullptr;
  for (size_t i = 0; i < kContexts; ++i) {
    Context& c = contexts_[i];
    if (c.ctx == ctx) return c.unusable ? nullptr : &c;
    if (!c.ctx && !empty) empty = &c;
  }
  if (!empty) return nullptr;  // beyond kContexts contexts: not measured
  empty->ctx = static_cast<CUcontext>(ctx);
  if (!setUp(*empty, ctx)) {
    empty->unusable = true;
    return nullptr;
  }
  return empty;
}

bool CounterSession::setUp(Context& c, void* ctx) {
  const CounterApi& a = *api_;
  auto failed = [&](const char* call, CUptiResult r) {
    fail(call, r);
    return false;
  };
  if (!profiler_initialized_) {
    CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    if (CUptiResult r = a.profilerInitialize(&init); r != CUPTI_SUCCESS) {
      return failed("cuptiProfilerInitialize", r);
    }
    profiler_initialized_ = true;
  }
  uint32_t device = 0;
  if (CUptiResult r = a.deviceId(c.ctx, &device); r != CUPTI_SUCCESS) {
    return failed("cuptiGetDeviceId", r);
  }
  CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  chip.deviceIndex = device;
  if (CUptiResult r = a.chipName(&chip); r != CUPTI_SUCCESS || !chip.pChipName) {
    return failed("cuptiDeviceGetChipName", r);
  }
  CUpti_Profiler_GetCounterAvailability_Params avail{
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
  avail.ctx = c.ctx;
  if (CUptiResult r = a.counterAvailability(&avail); r != CUPTI_SUCCESS) {
    return failed("cuptiProfilerGetCounterAvailability", r);
  }
  std::vector<uint8_t> availability(avail.counterAvailabilityImageSize);
  avail.pCounterAvailabilityImage = availability.data();
  if (CUptiResult r = a.counterAvailability(&avail); r != CUPTI_SUCCESS) {
    return failed("cuptiProfilerGetCounterAvailability", r);
  }
  Result<std::unique_ptr<CounterHost>> host =
      CounterHost::create(api_, chip.pChipName, availability, selection_);
  if (!host.ok()) {
    failure_.set(host.error().message());
    failed_.store(true);
    return false;
  }
  c.host = std::move(host).value();
  std::string note = c.host->chip();
  for (size_t i = 0; i < c.host->missing().size(); ++i) {
    note += (i == 0 ? " (lacks " : ", ") + c.host->missing()[i];
  }
  if (!c.host->missing().empty()) note += ")";
  chip_note_.set(note);

  CUpti_RangeProfiler_Enable_Params enable{
      CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};  // NOLINT(bugprone-sizeof-expression)
  enable.ctx = static_cast<CUcontext>(ctx);
  if (CUptiResult r = a.enable(&enable); r != CUPTI_SUCCESS) {
    return failed("cuptiRangeProfilerEnable", r);
  }
  c.object = enable.pRangeProfilerObject;
  // One range per launch: the bracket holds one kernel (auto range).
  CUpti_RangeProfiler_GetCounterDataSize_Params size{
      CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
  size.pRangeProfilerObject = c.object;
  size.pMetricNames = const_cast<const char**>(c.host->names().data());
  size.numMetrics = c.host->names().size();
  size.maxNumOfRanges = 1;
  size.maxNumRangeTreeNodes = 1;
  if (CUptiResult r = a.counterDataSize(&size); r != CUPTI_SUCCESS) {
    return failed("cuptiRangeProfilerGetCounterDataSize", r);
  }
  c.counter_data.resize(size.counterDataSize);
  CUpti_RangeProfiler_CounterDataImage_Initialize_Params init{
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
  init.pRangeProfilerObject = c.object;
  init.counterDataSize = c.counter_data.size();
  init.pCounterData = c.counter_data.data();
  if (CUptiResult r = a.counterDataInitialize(&init); r != CUPTI_SUCCESS) {
    return failed("cuptiRangeProfilerCounterDataImageInitialize", r);
  }
  CUpti_RangeProfiler_SetConfig_Params config{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
  config.pRangeProfilerObject = c.object;
  config.configSize = c.host->configImage().size();
  config.pConfig = c.host->configImage().data();
  config.counterDataImageSize = c.counter_data.size();
  config.pCounterDataImage = c.counter_data.data();
  config.range = CUPTI_AutoRange;
  // Kernel replay "is only supported in Auto Range Mode"; CUPTI replays
  // each kernel itself, so every Stop reports all passes submitted.
  config.replayMode = CUPTI_KernelReplay;
  config.maxRangesPerPass = 1;
  config.numNestingLevels = 1;  // "For Auto range mode, this should be set to 1"
  config.minNestingLevel = 1;
  config.passIndex = 0;
  config.targetNestingLevel = 1;
  if (CUptiResult r = a.setConfig(&config); r != CUPTI_SUCCESS) {
    return failed("cuptiRangeProfilerSetConfig", r);
  }
  return true;
}

void CounterSession::fail(const char* call, int result) {
  failure_.set(std::string(call) + " failed with " + api_->text(result));
  failed_.store(true);
}

void CounterSession::take(std::vector<MeasuredLaunch>& out) {
  const uint64_t head = head_.load(std::memory_order_acquire);
  uint64_t tail = tail_.load(std::memory_order_relaxed);
  for (; tail != head; ++tail) out.push_back(ring_[tail % kRing]);
  tail_.store(tail, std::memory_order_release);
}

CounterSession::Counts CounterSession::counts() const {
  Counts c;
  c.measured = measured_.load();
  c.measured_ns = measured_ns_.load();
  c.busy = busy_.load();
  c.ring_full = ring_full_.load();
  c.ranges_dropped = ranges_dropped_.load();
  return c;
}

std::string CounterSession::failure() const {
  return failure_.get();
}
std::string CounterSession::chipNote() const {
  return chip_note_.get();
}

}  // namespace damscope::collector
