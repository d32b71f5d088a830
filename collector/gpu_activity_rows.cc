// GPU activity -> trace rows: see gpu_activity_rows.h.
#include "collector/gpu_activity_rows.h"

#include <cxxabi.h>

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

#include "collector/api_names.h"

namespace damscope::collector {
namespace {

constexpr int kPendingCommits = 2;

// Kernel names arrive mangled ("_Z10matmul_f32PKfS0_Pfi"); Kineto and Nsight
// Systems show them demangled ("matmul_f32(float const*, ...)"), and so do we.
// extern "C" kernels (many NCCL builds) are not mangled and stay as they are.
std::string demangle(const char* name) {
  int status = 0;
  char* demangled = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  std::string result = (status == 0 && demangled) ? demangled : name;
  std::free(demangled);
  return result;
}

// "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", as nvidia-smi prints device UUIDs.
std::string formatUuid(const uint8_t (&uuid)[16]) {
  bool any = false;
  for (uint8_t b : uuid) any |= b != 0;
  if (!any) return {};
  std::string out = "GPU-";
  char hex[3];
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    std::snprintf(hex, sizeof(hex), "%02x", uuid[i]);
    out += hex;
  }
  return out;
}

int64_t nonZeroOrNull(uint64_t v) {
  return v == 0 || v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())
             ? kNullInt
             : static_cast<int64_t>(v);
}

}  // namespace

GpuActivityRows::GpuActivityRows(CaptureWriter& capture, int64_t clock_offset_ns)
    : capture_(capture), t_(capture.batch()), clock_offset_ns_(clock_offset_ns) {
  overhead_category_ = capture_.intern("cupti_overhead");
}

bool GpuActivityRows::interval(uint64_t start, uint64_t end, int64_t* ts, int64_t* dur) {
  // cupti_activity.h: 0 for start and end means CUPTI could not collect the
  // times (e.g. no device memory for timestamps); such a record has no place
  // on a timeline.
  if (start == 0 || end == 0) {
    capture_.addStat(kStatNoTimestamps, 1,
                     "GPU activity records CUPTI delivered without timestamps; not stored");
    return false;
  }
  constexpr auto kMax = static_cast<uint64_t>(std::numeric_limits<int64_t>::max() / 2);
  if (start > kMax || end > kMax) {
    capture_.addStat(kStatOutOfRange, 1,
                     "values outside the range of their column (timestamps beyond 2^62 ns, "
                     "device ids beyond 2^31); records skipped or values stored as NULL");
    return false;
  }
  *ts = static_cast<int64_t>(start) + clock_offset_ns_;
  if (end < start) {
    capture_.addStat(kStatNegativeDurations, 1,
                     "GPU activity records whose end preceded their start; stored with dur 0");
    *dur = 0;
  } else {
    *dur = static_cast<int64_t>(end - start);
  }
  return true;
}

int32_t GpuActivityRows::device(uint32_t device) {
  if (device > static_cast<uint32_t>(std::numeric_limits<int32_t>::max())) {
    capture_.addStat(kStatOutOfRange, 1,
                     "values outside the range of their column (timestamps beyond 2^62 ns, "
                     "device ids beyond 2^31); records skipped or values stored as NULL");
    return kNullInt32;
  }
  return static_cast<int32_t>(device);
}

StringId GpuActivityRows::kernelName(const char* mangled) {
  if (!mangled) return capture_.intern("<unnamed kernel>");
  auto [it, added] = kernel_names_.try_emplace(mangled, kNoString);
  if (added) it->second = capture_.intern(demangle(mangled));
  return it->second;
}

StringId GpuActivityRows::apiName(bool driver, uint32_t cbid) {
  auto& cache = driver ? driver_names_ : runtime_names_;
  if (cbid < 4096) {
    if (cbid >= cache.size()) cache.resize(cbid + 1, kNoString);
    if (cache[cbid].valid()) return cache[cbid];
  }
  std::string_view name = cudaApiName(driver, cbid);
  std::string fallback;
  if (name.empty()) {
    capture_.addStat(kStatUnknownCbids, 1,
                     "CUDA API records with a callback id this build has no name for; stored "
                     "as cuda_runtime_api_<id> or cuda_driver_api_<id>");
    fallback =
        std::string(driver ? "cuda_driver_api_" : "cuda_runtime_api_") + std::to_string(cbid);
    name = fallback;
  }
  const StringId id = capture_.intern(name);
  if (cbid < cache.size()) cache[cbid] = id;
  return id;
}

