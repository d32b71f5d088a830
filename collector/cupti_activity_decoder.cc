// Decoding of CUPTI 13 activity records: see cupti_activity_decoder.h.
// Field meanings and units are those documented in cupti_activity.h.
#include "collector/cupti_activity_decoder.h"

#include <cupti_activity.h>

#include <cstring>

namespace damscope::collector {
namespace {

// The record structs this build reads. A CUPTI release that changes one of
// them also changes its name (Kernel9 -> Kernel10), so a size check here
// catches a header update that needs this file reviewed.
static_assert(sizeof(CUpti_ActivityKernel10) == 216);
static_assert(sizeof(CUpti_ActivityMemcpy6) == 96);
static_assert(sizeof(CUpti_ActivityMemcpyPtoP4) == 96);
static_assert(sizeof(CUpti_ActivityMemset4) == 88);
static_assert(sizeof(CUpti_ActivityAPI) == 40);
static_assert(sizeof(CUpti_ActivitySynchronization2) == 56);
static_assert(sizeof(CUpti_ActivityExternalCorrelation) == 24);
static_assert(sizeof(CUpti_ActivityOverhead3) == 56);
static_assert(sizeof(CUpti_ActivityDevice5) == 184);
static_assert(sizeof(CUpti_ActivityContext3) == 32);

void decodeKernel(const CUpti_ActivityKernel10& r, ActivitySink& sink) {
  KernelActivity a;
  a.start_ns = r.start;
  a.end_ns = r.end;
  a.device = r.deviceId;
  a.context = r.contextId;
  a.stream = r.streamId;
  a.correlation_id = r.correlationId;
  a.grid[0] = r.gridX, a.grid[1] = r.gridY, a.grid[2] = r.gridZ;
  a.block[0] = r.blockX, a.block[1] = r.blockY, a.block[2] = r.blockZ;
  a.cluster[0] = r.clusterX, a.cluster[1] = r.clusterY, a.cluster[2] = r.clusterZ;
  a.registers_per_thread = r.registersPerThread;
  a.static_shared_memory_bytes = r.staticSharedMemory;
  a.dynamic_shared_memory_bytes = r.dynamicSharedMemory;
  a.graph_id = r.graphId;
  a.graph_node_id = r.graphNodeId;
  a.launch_type = r.launchType;
  a.device_launched = r.isDeviceLaunched != 0;
  a.name = r.name;
  sink.onKernel(a);
}

void decodeMemcpy(const CUpti_ActivityMemcpy6& r, ActivitySink& sink) {
  MemcpyActivity a;
  a.start_ns = r.start;
  a.end_ns = r.end;
  a.device = r.deviceId;
  a.context = r.contextId;
  a.stream = r.streamId;
  a.correlation_id = r.correlationId;
  a.runtime_correlation_id = r.runtimeCorrelationId;
  a.copy_kind = r.copyKind;
  a.src_kind = r.srcKind;
  a.dst_kind = r.dstKind;
  a.bytes = r.bytes;
  a.graph_node_id = r.graphNodeId;
  a.copy_count = r.copyCount;
  sink.onMemcpy(a);
}

void decodePeerCopy(const CUpti_ActivityMemcpyPtoP4& r, ActivitySink& sink) {
  MemcpyActivity a;
  a.start_ns = r.start;
  a.end_ns = r.end;
  a.device = r.deviceId;
  a.context = r.contextId;
  a.stream = r.streamId;
  a.correlation_id = r.correlationId;
  a.copy_kind = r.copyKind;
  a.src_kind = r.srcKind;
  a.dst_kind = r.dstKind;
  a.bytes = r.bytes;
  a.peer_to_peer = true;
  a.src_device = r.srcDeviceId;
  a.dst_device = r.dstDeviceId;
  a.graph_node_id = r.graphNodeId;
  sink.onMemcpy(a);
}

void decodeMemset(const CUpti_ActivityMemset4& r, ActivitySink& sink) {
  MemsetActivity a;
  a.start_ns = r.start;
  a.end_ns = r.end;
  a.device = r.deviceId;
  a.context = r.contextId;
  a.stream = r.streamId;
  a.correlation_id = r.correlationId;
  a.memory_kind = r.memoryKind;
  a.bytes = r.bytes;
  a.value = r.value;
  a.graph_node_id = r.graphNodeId;
  sink.onMemset(a);
}

void decodeApi(const CUpti_ActivityAPI& r, ActivitySink& sink) {
  ApiActivity a;
  a.driver = r.kind == CUPTI_ACTIVITY_KIND_DRIVER;
  a.cbid = r.cbid;
  a.start_ns = r.start;
  a.end_ns = r.end;
  a.pid = r.processId;
  a.tid = r.threadId;
  a.correlation_id = r.correlationId;
  a.return_value = r.returnValue;
  sink.onApi(a);
}

void decodeSync(const CUpti_ActivitySynchronization2& r, ActivitySink& sink) {
  static_assert(SyncActivity::kNotApplicable == CUPTI_SYNCHRONIZATION_INVALID_VALUE);
  SyncActivity a;
  a.type = static_cast<uint32_t>(r.type);
  a.start_ns = r.start;
  a.end_ns = r.end;
  a.correlation_id = r.correlationId;
  a.context = r.contextId;
  a.stream = r.streamId;
  a.cuda_event_id = r.cudaEventId;
  a.return_value = r.returnValue;
  sink.onSync(a);
}

void decodeExternalCorrelation(const CUpti_ActivityExternalCorrelation& r, ActivitySink& sink) {
  ExternalCorrelationActivity a;
  a.external_kind = static_cast<uint32_t>(r.externalKind);
  a.external_id = r.externalId;
  a.correlation_id = r.correlationId;
  sink.onExternalCorrelation(a);
}

void decodeOverhead(const CUpti_ActivityOverhead3& r, ActivitySink& sink) {
  OverheadActivity a;
  a.overhead_kind = static_cast<uint32_t>(r.overheadKind);
  a.name = overheadKindName(a.overhead_kind);
  switch (r.objectKind) {
    case CUPTI_ACTIVITY_OBJECT_PROCESS:
    case CUPTI_ACTIVITY_OBJECT_THREAD:
      a.on_thread = r.objectKind == CUPTI_ACTIVITY_OBJECT_THREAD;
      a.pid = r.objectId.pt.processId;
      a.tid = r.objectId.pt.threadId;
      break;
    case CUPTI_ACTIVITY_OBJECT_DEVICE:
    case CUPTI_ACTIVITY_OBJECT_CONTEXT:
    case CUPTI_ACTIVITY_OBJECT_STREAM:
      a.on_device = true;
      a.device = r.objectId.dcs.deviceId;
      a.context = r.objectId.dcs.contextId;
      a.stream = r.objectId.dcs.streamId;
      break;
    default:
      break;
  }
  a.start_ns = r.start;
  a.end_ns = r.end;
  a.correlation_id = r.correlationId;
  sink.onOverhead(a);
}

void decodeDevice(const CUpti_ActivityDevice5& r, ActivitySink& sink) {
  DeviceActivity a;
  a.device = r.id;
  a.name = r.name ? r.name : "";
  a.memory_bytes = r.globalMemorySize;
  // cupti_activity.h: globalMemoryBandwidth is in KBytes/sec, coreClockRate in kHz.
  a.memory_bandwidth_bytes_per_s = static_cast<double>(r.globalMemoryBandwidth) * 1000.0;
  a.sm_clock_hz = static_cast<uint64_t>(r.coreClockRate) * 1000;
  a.sm_count = r.numMultiprocessors;
  a.compute_major = r.computeCapabilityMajor;
  a.compute_minor = r.computeCapabilityMinor;
  a.warp_size = r.numThreadsPerWarp;
  a.max_threads_per_block = r.maxThreadsPerBlock;
  a.max_warps_per_sm = r.maxWarpsPerMultiprocessor;
  a.max_blocks_per_sm = r.maxBlocksPerMultiprocessor;
  a.registers_per_block = r.maxRegistersPerBlock;
  a.registers_per_sm = r.maxRegistersPerMultiprocessor;
  a.shared_memory_per_block_bytes = r.maxSharedMemoryPerBlock;
  a.shared_memory_per_sm_bytes = r.maxSharedMemoryPerMultiprocessor;
  a.l2_cache_bytes = r.l2CacheSize;
  static_assert(sizeof(r.uuid.bytes) == sizeof(a.uuid));
  std::memcpy(a.uuid, r.uuid.bytes, sizeof(a.uuid));
  sink.onDevice(a);
}

}  // namespace

uint32_t activityRecordKind(const void* record) noexcept {
  return static_cast<uint32_t>(static_cast<const CUpti_Activity*>(record)->kind);
}

void decodeActivityRecord(const void* record, ActivitySink& sink) noexcept {
  const auto* base = static_cast<const CUpti_Activity*>(record);
  switch (base->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      return decodeKernel(*static_cast<const CUpti_ActivityKernel10*>(record), sink);
    case CUPTI_ACTIVITY_KIND_MEMCPY:
      return decodeMemcpy(*static_cast<const CUpti_ActivityMemcpy6*>(record), sink);
    case CUPTI_ACTIVITY_KIND_MEMCPY2:
      return decodePeerCopy(*static_cast<const CUpti_ActivityMemcpyPtoP4*>(record), sink);
    case CUPTI_ACTIVITY_KIND_MEMSET:
      return decodeMemset(*static_cast<const CUpti_ActivityMemset4*>(record), sink);
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER:
      return decodeApi(*static_cast<const CUpti_ActivityAPI*>(record), sink);
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
      return decodeSync(*static_cast<const CUpti_ActivitySynchronization2*>(record), sink);
    case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION:
      return decodeExternalCorrelation(
          *static_cast<const CUpti_ActivityExternalCorrelation*>(record), sink);
    case CUPTI_ACTIVITY_KIND_OVERHEAD:
      return decodeOverhead(*static_cast<const CUpti_ActivityOverhead3*>(record), sink);
    case CUPTI_ACTIVITY_KIND_DEVICE:
      return decodeDevice(*static_cast<const CUpti_ActivityDevice5*>(record), sink);
    case CUPTI_ACTIVITY_KIND_CONTEXT: {
      const auto& r = *static_cast<const CUpti_ActivityContext3*>(record);
      return sink.onContext(ContextActivity{r.contextId, r.deviceId});
    }
    default:
      return sink.onUnknownKind(static_cast<uint32_t>(base->kind));
  }
}

size_t packedRecordSize(uint32_t kind) noexcept {
  switch (static_cast<CUpti_ActivityKind>(kind)) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      return sizeof(CUpti_ActivityKernel10);
    case CUPTI_ACTIVITY_KIND_MEMCPY:
      return sizeof(CUpti_ActivityMemcpy6);
    case CUPTI_ACTIVITY_KIND_MEMCPY2:
      return sizeof(CUpti_ActivityMemcpyPtoP4);
    case CUPTI_ACTIVITY_KIND_MEMSET:
      return sizeof(CUpti_ActivityMemset4);
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER:
      return sizeof(CUpti_ActivityAPI);
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
      return sizeof(CUpti_ActivitySynchronization2);
    case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION:
      return sizeof(CUpti_ActivityExternalCorrelation);
    case CUPTI_ACTIVITY_KIND_OVERHEAD:
      return sizeof(CUpti_ActivityOverhead3);
    case CUPTI_ACTIVITY_KIND_DEVICE:
      return sizeof(CUpti_ActivityDevice5);
    case CUPTI_ACTIVITY_KIND_CONTEXT:
      return sizeof(CUpti_ActivityContext3);
    default:
      return 0;
  }
}

