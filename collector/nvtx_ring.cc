// The per-thread NVTX event ring: see nvtx_ring.h.
#include "collector/nvtx_ring.h"

#include <algorithm>

namespace damscope::collector {

NvtxRing::NvtxRing(size_t capacity_bytes) {
  size_t capacity = 4096;
  while (capacity < capacity_bytes) capacity <<= 1;
  capacity_ = capacity;
  mask_ = capacity - 1;
  data_ = new uint8_t[capacity_];
  wrapped_ = new uint8_t[maxMessageBytes()];
}

NvtxRing::~NvtxRing() {
  delete[] data_;
  delete[] wrapped_;
}

void NvtxRing::copyIn(uint64_t position, const void* data, size_t bytes) noexcept {
  const size_t offset = static_cast<size_t>(position & mask_);
  const size_t first = std::min(bytes, capacity_ - offset);
  std::memcpy(data_ + offset, data, first);
  if (first < bytes) std::memcpy(data_, static_cast<const uint8_t*>(data) + first, bytes - first);
}

void NvtxRing::copyOut(uint64_t position, void* data, size_t bytes) const noexcept {
  const size_t offset = static_cast<size_t>(position & mask_);
  const size_t first = std::min(bytes, capacity_ - offset);
  std::memcpy(data, data_ + offset, first);
  if (first < bytes) std::memcpy(static_cast<uint8_t*>(data) + first, data_, bytes - first);
}

bool NvtxRing::push(NvtxEventHeader header, const void* message, size_t message_bytes,
                    size_t reserve_bytes) noexcept {
  if (message_bytes > maxMessageBytes()) {
    message_bytes = maxMessageBytes();
    header.flags |= NvtxEventHeader::kTruncated;
  }
  const size_t size = (sizeof(NvtxEventHeader) + message_bytes + 7) & ~size_t{7};
  const uint64_t head = head_.load(std::memory_order_relaxed);
  // Acquire pairs with the consumer's release of tail: the space it freed is
  // no longer being read when we overwrite it.
  const uint64_t tail = tail_.load(std::memory_order_acquire);
  if (head + size + reserve_bytes - tail > capacity_) {
    dropped_.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  header.size = static_cast<uint32_t>(size);
  header.message_bytes = static_cast<uint32_t>(message_bytes);
  copyIn(head, &header, sizeof(header));
  if (message_bytes > 0) copyIn(head + sizeof(header), message, message_bytes);
  head_.store(head + size, std::memory_order_release);
  return true;
}

}  // namespace damscope::collector
