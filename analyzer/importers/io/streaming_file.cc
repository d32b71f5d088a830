// A trace file's text made on a second thread: see streaming_file.h.
#include "analyzer/importers/io/streaming_file.h"

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <optional>

namespace damscope {

// The text fills its region chunk by chunk, each a huge page (x86-64's PMD
// size) at an address aligned to it, so that a chunk moves between addresses
// as one page table entry (mremap(2)).
constexpr size_t kChunkBytes = size_t{2} << 20;
// How far the thread may run ahead of what the reader released: the
// text in memory at a time. The reader's windows (kKinetoWindowBytes) are
// far smaller; a reader that asks for more gets it (Region::through).
constexpr size_t kAheadBytes = size_t{16} << 20;

class StreamingFile::Region final : public TextSink {
 public:
  // `announced_bytes`: the text's size where it is known before the thread
  // starts (a plain file's), else 0.
  Region(std::string path, size_t padding, const Progress& progress, size_t announced_bytes)
      : path_(std::move(path)),
        padding_(padding),
        progress_(progress),
        announced_bytes_(announced_bytes) {}
  ~Region() override {
    if (mapping_) ::munmap(mapping_, mapped_);
  }

  // Reserves address space for `cap` bytes, one past them and the padding,
  // starting at a chunk boundary. MAP_NORESERVE: no memory is committed for
  // it, only for the pages the stream writes (mmap(2)), so a cap of
  // gigabytes costs nothing, unless address space itself is limited
  // (ulimit -v).
  Status reserve(size_t cap) {
    const size_t want = (cap + 1 + padding_ + kChunkBytes - 1) / kChunkBytes * kChunkBytes;
    void* mapping = ::mmap(nullptr, want + kChunkBytes, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mapping == MAP_FAILED) {
      return Error(path_ + ": cannot reserve " + std::to_string(want) +
                   " bytes of address space for the trace's text: " + std::strerror(errno),
                   ErrorCode::kFailure);
    }
    mapping_ = static_cast<char*>(mapping), mapped_ = want + kChunkBytes;
    const auto at = reinterpret_cast<uintptr_t>(mapping_);
    base_ = mapping_ + ((kChunkBytes - at % kChunkBytes) % kChunkBytes);
    // Huge pages where the system allows them on request: one fault per
    // chunk instead of 512.
    ::madvise(base_, want, MADV_HUGEPAGE);
    return okStatus();
  }

  Status begin(size_t, size_t announced_bytes, size_t cap) override {
    // The cap follows the file's size, read again by the decompression.
    if (base_ + cap + 1 + padding_ > mapping_ + mapped_) {
      return Error(path_ + ": the file grew while it was read");
    }
    std::lock_guard<std::mutex> lock(mutex_);
    announced_bytes_ = announced_bytes;
    return okStatus();
  }

  // Room in the chunk `produced` ends in, once the reader has caught up to
  // within kAheadBytes or asked for more. A chunk entered for the first time
  // takes the memory of one the reader released, if any: its pages are
  // already faulted in, where fresh ones would each be faulted and zeroed.
  std::span<char> room(size_t produced, size_t most) override {
    const size_t chunk = produced / kChunkBytes;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      const auto waited_from = std::chrono::steady_clock::now();
      wanted_or_released_.wait(lock, [&] {
        return produced < released_ + kAheadBytes || produced <= wanted_ || stop_;
      });
      waited_ += std::chrono::steady_clock::now() - waited_from;
      while (chunk > entered_chunk_) {
        ++entered_chunk_;
        if (reused_chunk_ < released_ / kChunkBytes) reuse(reused_chunk_++, entered_chunk_);
      }
    }
    const size_t end = std::min(most, (chunk + 1) * kChunkBytes);
    return std::span<char>(base_ + produced, end - produced);
  }
  Status publish(size_t produced) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      produced_ = produced;
      if (stop_) return cancelledError();
    }
    grown_.notify_all();
    if (progress_.cancelled()) return cancelledError();
    return okStatus();
  }

  // The thread's work: the whole file, then its outcome for the reader.
  void fill(Source source, const InflateLimits& limits) {
    pthread_setname_np(pthread_self(), source == Source::kGzip ? "gunzip" : "read-trace");
    const auto start = std::chrono::steady_clock::now();
    Result<size_t> size = source == Source::kGzip ? gunzipFile(path_, *this, Progress(), limits)
                                                  : readFile(path_, *this, Progress());
    std::lock_guard<std::mutex> lock(mutex_);
    if (size.ok()) {
      produced_ = size.value();
      // A reused chunk still holds the text it had.
      std::memset(base_ + produced_, 0, padding_);
    } else {
      error_ = size.error();
    }
    seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start - waited_)
                   .count();
    ended_ = true;
    grown_.notify_all();
  }

  Result<std::string_view> through(size_t n) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (n > wanted_) {
      wanted_ = n;
      wanted_or_released_.notify_all();
    }
    grown_.wait(lock, [&] { return ended_ || produced_ > n || error_; });
    if (error_) return *error_;
    return std::string_view(base_, produced_);
  }
  void release(size_t n) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (n <= released_) return;
    released_ = n;
    wanted_or_released_.notify_all();
  }
  // Whether the text from byte 0 is still all there.
  bool whole() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return released_ == 0;
  }
  size_t expectedSize() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return ended_ ? produced_ : std::max(announced_bytes_, produced_);
  }
  double seconds() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return seconds_;
  }
  void stop() {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
    wanted_or_released_.notify_all();
  }

 private:
  // Gives the pages of chunk `from` (released) to chunk `to` (not yet
  // written). MREMAP_DONTUNMAP (Linux 5.7) leaves `from` mapped, empty: a
  // plain move would leave a hole in the reservation, where the kernel may
  // place another thread's mapping, which this region's munmap would then
  // take away. A kernel without it frees `from` instead, and `to` faults in
  // pages of its own.
  void reuse(size_t from, size_t to) {
    char* const released = base_ + from * kChunkBytes;
    void* moved = ::mremap(released, kChunkBytes, kChunkBytes,
                           MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP,
                           base_ + to * kChunkBytes);
    if (moved == MAP_FAILED) ::madvise(released, kChunkBytes, MADV_DONTNEED);
  }

  const std::string path_;
  const size_t padding_;
  const Progress progress_;  // for its cancellation only
  char* mapping_ = nullptr;  // what was reserved, base_ inside it
  size_t mapped_ = 0;
  char* base_ = nullptr;

  mutable std::mutex mutex_;
  std::condition_variable grown_;                // produced_ or ended_
  std::condition_variable wanted_or_released_;  // wanted_, released_ or stop_
  size_t announced_bytes_;
  size_t produced_ = 0;
  size_t wanted_ = 0;    // the most the reader waited for
  size_t released_ = 0;  // the reader reads nothing before it again
  size_t entered_chunk_ = 0;
  size_t reused_chunk_ = 0;  // the next released chunk to reuse
  bool stop_ = false;
  bool ended_ = false;
  std::optional<Error> error_;
  std::chrono::steady_clock::duration waited_{};
  double seconds_ = 0;
};

