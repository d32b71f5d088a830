// CUPTI activity buffers built in memory, for tests and benchmarks that have
// no GPU: real CUPTI 13 record structs, packed back to back as CUPTI packs a
// buffer (cupti_activity_decoder.h says what that relies on).
#pragma once

#include <cupti_activity.h>
#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>

#include <cstring>
#include <vector>

namespace damscope::testing {

class PackedBuffer {
 public:
  // Reserved up front: add() returns references that must stay valid.
  explicit PackedBuffer(size_t reserve_bytes = 1 << 20) { bytes_.reserve(reserve_bytes); }

  template <typename Record>
  Record& add(CUpti_ActivityKind kind) {
    const size_t at = bytes_.size();
    bytes_.resize(at + sizeof(Record), 0);
    auto* record = reinterpret_cast<Record*>(bytes_.data() + at);
    record->kind = kind;
    return *record;
  }
  // Raw bytes, e.g. a record of a kind the decoder does not know.
  void addRaw(uint32_t kind, size_t size) {
    const size_t at = bytes_.size();
    bytes_.resize(at + size, 0);
    std::memcpy(bytes_.data() + at, &kind, sizeof(kind));
  }
  uint8_t* data() { return reinterpret_cast<uint8_t*>(bytes_.data()); }
  size_t size() const { return bytes_.size(); }
  size_t capacity() const { return bytes_.capacity(); }

 private:
  // operator new aligns to 16, and every record is a multiple of 8 bytes
  // (PACKED_ALIGNMENT), so each record starts 8-byte aligned as in CUPTI.
  std::vector<char> bytes_;
};

inline CUpti_ActivityKernel10& addKernel(PackedBuffer& b, const char* name, uint32_t correlation,
                                         uint64_t start, uint64_t end) {
  auto& k = b.add<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  k.start = start;
  k.end = end;
  k.deviceId = 0;
  k.contextId = 1;
  k.streamId = 7;
  k.gridX = 80, k.gridY = 2, k.gridZ = 1;
  k.blockX = 256, k.blockY = 1, k.blockZ = 1;
  k.registersPerThread = 40;
  k.staticSharedMemory = 1024;
  k.dynamicSharedMemory = 4096;
  k.correlationId = correlation;
  k.name = name;
  return k;
}

inline CUpti_ActivityAPI& addApi(PackedBuffer& b, CUpti_ActivityKind kind, uint32_t cbid,
                                 uint32_t correlation, uint64_t start, uint64_t end, uint32_t tid) {
  auto& a = b.add<CUpti_ActivityAPI>(kind);
  a.cbid = cbid;
  a.start = start;
  a.end = end;
  a.processId = 4242;
  a.threadId = tid;
  a.correlationId = correlation;
  return a;
}

}  // namespace damscope::testing