int64_t GpuActivityRows::externalIdFor(uint32_t correlation, const char* table, int64_t row_id) {
  if (const uint64_t* external = external_of_correlation_.find(correlation)) {
    return nonZeroOrNull(*external);
  }
  // The external record may still come (it sits in the launching thread's
  // buffer, which CUPTI may deliver after the GPU's).
  if (correlation != 0) {
    pending_.push_back({Need::kExternalId, table, row_id, correlation, kPendingCommits});
  }
  return kNullInt;
}

void GpuActivityRows::onKernel(const KernelActivity& a) {
  KernelTable::Row r;
  if (!interval(a.start_ns, a.end_ns, &r.ts, &r.dur)) return;
  r.device = device(a.device);
  r.stream = a.stream;
  r.correlation_id = a.correlation_id == 0 ? kNullInt : a.correlation_id;
  r.name = kernelName(a.name);
  r.grid_x = a.grid[0], r.grid_y = a.grid[1], r.grid_z = a.grid[2];
  r.block_x = a.block[0], r.block_y = a.block[1], r.block_z = a.block[2];
  r.registers_per_thread = a.registers_per_thread;
  r.shared_memory_bytes =
      static_cast<int64_t>(a.static_shared_memory_bytes) + a.dynamic_shared_memory_bytes;
  r.graph_id = nonZeroOrNull(a.graph_id);
  r.graph_node_id = nonZeroOrNull(a.graph_node_id);
  device_of_context_.emplace(a.context, a.device);
  // Launch facts without a column, only when they are not the default.
  const bool cluster = a.cluster[0] > 1 || a.cluster[1] > 1 || a.cluster[2] > 1;
  if (cluster || a.launch_type != 0 || a.device_launched) {
    std::string args = "{";
    if (cluster) {
      args += "\"cluster\":[" + std::to_string(a.cluster[0]) + "," + std::to_string(a.cluster[1]) +
              "," + std::to_string(a.cluster[2]) + "]";
    }
    if (a.launch_type != 0) {
      // CUpti_ActivityLaunchType.
      static constexpr const char* kLaunchTypes[] = {"regular", "cooperative_single_device",
                                                     "cooperative_multi_device", "cbl_commandlist"};
      if (args.size() > 1) args += ",";
      args += "\"launch_type\":";
      args += a.launch_type < 4 ? "\"" + std::string(kLaunchTypes[a.launch_type]) + "\""
                                : std::to_string(a.launch_type);
    }
    if (a.device_launched)
      args += std::string(args.size() > 1 ? "," : "") + "\"device_launched\":true";
    r.args = args + "}";
  }
  const int64_t id = capture_.nextId(t_.kernels);
  r.external_id = externalIdFor(a.correlation_id, KernelTable::kSqlName, id);
  t_.kernels.append(r);
  if (kernel_observer_ && a.correlation_id != 0) kernel_observer_(a.correlation_id, id);
}

void GpuActivityRows::onMemcpy(const MemcpyActivity& a) {
  MemcpyTable::Row r;
  if (!interval(a.start_ns, a.end_ns, &r.ts, &r.dur)) return;
  r.device = device(a.device);
  r.stream = a.stream;
  const uint32_t correlation = a.correlation_id != 0 ? a.correlation_id : a.runtime_correlation_id;
  r.correlation_id = correlation == 0 ? kNullInt : correlation;
  r.copy_kind = copyKindFromCupti(a.copy_kind);
  r.src_kind = memoryKindFromCupti(a.src_kind);
  r.dst_kind = memoryKindFromCupti(a.dst_kind);
  r.bytes = static_cast<int64_t>(a.bytes);
  if (a.peer_to_peer) {
    r.src_device = device(a.src_device);
    r.dst_device = device(a.dst_device);
  }
  r.graph_node_id = nonZeroOrNull(a.graph_node_id);
  device_of_context_.emplace(a.context, a.device);
  const int64_t id = capture_.nextId(t_.memcpys);
  r.external_id = externalIdFor(correlation, MemcpyTable::kSqlName, id);
  t_.memcpys.append(r);
}

