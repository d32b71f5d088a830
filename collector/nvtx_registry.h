// Process-wide NVTX state shared by application threads and the writer:
// domains, registered strings, and the per-thread event rings.
//
// NVTX handles are pointers into this registry: nvtxDomainCreate returns an
// NvtxDomain*, nvtxDomainRegisterString an NvtxString*. Their nodes are
// created once per name (the only NVTX calls that allocate, besides a
// thread's first call, which allocates its ring), pushed onto lock-free lists
// and never freed, so an event can carry the handle and the writer can read
// the name whenever it drains the event.
//
// Every function here may be called on application threads: none blocks or
// takes a lock.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "collector/nvtx_ring.h"

namespace damscope::collector {

struct NvtxDomain {
  std::string name;
  NvtxDomain* next = nullptr;
};

struct NvtxString {
  std::string text;
  const NvtxDomain* domain = nullptr;
  NvtxString* next = nullptr;
};

// One application thread's ring and NVTX bookkeeping.
struct NvtxThreadSlot {
  enum State : uint32_t { kOwned, kRetired, kFree };
  explicit NvtxThreadSlot(size_t ring_bytes, uint64_t index) : ring(ring_bytes), index(index) {}

  NvtxRing ring;
  const uint64_t index;  // unique per slot, for range ids
  std::atomic<uint32_t> state{kOwned};
  std::atomic<int64_t> tid{0};  // OS thread id of the owner
  // Owner-thread only:
  uint64_t next_range = 0;         // counter for nvtxRangeStart ids
  int depth = 0;                   // push/pop nesting level returned to the caller
  uint64_t dropped_pushes = 0;     // bit d: the push at depth d was dropped, and so is its pop
  NvtxThreadSlot* next = nullptr;  // registry list link (immutable once published)
};

class NvtxRegistry {
 public:
  static NvtxRegistry& instance();

  // Ring size for slots created from now on (bytes).
  void setRingBytes(size_t bytes) { ring_bytes_.store(bytes, std::memory_order_relaxed); }

  // The domain named `name`, created on first use. Never returns nullptr.
  const NvtxDomain* domain(const std::string& name);
  const NvtxString* registerString(const NvtxDomain* domain, const std::string& text);

  // A slot for the calling thread `tid`: a free one when a thread has exited,
  // else a new one. nullptr only if allocation fails.
  NvtxThreadSlot* claimSlot(int64_t tid) noexcept;
  // The owner thread exits: the writer drains the slot and frees it.
  static void retire(NvtxThreadSlot* slot) noexcept;

  // Writer: every slot ever created, in no particular order.
  template <typename Fn>
  void forEachSlot(Fn&& fn) {
    for (NvtxThreadSlot* s = slots_.load(std::memory_order_acquire); s; s = s->next) fn(*s);
  }
  // Writer: frees a retired slot once its ring is empty.
  static void recycleIfDone(NvtxThreadSlot& slot) noexcept;

 private:
  NvtxRegistry() = default;

  std::atomic<NvtxDomain*> domains_{nullptr};
  std::atomic<NvtxString*> strings_{nullptr};
  std::atomic<NvtxThreadSlot*> slots_{nullptr};
  std::atomic<uint64_t> slot_count_{0};
  std::atomic<size_t> ring_bytes_{256 * 1024};
};

}  // namespace damscope::collector
