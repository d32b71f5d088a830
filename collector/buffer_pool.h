// The fixed pool of CUPTI activity buffers.
//
// CUPTI asks for an empty buffer (cuptiActivityRegisterCallbacks' request
// callback) and later hands it back filled (the completion callback), on
// application threads or on CUPTI's worker thread. Both callbacks only move
// ownership here: acquire() and complete() are lock-free, allocate nothing
// and never block. The writer thread takes filled buffers in completion order,
// decodes them, and release()s them for reuse.
//
// All buffers are reserved once, as one anonymous mapping, so the collector's
// memory is bounded by count x buffer_bytes however long the run. When every
// buffer is in use, acquire() returns nullptr: CUPTI then drops records (and
// counts them, cuptiActivityGetNumDroppedRecords); the pool counts how often
// that happened so the trace can say why.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace damscope::collector {

class BufferPool {
 public:
  // CUPTI requires buffers aligned to ACTIVITY_RECORD_ALIGNMENT (8 bytes);
  // the mapping is page-aligned and buffer_bytes is rounded up to a multiple of 8.
  static std::unique_ptr<BufferPool> create(size_t buffer_bytes, size_t count);
  ~BufferPool();
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;

  size_t bufferBytes() const { return buffer_bytes_; }
  size_t count() const { return slots_.size(); }
  size_t totalBytes() const { return buffer_bytes_ * slots_.size(); }

  // Any thread: a free buffer, or nullptr when all are in use.
  uint8_t* acquire() noexcept;
  // Any thread: a buffer from acquire() now holds `valid_bytes` of records.
  // A buffer this pool does not own is ignored.
  void complete(uint8_t* buffer, size_t valid_bytes) noexcept;

  struct Filled {
    uint8_t* data;
    size_t valid_bytes;
  };
  // Writer thread: appends the buffers completed since the last call to
  // `out`, oldest completion first. Each must be release()d after use.
  void takeCompleted(std::vector<Filled>& out);
  void release(uint8_t* buffer) noexcept;

  // How many acquire() calls found no free buffer.
  int64_t exhaustedCount() const { return exhausted_.load(std::memory_order_relaxed); }
  // Buffers not free (lent to CUPTI, filled, or being decoded).
  size_t inUse() const;

 private:
  enum State : uint32_t { kFree, kLent, kFilled, kDraining };
  struct Slot {
    std::atomic<uint32_t> state{kFree};
    size_t valid_bytes = 0;
    uint64_t ticket = 0;
  };

  BufferPool(uint8_t* base, size_t buffer_bytes, size_t count);
  Slot* slotOf(const uint8_t* buffer) noexcept;

  uint8_t* base_;
  size_t buffer_bytes_;
  std::vector<Slot> slots_;
  std::atomic<size_t> next_hint_{0};
  std::atomic<uint64_t> next_ticket_{0};
  std::atomic<int64_t> exhausted_{0};
};

}  // namespace damscope::collector