const void* PackedRecordWalker::next() noexcept {
  if (stopped_early_ || offset_ + sizeof(CUpti_Activity) > valid_bytes_) return nullptr;
  const uint8_t* at = buffer_ + offset_;
  const size_t size = packedRecordSize(activityRecordKind(at));
  if (size == 0 || offset_ + size > valid_bytes_) {
    stopped_early_ = true;
    return nullptr;
  }
  offset_ += size;
  return at;
}

size_t decodePackedBuffer(const uint8_t* buffer, size_t valid_bytes, ActivitySink& sink,
                          size_t* unreadable_bytes) noexcept {
  PackedRecordWalker walker(buffer, valid_bytes);
  size_t records = 0;
  while (const void* record = walker.next()) {
    decodeActivityRecord(record, sink);
    ++records;
  }
  if (walker.stoppedEarly()) {
    // The kind is readable even when the size is not: report it once.
    sink.onUnknownKind(activityRecordKind(buffer + (valid_bytes - walker.remainingBytes())));
  }
  if (unreadable_bytes) *unreadable_bytes = walker.stoppedEarly() ? walker.remainingBytes() : 0;
  return records;
}

const char* overheadKindName(uint32_t overhead_kind) noexcept {
  switch (static_cast<CUpti_ActivityOverheadKind>(overhead_kind)) {
    case CUPTI_ACTIVITY_OVERHEAD_UNKNOWN:
      return "unknown";
    case CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER:
      return "driver_compiler";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH:
      return "cupti_buffer_flush";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION:
      return "cupti_instrumentation";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE:
      return "cupti_resource";
    case CUPTI_ACTIVITY_OVERHEAD_RUNTIME_TRIGGERED_MODULE_LOADING:
      return "runtime_triggered_module_loading";
    case CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING:
      return "lazy_function_loading";
    case CUPTI_ACTIVITY_OVERHEAD_COMMAND_BUFFER_FULL:
      return "command_buffer_full";
    case CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST:
      return "activity_buffer_request";
    case CUPTI_ACTIVITY_OVERHEAD_UVM_ACTIVITY_INIT:
      return "uvm_activity_init";
    default:
      return nullptr;
  }
}

}  // namespace damscope::collector
