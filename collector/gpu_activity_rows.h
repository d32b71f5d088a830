// Turns decoded GPU activity (activity_types.h) into rows of a capture's
// batch: the ActivitySink the writer thread hands every CUPTI record to.
//
// Where records go:
//   CONCURRENT_KERNEL        -> kernels (name demangled, as Kineto stores it)
//   MEMCPY, MEMCPY2          -> memcpys (MEMCPY2 with src_device/dst_device)
//   MEMSET                   -> memsets
//   RUNTIME, DRIVER          -> api_calls (name from the CUPTI callback id)
//   SYNCHRONIZATION          -> syncs
//   EXTERNAL_CORRELATION     -> external_id of the rows with that correlation
//   OVERHEAD                 -> ranges, category "cupti_overhead"
//   DEVICE, CONTEXT          -> devices; context -> device for syncs
//
// CUPTI delivers records of one launch in different buffers (API records in
// per-thread buffers, GPU records per context), in any order. Facts that link
// records (correlation -> thread, correlation -> external id, context ->
// device) are remembered in bounded maps; rows that arrive before the fact
// they need are completed when it arrives, in the batch or, once written, by
// a row update. A row still incomplete two commits later stays as it is; a
// missing thread or device is counted (collector.unresolved_correlations), a
// missing external id is not (most launches have none).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "collector/activity_types.h"
#include "collector/capture_writer.h"

namespace damscope::collector {

// A map from CUPTI correlation ids that remembers the most recent ones.
// CUPTI numbers API calls in increasing order, so a direct-mapped table
// indexed by the id's low bits keeps exactly the last kSlots ids: an entry is
// overwritten only by an id kSlots newer. No allocation per entry (the
// unordered_map this replaces spent most of the decoder's time in malloc),
// and memory is fixed: kSlots x 16 bytes = 4 MiB per map.
template <typename Value>
class RecentMap {
 public:
  static constexpr size_t kSlots = size_t{1} << 18;
  RecentMap() : slots_(kSlots) {}
  void put(uint32_t key, Value value) {
    slots_[key & (kSlots - 1)] = {key, true, value};
    any_ = true;
  }
  const Value* find(uint32_t key) const {
    const Slot& slot = slots_[key & (kSlots - 1)];
    return slot.used && slot.key == key ? &slot.value : nullptr;
  }
  bool empty() const { return !any_; }

 private:
  struct Slot {
    uint32_t key = 0;
    bool used = false;
    Value value{};
  };
  std::vector<Slot> slots_;
  bool any_ = false;
};

class GpuActivityRows final : public ActivitySink {
 public:
  // `clock_offset_ns` is added to every CUPTI timestamp to put it on the
  // file's clock (CLOCK_REALTIME; 0 when CUPTI already uses it).
  GpuActivityRows(CaptureWriter& capture, int64_t clock_offset_ns);

  void onKernel(const KernelActivity& a) override;
  void onMemcpy(const MemcpyActivity& a) override;
  void onMemset(const MemsetActivity& a) override;
  void onApi(const ApiActivity& a) override;
  void onSync(const SyncActivity& a) override;
  void onExternalCorrelation(const ExternalCorrelationActivity& a) override;
  void onOverhead(const OverheadActivity& a) override;
  void onDevice(const DeviceActivity& a) override;
  void onContext(const ContextActivity& a) override;
  void onUnknownKind(uint32_t kind) override;

  void setClockOffset(int64_t clock_offset_ns) { clock_offset_ns_ = clock_offset_ns; }

  // Called before every commit: completes rows whose missing facts arrived.
  // Before the last commit of a capture, everything still missing is given up.
  void resolvePending(bool final_commit = false);

  // Called with every device record (the collector keeps them for later
  // capture windows, whose CUPTI session may not dump them again).
  void setDeviceObserver(std::function<void(const DeviceActivity&)> observer) {
    device_observer_ = std::move(observer);
  }
  // Called with every kernels row written: its correlation id and global
  // row id (measured_kernel_rows.h joins counters to it).
  void setKernelObserver(std::function<void(uint32_t correlation_id, int64_t row)> observer) {
    kernel_observer_ = std::move(observer);
  }

  // Stat names this sink writes, for docs and tests.
  static constexpr const char* kStatNoTimestamps = "collector.records_without_timestamps";
  static constexpr const char* kStatNegativeDurations = "collector.negative_durations";
  static constexpr const char* kStatUnknownKinds = "collector.unknown_record_kinds";
  static constexpr const char* kStatUnknownCbids = "collector.unknown_api_cbids";
  static constexpr const char* kStatUnresolved = "collector.unresolved_correlations";
  static constexpr const char* kStatOutOfRange = "collector.out_of_range_values";

 private:
  // What a pending row still needs.
  enum class Need : uint8_t { kSyncThread, kSyncDevice, kExternalId };
  struct Pending {
    Need need;
    const char* table;  // kSqlName of the row's table (for kExternalId)
    int64_t row_id;
    uint32_t key;  // correlation id, or context id for kSyncDevice
    int commits_left;
  };

  // Returns false (and counts it) for records without timestamps.
  bool interval(uint64_t start, uint64_t end, int64_t* ts, int64_t* dur);
  int32_t device(uint32_t device);
  StringId kernelName(const char* mangled);
  StringId apiName(bool driver, uint32_t cbid);
  int64_t externalIdFor(uint32_t correlation, const char* table, int64_t row_id);
  // Tries to complete one pending row; true when done.
  bool resolve(const Pending& p);
  template <typename Table>
  void setExternal(Table& table, int64_t row_id, int64_t external_id);

  CaptureWriter& capture_;
  TraceTables& t_;
  int64_t clock_offset_ns_;
  std::function<void(const DeviceActivity&)> device_observer_;
  std::function<void(uint32_t, int64_t)> kernel_observer_;

  RecentMap<int64_t> thread_of_correlation_;     // correlation -> threads.id
  RecentMap<uint64_t> external_of_correlation_;  // correlation -> external id
  std::unordered_map<uint32_t, uint32_t> device_of_context_;
  std::unordered_set<uint32_t> devices_written_;
  std::vector<Pending> pending_;

  std::unordered_map<const char*, StringId>
      kernel_names_;                                    // CUPTI's name pointer is stable per kernel
  std::vector<StringId> runtime_names_, driver_names_;  // by cbid
  StringId overhead_category_;
};

}  // namespace damscope::collector
