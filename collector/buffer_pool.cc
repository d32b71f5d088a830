// The fixed pool of CUPTI activity buffers: see buffer_pool.h.
#include "collector/buffer_pool.h"

#include <sys/mman.h>

#include <algorithm>

namespace damscope::collector {

std::unique_ptr<BufferPool> BufferPool::create(size_t buffer_bytes, size_t count) {
  buffer_bytes = (std::max<size_t>(buffer_bytes, 1024) + 7) & ~size_t{7};
  count = std::max<size_t>(count, 1);
  // Pages of an anonymous mapping become resident only when CUPTI writes them.
  void* base = mmap(nullptr, buffer_bytes * count, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) return nullptr;
  return std::unique_ptr<BufferPool>(
      new BufferPool(static_cast<uint8_t*>(base), buffer_bytes, count));
}

BufferPool::BufferPool(uint8_t* base, size_t buffer_bytes, size_t count)
    : base_(base), buffer_bytes_(buffer_bytes), slots_(count) {}

BufferPool::~BufferPool() {
  munmap(base_, buffer_bytes_ * slots_.size());
}

uint8_t* BufferPool::acquire() noexcept {
  const size_t n = slots_.size();
  // Start where the last search ended so that lenders do not all contend
  // for the first slot.
  const size_t start = next_hint_.load(std::memory_order_relaxed);
  for (size_t i = 0; i < n; ++i) {
    const size_t index = (start + i) % n;
    uint32_t expected = kFree;
    if (slots_[index].state.compare_exchange_strong(expected, kLent, std::memory_order_acquire,
                                                    std::memory_order_relaxed)) {
      next_hint_.store(index + 1, std::memory_order_relaxed);
      return base_ + index * buffer_bytes_;
    }
  }
  exhausted_.fetch_add(1, std::memory_order_relaxed);
  return nullptr;
}

BufferPool::Slot* BufferPool::slotOf(const uint8_t* buffer) noexcept {
  if (buffer < base_ || buffer >= base_ + buffer_bytes_ * slots_.size()) return nullptr;
  const size_t offset = static_cast<size_t>(buffer - base_);
  if (offset % buffer_bytes_ != 0) return nullptr;
  return &slots_[offset / buffer_bytes_];
}

void BufferPool::complete(uint8_t* buffer, size_t valid_bytes) noexcept {
  Slot* slot = slotOf(buffer);
  if (!slot) return;
  slot->valid_bytes = std::min(valid_bytes, buffer_bytes_);
  slot->ticket = next_ticket_.fetch_add(1, std::memory_order_relaxed);
  slot->state.store(kFilled, std::memory_order_release);
}

void BufferPool::takeCompleted(std::vector<Filled>& out) {
  struct Taken {
    uint64_t ticket;
    size_t index;
  };
  std::vector<Taken> taken;
  for (size_t i = 0; i < slots_.size(); ++i) {
    uint32_t expected = kFilled;
    if (slots_[i].state.compare_exchange_strong(expected, kDraining, std::memory_order_acquire,
                                                std::memory_order_relaxed)) {
      taken.push_back({slots_[i].ticket, i});
    }
  }
  std::sort(taken.begin(), taken.end(),
            [](const Taken& a, const Taken& b) { return a.ticket < b.ticket; });
  for (const Taken& t : taken) {
    out.push_back({base_ + t.index * buffer_bytes_, slots_[t.index].valid_bytes});
  }
}

void BufferPool::release(uint8_t* buffer) noexcept {
  if (Slot* slot = slotOf(buffer)) slot->state.store(kFree, std::memory_order_release);
}

size_t BufferPool::inUse() const {
  size_t n = 0;
  for (const Slot& slot : slots_) n += slot.state.load(std::memory_order_relaxed) != kFree;
  return n;
}

}  // namespace damscope::collector
