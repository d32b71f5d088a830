// A .gz file decompressed on a second thread: see inflating_file.h.
#include "analyzer/importers/inflating_file.h"

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <optional>

namespace damscope {

class InflatingFile::Region final : public InflateSink {
 public:
  Region(std::string path, size_t padding, const Progress& progress)
      : path_(std::move(path)), padding_(padding), progress_(progress) {}
  ~Region() override {
    if (base_) ::munmap(base_, mapped_);
  }

  // Reserves address space for `cap` bytes, one past them and the padding.
  // MAP_NORESERVE: no memory is committed for it, only for the pages the
  // stream writes (mmap(2)), so a cap of gigabytes costs nothing, unless
  // address space itself is limited (ulimit -v).
  Status reserve(size_t cap) {
    const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    const size_t want = (cap + 1 + padding_ + page - 1) / page * page;
    void* base = ::mmap(nullptr, want, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED) {
      return Error(path_ + ": cannot reserve " + std::to_string(want) +
                   " bytes of address space for the decompressed trace: " + std::strerror(errno),
                   ErrorCode::kFailure);
    }
    // Huge pages where the system allows them on request: one fault per 2 MiB
    // instead of 512.
    ::madvise(base, want, MADV_HUGEPAGE);
    base_ = static_cast<char*>(base), mapped_ = want;
    return okStatus();
  }

  Status begin(size_t, size_t trailer_bytes, size_t cap) override {
    // The cap follows the file's size, read again by the decompression.
    if (cap + 1 + padding_ > mapped_) return Error(path_ + ": the file grew while it was read");
    std::lock_guard<std::mutex> lock(mutex_);
    trailer_bytes_ = trailer_bytes;
    return okStatus();
  }
  std::span<char> room(size_t produced, size_t most) override {
    return std::span<char>(base_ + produced, most - produced);
  }
  Status publish(size_t produced) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      produced_ = produced;
    }
    grown_.notify_all();
    if (stop_.load(std::memory_order_relaxed) || progress_.cancelled()) return cancelledError();
    return okStatus();
  }

  // The thread's work: the whole stream, then its outcome for the reader.
  void inflate(const InflateLimits& limits) {
    pthread_setname_np(pthread_self(), "gunzip");  // as top and perf show it
    const auto start = std::chrono::steady_clock::now();
    Result<size_t> size = gunzipFile(path_, *this, Progress(), limits);
    std::lock_guard<std::mutex> lock(mutex_);
    if (size.ok()) {
      produced_ = size.value();  // the bytes after it were never written: zeros, the padding
    } else {
      error_ = size.error();
    }
    seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ended_ = true;
    grown_.notify_all();
  }

  Result<std::string_view> through(size_t n) {
    std::unique_lock<std::mutex> lock(mutex_);
    grown_.wait(lock, [&] { return ended_ || produced_ > n || error_; });
    if (error_) return *error_;
    return std::string_view(base_, produced_);
  }
  size_t expectedSize() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return ended_ ? produced_ : std::max(trailer_bytes_, produced_);
  }
  double seconds() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return seconds_;
  }
  void stop() { stop_.store(true, std::memory_order_relaxed); }

 private:
  const std::string path_;
  const size_t padding_;
  const Progress progress_;  // for its cancellation only
  std::atomic<bool> stop_{false};

  mutable std::mutex mutex_;
  std::condition_variable grown_;
  char* base_ = nullptr;
  size_t mapped_ = 0;
  size_t trailer_bytes_ = 0;
  size_t produced_ = 0;
  bool ended_ = false;
  std::optional<Error> error_;
  double seconds_ = 0;
};

Result<std::unique_ptr<InflatingFile>> InflatingFile::start(std::string path, size_t padding,
                                                           const Progress& progress,
                                                           const InflateLimits& limits) {
  DAMSCOPE_ASSIGN_OR_RETURN(size_t size, checkInputFile(path));
  auto region = std::make_unique<Region>(std::move(path), padding, progress);
  DAMSCOPE_RETURN_IF_ERROR(region->reserve(limits.capFor(size)));
  return std::unique_ptr<InflatingFile>(new InflatingFile(std::move(region), limits));
}

InflatingFile::InflatingFile(std::unique_ptr<Region> region, const InflateLimits& limits)
    : region_(std::move(region)),
      thread_([region = region_.get(), limits] { region->inflate(limits); }) {}

InflatingFile::~InflatingFile() {
  region_->stop();
  thread_.join();
}

Result<std::string_view> InflatingFile::through(size_t n) {
  return region_->through(n);
}

size_t InflatingFile::expectedSize() const {
  return region_->expectedSize();
}

double InflatingFile::inflateSeconds() const {
  return region_->seconds();
}

}  // namespace damscope