Result<std::unique_ptr<StreamingFile>> StreamingFile::gunzip(std::string path, size_t padding,
                                                             const Progress& progress,
                                                             const InflateLimits& limits) {
  DAMSCOPE_ASSIGN_OR_RETURN(size_t size, checkInputFile(path));
  std::unique_ptr<StreamingFile> file(new StreamingFile(std::move(path), Source::kGzip, padding,
                                                        progress, limits, limits.capFor(size)));
  DAMSCOPE_RETURN_IF_ERROR(file->startRegion());
  return file;
}

Result<std::unique_ptr<StreamingFile>> StreamingFile::read(std::string path, size_t padding,
                                                           const Progress& progress) {
  DAMSCOPE_ASSIGN_OR_RETURN(size_t size, checkInputFile(path));
  // A file larger than kMaxInputBytes is refused by readFile, with its message.
  std::unique_ptr<StreamingFile> file(new StreamingFile(
      std::move(path), Source::kPlain, padding, progress, {}, std::min(size, kMaxInputBytes)));
  DAMSCOPE_RETURN_IF_ERROR(file->startRegion());
  return file;
}

StreamingFile::StreamingFile(std::string path, Source source, size_t padding,
                             const Progress& progress, const InflateLimits& limits, size_t cap)
    : path_(std::move(path)),
      source_(source),
      padding_(padding),
      progress_(progress),
      limits_(limits),
      cap_(cap) {}

Status StreamingFile::startRegion() {
  auto region = std::make_unique<Region>(path_, padding_, progress_,
                                         source_ == Source::kPlain ? cap_ : 0);
  DAMSCOPE_RETURN_IF_ERROR(region->reserve(cap_));
  region_ = std::move(region);
  thread_ = std::thread(
      [region = region_.get(), source = source_, limits = limits_] { region->fill(source, limits); });
  return okStatus();
}

void StreamingFile::stopRegion() {
  if (!region_) return;
  region_->stop();
  thread_.join();
  region_.reset();
}

StreamingFile::~StreamingFile() {
  stopRegion();
}

Result<std::string_view> StreamingFile::through(size_t n) {
  if (!region_) return *restart_error_;
  return region_->through(n);
}

void StreamingFile::release(size_t n) {
  if (region_) region_->release(n);
}

Status StreamingFile::rewind() {
  if (!region_) return *restart_error_;
  if (region_->whole()) return okStatus();
  // The released bytes are gone: decompress again from the start.
  stopRegion();
  if (Status status = startRegion(); !status.ok()) {
    restart_error_ = status.error();
    return status;
  }
  return okStatus();
}

size_t StreamingFile::expectedSize() const {
  return region_ ? region_->expectedSize() : 0;
}

double StreamingFile::threadSeconds() const {
  return region_ ? region_->seconds() : 0;
}

}  // namespace damscope
