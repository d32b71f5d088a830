// Process-wide NVTX state: see nvtx_registry.h.
#include "collector/nvtx_registry.h"

#include <new>

namespace damscope::collector {
namespace {

// Pushes `node` onto a lock-free list unless an equal node is already there
// (then returns that one and deletes `node`). Concurrent pushes of equal nodes
// may both succeed; both handles stay valid, which is all NVTX needs.
template <typename Node, typename Equal>
Node* pushUnique(std::atomic<Node*>& head, Node* node, Equal&& equal) {
  Node* first = head.load(std::memory_order_acquire);
  for (;;) {
    for (Node* n = first; n; n = n->next) {
      if (equal(*n)) {
        delete node;
        return n;
      }
    }
    node->next = first;
    if (head.compare_exchange_weak(first, node, std::memory_order_acq_rel,
                                   std::memory_order_acquire)) {
      return node;
    }
  }
}

}  // namespace

NvtxRegistry& NvtxRegistry::instance() {
  // Never destroyed: application threads may call NVTX during exit.
  static NvtxRegistry* registry = new NvtxRegistry();
  return *registry;
}

const NvtxDomain* NvtxRegistry::domain(const std::string& name) {
  auto* node = new NvtxDomain{name, nullptr};
  return pushUnique(domains_, node, [&](const NvtxDomain& d) { return d.name == name; });
}

const NvtxString* NvtxRegistry::registerString(const NvtxDomain* domain, const std::string& text) {
  auto* node = new NvtxString{text, domain, nullptr};
  return pushUnique(strings_, node,
                    [&](const NvtxString& s) { return s.domain == domain && s.text == text; });
}

NvtxThreadSlot* NvtxRegistry::claimSlot(int64_t tid) noexcept {
  for (NvtxThreadSlot* s = slots_.load(std::memory_order_acquire); s; s = s->next) {
    uint32_t expected = NvtxThreadSlot::kFree;
    if (s->state.compare_exchange_strong(expected, NvtxThreadSlot::kOwned,
                                         std::memory_order_acquire)) {
      s->tid.store(tid, std::memory_order_release);
      s->depth = 0;
      s->dropped_pushes = 0;
      s->dropped_pushes = 0;
      return s;
    }
  }
  auto* slot =
      new (std::nothrow) NvtxThreadSlot(ring_bytes_.load(std::memory_order_relaxed),
                                        slot_count_.fetch_add(1, std::memory_order_relaxed));
  if (!slot) return nullptr;
  slot->tid.store(tid, std::memory_order_relaxed);
  NvtxThreadSlot* first = slots_.load(std::memory_order_relaxed);
  do {
    slot->next = first;
  } while (!slots_.compare_exchange_weak(first, slot, std::memory_order_release,
                                         std::memory_order_relaxed));
  return slot;
}

void NvtxRegistry::retire(NvtxThreadSlot* slot) noexcept {
  if (slot) slot->state.store(NvtxThreadSlot::kRetired, std::memory_order_release);
}

void NvtxRegistry::recycleIfDone(NvtxThreadSlot& slot) noexcept {
  if (slot.state.load(std::memory_order_acquire) != NvtxThreadSlot::kRetired) return;
  // The owner has exited, so nothing more is pushed: empty now means drained.
  if (!slot.ring.empty()) return;
  uint32_t expected = NvtxThreadSlot::kRetired;
  slot.state.compare_exchange_strong(expected, NvtxThreadSlot::kFree, std::memory_order_acq_rel);
}

}  // namespace damscope::collector
