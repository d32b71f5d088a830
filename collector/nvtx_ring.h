// The per-thread queue of NVTX events: a single-producer single-consumer ring
// of bytes between one application thread (the producer, inside an NVTX
// call) and the writer thread (the consumer).
//
// An NVTX call must cost the application almost nothing and must never
// block, allocate or take a lock (Tracy's rule). So each thread that calls
// NVTX owns one ring; the call writes a fixed header plus the message bytes
// and publishes them with one release store. When the ring is full the event
// is dropped and counted: a slow writer costs data, never application time.
//
// Rings are created on a thread's first NVTX call (one allocation per thread,
// before any event) and never freed while the process lives: when a thread
// exits its ring is retired, drained, and handed to the next new thread, so
// the number of rings is bounded by the number of threads alive at once.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace damscope::collector {

enum class NvtxEventType : uint8_t {
  kPush,          // push/pop range opened (nvtxRangePush*, nvtxDomainRangePushEx)
  kPop,           // innermost push range of the domain closed
  kStart,         // start/end range opened (nvtxRangeStart*); `id` is its range id
  kEnd,           // start/end range `id` closed, possibly on another thread
  kMark,          // instantaneous marker
  kNameThread,    // nvtxNameOsThread: `id` is the OS thread id named
  kNameCategory,  // nvtxNameCategory: `id` is the category number, `domain` its domain
};

// How the message that follows the header is encoded.
enum class NvtxMessageKind : uint8_t {
  kNone,
  kAscii,       // UTF-8 bytes as given
  kWide,        // wchar_t units (UTF-32 on Linux), converted by the consumer
  kRegistered,  // `registered` holds an nvtxStringHandle_t (see nvtx_registry.h)
};

// NVTX payload types (nvtxPayloadType_t); kNone when absent.
enum class NvtxPayloadKind : uint8_t {
  kNone = 0,
  kUint64 = 1,
  kInt64 = 2,
  kDouble = 3,
  kUint32 = 4,
  kInt32 = 5,
  kFloat = 6
};

// One event's fixed part; `message_bytes` of message follow it in the ring.
struct NvtxEventHeader {
  uint32_t size = 0;  // header + message, rounded up to 8 bytes
  NvtxEventType type = NvtxEventType::kPush;
  NvtxMessageKind message_kind = NvtxMessageKind::kNone;
  NvtxPayloadKind payload_kind = NvtxPayloadKind::kNone;
  uint8_t flags = 0;                 // kHasColor | kHasCategory | kTruncated
  int64_t ts = 0;                    // CLOCK_REALTIME ns
  const void* domain = nullptr;      // nvtxDomainHandle_t, nullptr: default domain
  const void* registered = nullptr;  // nvtxStringHandle_t for kRegistered
  uint64_t id = 0;                   // range id, thread id or category, by type
  uint64_t payload = 0;              // the payload's bits
  uint32_t color = 0;                // ARGB
  uint32_t category = 0;
  uint32_t message_bytes = 0;
  uint32_t reserved = 0;

  static constexpr uint8_t kHasColor = 1;
  static constexpr uint8_t kHasCategory = 2;
  static constexpr uint8_t kTruncated = 4;
};
static_assert(sizeof(NvtxEventHeader) == 64);

class NvtxRing {
 public:
  // `capacity_bytes` is rounded up to a power of two (at least 4 KiB).
  explicit NvtxRing(size_t capacity_bytes);
  ~NvtxRing();
  NvtxRing(const NvtxRing&) = delete;
  NvtxRing& operator=(const NvtxRing&) = delete;

  // The largest message one event may carry; longer ones are truncated (the
  // event is flagged kTruncated).
  size_t maxMessageBytes() const { return capacity_ / 4; }

  // Producer: appends an event (header.size and message_bytes are filled in
  // here) if it fits with `reserve_bytes` to spare. Returns false, and
  // counts a drop, when it does not. A push reserves room for the pops of
  // every range open on the thread, so that a full ring drops whole ranges
  // and never the end of a range it kept.
  bool push(NvtxEventHeader header, const void* message, size_t message_bytes,
            size_t reserve_bytes = 0) noexcept;

  // Consumer: calls fn(const NvtxEventHeader&, const uint8_t* message) for
  // every published event, then frees their space. Returns the count.
  template <typename Fn>
  size_t drain(Fn&& fn);

  // Events dropped because the ring was full, since the ring was created.
  int64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }
  bool empty() const {
    return head_.load(std::memory_order_acquire) == tail_.load(std::memory_order_relaxed);
  }

 private:
  void copyIn(uint64_t position, const void* data, size_t bytes) noexcept;
  void copyOut(uint64_t position, void* data, size_t bytes) const noexcept;

  uint8_t* data_;
  size_t capacity_;
  size_t mask_;
  // Producer and consumer positions on separate cache lines so that the two
  // threads do not invalidate each other's line on every event.
  alignas(64) std::atomic<uint64_t> head_{0};  // written by the producer
  alignas(64) std::atomic<uint64_t> tail_{0};  // written by the consumer
  alignas(64) std::atomic<int64_t> dropped_{0};
  uint8_t* wrapped_;  // consumer: a message that wraps around the end is copied here
};

template <typename Fn>
size_t NvtxRing::drain(Fn&& fn) {
  const uint64_t head = head_.load(std::memory_order_acquire);
  uint64_t tail = tail_.load(std::memory_order_relaxed);
  size_t count = 0;
  while (tail != head) {
    NvtxEventHeader header;
    copyOut(tail, &header, sizeof(header));
    const uint64_t message_at = tail + sizeof(header);
    const size_t offset = static_cast<size_t>(message_at & mask_);
    const uint8_t* message;
    if (offset + header.message_bytes <= capacity_) {
      message = data_ + offset;
    } else {
      copyOut(message_at, wrapped_, header.message_bytes);
      message = wrapped_;
    }
    fn(static_cast<const NvtxEventHeader&>(header), message);
    tail += header.size;
    ++count;
  }
  tail_.store(tail, std::memory_order_release);
  return count;
}

}  // namespace damscope::collector