void GpuActivityRows::onMemset(const MemsetActivity& a) {
  MemsetTable::Row r;
  if (!interval(a.start_ns, a.end_ns, &r.ts, &r.dur)) return;
  r.device = device(a.device);
  r.stream = a.stream;
  r.correlation_id = a.correlation_id == 0 ? kNullInt : a.correlation_id;
  r.memory_kind = memoryKindFromCupti(a.memory_kind);
  r.bytes = static_cast<int64_t>(a.bytes);
  r.value = static_cast<int32_t>(a.value);
  r.graph_node_id = nonZeroOrNull(a.graph_node_id);
  device_of_context_.emplace(a.context, a.device);
  const int64_t id = capture_.nextId(t_.memsets);
  r.external_id = externalIdFor(a.correlation_id, MemsetTable::kSqlName, id);
  t_.memsets.append(r);
}

void GpuActivityRows::onApi(const ApiActivity& a) {
  ApiCallTable::Row r;
  if (!interval(a.start_ns, a.end_ns, &r.ts, &r.dur)) return;
  r.thread_id = capture_.threadId(a.tid);
  r.api = a.driver ? ApiKind::kDriver : ApiKind::kRuntime;
  r.name = apiName(a.driver, a.cbid);
  r.correlation_id = a.correlation_id == 0 ? kNullInt : a.correlation_id;
  r.cbid = static_cast<int32_t>(a.cbid);
  r.return_code = static_cast<int32_t>(a.return_value);
  if (a.correlation_id != 0) thread_of_correlation_.put(a.correlation_id, r.thread_id);
  const int64_t id = capture_.nextId(t_.api_calls);
  r.external_id = externalIdFor(a.correlation_id, ApiCallTable::kSqlName, id);
  t_.api_calls.append(r);
}

void GpuActivityRows::onSync(const SyncActivity& a) {
  SyncTable::Row r;
  if (!interval(a.start_ns, a.end_ns, &r.ts, &r.dur)) return;
  const int64_t id = capture_.nextId(t_.syncs);
  r.kind = syncKindFromCupti(a.type);
  r.correlation_id = a.correlation_id == 0 ? kNullInt : a.correlation_id;
  if (a.stream != SyncActivity::kNotApplicable) r.stream = a.stream;
  if (a.cuda_event_id != SyncActivity::kNotApplicable) r.event_id = a.cuda_event_id;
  if (a.correlation_id != 0) {
    if (const int64_t* thread = thread_of_correlation_.find(a.correlation_id)) {
      r.thread_id = *thread;
    } else {
      pending_.push_back(
          {Need::kSyncThread, SyncTable::kSqlName, id, a.correlation_id, kPendingCommits});
    }
  }
  if (a.context != SyncActivity::kNotApplicable) {
    if (auto it = device_of_context_.find(a.context); it != device_of_context_.end()) {
      r.device = device(it->second);
    } else {
      pending_.push_back({Need::kSyncDevice, SyncTable::kSqlName, id, a.context, kPendingCommits});
    }
  }
  r.external_id = externalIdFor(a.correlation_id, SyncTable::kSqlName, id);
  t_.syncs.append(r);
}

void GpuActivityRows::onExternalCorrelation(const ExternalCorrelationActivity& a) {
  if (a.correlation_id == 0) return;
  external_of_correlation_.put(a.correlation_id, a.external_id);
}

void GpuActivityRows::onOverhead(const OverheadActivity& a) {
  RangeTable::Row r;
  if (!interval(a.start_ns, a.end_ns, &r.ts, &r.dur)) return;
  r.category = overhead_category_;
  r.name = a.name ? capture_.intern(a.name)
                  : capture_.intern("overhead_" + std::to_string(a.overhead_kind));
  if (a.on_thread) r.thread_id = capture_.threadId(a.tid);
  if (a.on_device) {
    r.device = device(a.device);
    if (a.stream != 0) r.stream = a.stream;
  }
  r.depth = 0;
  if (a.correlation_id != 0) r.correlation_id = a.correlation_id;
  t_.ranges.append(r);
}

