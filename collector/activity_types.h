// The neutral GPU activity model: what the collector keeps of each CUPTI
// activity record, in plain structs that carry no CUPTI type. The decoder
// (cupti_activity_decoder.cc, the one place that reads CUPTI records) fills
// them and hands them to an ActivitySink; the sink turns them into trace rows.
// Tests drive sinks with these structs or, through the decoder, with real
// CUPTI records built in memory.
//
// Times are CUPTI timestamps in ns, unconverted (the sink applies the clock
// offset); 0 means CUPTI could not collect the time (CUPTI_TIMESTAMP_UNKNOWN).
// Ids are CUPTI's: correlation ids, context ids, stream ids, device ordinals.
// Strings are borrowed from the record and valid only during the call.
#pragma once

#include <cstdint>

namespace damscope::collector {

struct KernelActivity {
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  uint32_t device = 0;
  uint32_t context = 0;
  uint32_t stream = 0;
  uint32_t correlation_id = 0;
  int32_t grid[3] = {0, 0, 0};
  int32_t block[3] = {0, 0, 0};
  uint32_t cluster[3] = {0, 0, 0};  // 0 or 1 in every dimension: no cluster
  uint16_t registers_per_thread = 0;
  int32_t static_shared_memory_bytes = 0;
  int32_t dynamic_shared_memory_bytes = 0;
  uint64_t graph_id = 0;  // 0: not launched from a graph
  uint64_t graph_node_id = 0;
  uint8_t launch_type = 0;  // CUpti_ActivityLaunchType: 0 regular, 1/2 cooperative, 3 CBL
  bool device_launched = false;
  const char* name = nullptr;  // mangled; owned by CUPTI, stable for the kernel's lifetime
};

// MEMCPY (CUpti_ActivityMemcpy6) and MEMCPY2 (peer-to-peer, CUpti_ActivityMemcpyPtoP4).
struct MemcpyActivity {
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  uint32_t device = 0;
  uint32_t context = 0;
  uint32_t stream = 0;
  // CUPTI documents a copy's correlationId as its driver API call's and
  // runtimeCorrelationId as its runtime API call's (cupti_activity.h,
  // CUpti_ActivityMemcpy6); peer-to-peer records carry only the first.
  uint32_t correlation_id = 0;
  uint32_t runtime_correlation_id = 0;
  uint8_t copy_kind = 0;  // CUpti_ActivityMemcpyKind
  uint8_t src_kind = 0;   // CUpti_ActivityMemoryKind
  uint8_t dst_kind = 0;
  uint64_t bytes = 0;
  bool peer_to_peer = false;  // src_device/dst_device are meaningful
  uint32_t src_device = 0;
  uint32_t dst_device = 0;
  uint64_t graph_node_id = 0;
  uint64_t copy_count = 1;  // > 1: several copies of one cudaMemcpyBatchAsync
};

struct MemsetActivity {
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  uint32_t device = 0;
  uint32_t context = 0;
  uint32_t stream = 0;
  uint32_t correlation_id = 0;
  uint16_t memory_kind = 0;  // CUpti_ActivityMemoryKind
  uint64_t bytes = 0;
  uint32_t value = 0;
  uint64_t graph_node_id = 0;
};

// RUNTIME and DRIVER records (CUpti_ActivityAPI).
struct ApiActivity {
  bool driver = false;  // false: runtime API
  uint32_t cbid = 0;    // CUpti_runtime_api_trace_cbid / CUpti_driver_api_trace_cbid
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  uint32_t pid = 0;
  uint32_t tid = 0;  // OS thread id (the session selects CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM)
  uint32_t correlation_id = 0;
  uint32_t return_value = 0;  // CUresult or cudaError_t
};

// CUpti_ActivitySynchronization2. kNotApplicable marks fields CUPTI leaves
// unset for the kind of synchronization (CUPTI_SYNCHRONIZATION_INVALID_VALUE).
struct SyncActivity {
  static constexpr uint32_t kNotApplicable = 0xFFFFFFFFu;
  uint32_t type = 0;  // CUpti_ActivitySynchronizationType
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  uint32_t correlation_id = 0;
  uint32_t context = kNotApplicable;
  uint32_t stream = kNotApplicable;
  uint32_t cuda_event_id = kNotApplicable;
  uint32_t return_value = 0;
};

// CUpti_ActivityExternalCorrelation: a framework id (e.g. PyTorch's) pushed
// on the thread around the API call with this correlation id.
struct ExternalCorrelationActivity {
  uint32_t external_kind = 0;  // CUpti_ExternalCorrelationKind
  uint64_t external_id = 0;
  uint32_t correlation_id = 0;
};

// CUpti_ActivityOverhead3: time CUPTI or the driver spent on its own work.
struct OverheadActivity {
  uint32_t overhead_kind = 0;  // CUpti_ActivityOverheadKind
  const char* name =
      nullptr;             // a stable name for the kind ("cupti_buffer_flush"); nullptr: unknown
  bool on_thread = false;  // object is a thread: pid/tid valid
  uint32_t pid = 0;
  uint32_t tid = 0;
  bool on_device = false;  // object is a device/context/stream
  uint32_t device = 0;
  uint32_t context = 0;
  uint32_t stream = 0;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  uint32_t correlation_id = 0;
};

// CUpti_ActivityDevice5, with CUPTI's units converted: bandwidth from KB/s
// to bytes/s, clock from kHz to Hz.
struct DeviceActivity {
  uint32_t device = 0;
  const char* name = "";
  uint64_t memory_bytes = 0;
  double memory_bandwidth_bytes_per_s = 0;
  uint64_t sm_clock_hz = 0;
  uint32_t sm_count = 0;
  uint32_t compute_major = 0;
  uint32_t compute_minor = 0;
  uint32_t warp_size = 0;
  uint32_t max_threads_per_block = 0;
  uint32_t max_warps_per_sm = 0;
  uint32_t max_blocks_per_sm = 0;
  uint32_t registers_per_block = 0;
  uint32_t registers_per_sm = 0;
  uint32_t shared_memory_per_block_bytes = 0;
  uint32_t shared_memory_per_sm_bytes = 0;
  uint32_t l2_cache_bytes = 0;
  uint8_t uuid[16] = {};
};

// CUpti_ActivityContext3: which device a context belongs to.
struct ContextActivity {
  uint32_t context = 0;
  uint32_t device = 0;
};

// Receives decoded records. Implementations must not throw.
class ActivitySink {
 public:
  virtual ~ActivitySink() = default;
  virtual void onKernel(const KernelActivity& a) = 0;
  virtual void onMemcpy(const MemcpyActivity& a) = 0;
  virtual void onMemset(const MemsetActivity& a) = 0;
  virtual void onApi(const ApiActivity& a) = 0;
  virtual void onSync(const SyncActivity& a) = 0;
  virtual void onExternalCorrelation(const ExternalCorrelationActivity& a) = 0;
  virtual void onOverhead(const OverheadActivity& a) = 0;
  virtual void onDevice(const DeviceActivity& a) = 0;
  virtual void onContext(const ContextActivity& a) = 0;
  // A record of a kind the decoder does not read (CUpti_ActivityKind value).
  virtual void onUnknownKind(uint32_t kind) = 0;
};

}  // namespace damscope::collector