void GpuActivityRows::onDevice(const DeviceActivity& a) {
  if (device_observer_) device_observer_(a);
  if (!devices_written_.insert(a.device).second) return;
  DeviceTable::Row d;
  d.device = device(a.device);
  d.kind = DeviceKind::kGpu;
  d.vendor = capture_.intern("nvidia");
  d.name = capture_.intern(a.name);
  d.sm_count = static_cast<int32_t>(a.sm_count);
  d.memory_bytes = static_cast<int64_t>(a.memory_bytes);
  d.memory_bandwidth_bytes_per_s = a.memory_bandwidth_bytes_per_s;
  d.sm_clock_hz = static_cast<int64_t>(a.sm_clock_hz);
  d.compute_major = static_cast<int32_t>(a.compute_major);
  d.compute_minor = static_cast<int32_t>(a.compute_minor);
  d.warp_size = static_cast<int32_t>(a.warp_size);
  d.max_threads_per_block = static_cast<int32_t>(a.max_threads_per_block);
  d.max_threads_per_sm = static_cast<int32_t>(a.max_warps_per_sm * a.warp_size);
  d.max_blocks_per_sm = static_cast<int32_t>(a.max_blocks_per_sm);
  d.registers_per_block = static_cast<int32_t>(a.registers_per_block);
  d.registers_per_sm = static_cast<int32_t>(a.registers_per_sm);
  d.shared_memory_per_block_bytes = a.shared_memory_per_block_bytes;
  d.shared_memory_per_sm_bytes = a.shared_memory_per_sm_bytes;
  d.l2_cache_bytes = a.l2_cache_bytes;
  if (std::string uuid = formatUuid(a.uuid); !uuid.empty()) d.uuid = capture_.intern(uuid);
  if (!isNull(d.device)) t_.devices.append(d);
}

void GpuActivityRows::onContext(const ContextActivity& a) {
  device_of_context_[a.context] = a.device;
}

void GpuActivityRows::onUnknownKind(uint32_t kind) {
  capture_.addStat(kStatUnknownKinds, 1,
                   "CUPTI activity records of a kind this build does not read; skipped");
  capture_.addStat("collector.unknown_record_kind." + std::to_string(kind), 1,
                   "records of this CUpti_ActivityKind value; skipped");
}

template <typename Table>
void GpuActivityRows::setExternal(Table& table, int64_t row_id, int64_t external_id) {
  if (capture_.inBatch(table, row_id)) {
    table.external_id[capture_.batchIndex(table, row_id)] = external_id;
  } else {
    capture_.update(Table::kSqlName, "external_id", row_id, external_id);
  }
}

bool GpuActivityRows::resolve(const Pending& p) {
  switch (p.need) {
    case Need::kSyncThread: {
      const int64_t* thread = thread_of_correlation_.find(p.key);
      if (!thread) return false;
      if (capture_.inBatch(t_.syncs, p.row_id)) {
        t_.syncs.thread_id[capture_.batchIndex(t_.syncs, p.row_id)] = *thread;
      } else {
        capture_.update(SyncTable::kSqlName, "thread_id", p.row_id, *thread);
      }
      return true;
    }
    case Need::kSyncDevice: {
      auto it = device_of_context_.find(p.key);
      if (it == device_of_context_.end()) return false;
      const int32_t dev = device(it->second);
      if (capture_.inBatch(t_.syncs, p.row_id)) {
        t_.syncs.device[capture_.batchIndex(t_.syncs, p.row_id)] = dev;
      } else {
        capture_.update(SyncTable::kSqlName, "device", p.row_id, dev);
      }
      return true;
    }
    case Need::kExternalId: {
      if (external_of_correlation_.empty()) return false;
      const uint64_t* external = external_of_correlation_.find(p.key);
      if (!external) return false;
      const int64_t value = nonZeroOrNull(*external);
      const std::string_view table = p.table;
      if (table == KernelTable::kSqlName) setExternal(t_.kernels, p.row_id, value);
      if (table == MemcpyTable::kSqlName) setExternal(t_.memcpys, p.row_id, value);
      if (table == MemsetTable::kSqlName) setExternal(t_.memsets, p.row_id, value);
      if (table == ApiCallTable::kSqlName) setExternal(t_.api_calls, p.row_id, value);
      if (table == SyncTable::kSqlName) setExternal(t_.syncs, p.row_id, value);
      return true;
    }
  }
  return false;
}

void GpuActivityRows::resolvePending(bool final_commit) {
  size_t kept = 0;
  int64_t expired = 0;
  for (Pending& p : pending_) {
    if (resolve(p)) continue;
    if (final_commit || --p.commits_left < 0) {
      // Most launches have no external id (only code that pushes one, such
      // as a framework's profiler, creates them): not a loss.
      if (p.need != Need::kExternalId) ++expired;
      continue;
    }
    pending_[kept++] = p;
  }
  pending_.resize(kept);
  if (expired > 0) {
    capture_.addStat(kStatUnresolved, expired,
                     "GPU rows whose thread, device or external id never arrived from CUPTI "
                     "(stored as NULL)");
  }
}

}  // namespace damscope::collector
