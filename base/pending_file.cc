// A file that appears only when complete: see pending_file.h.
#include "base/pending_file.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace damscope {

namespace fs = std::filesystem;

void removeDatabaseFiles(const std::string& path) {
  std::error_code ec;
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(path + suffix, ec);
}

Result<PendingFile> PendingFile::create(const std::string& final_path, bool replace) {
  std::error_code ec;
  if (fs::is_directory(final_path, ec)) return Error(final_path + ": output is a directory");
  if (!replace && fs::exists(final_path, ec)) {
    return Error(final_path + ": output exists", ErrorCode::kOutputExists);
  }
  // ".damscope-<pid>-<n>.tmp" beside the final file: hidden, short, and
  // unique among the pending files of every process.
  static std::atomic<int> counter{0};
  const fs::path dir = fs::path(final_path).parent_path();
  const std::string name = ".damscope-" + std::to_string(::getpid()) + "-" +
                           std::to_string(counter.fetch_add(1)) + ".tmp";
  PendingFile file(final_path, (dir / name).string());
  removeDatabaseFiles(file.temp_);
  return file;
}

PendingFile::PendingFile(PendingFile&& other) noexcept
    : final_(std::move(other.final_)), temp_(std::exchange(other.temp_, {})) {}

PendingFile& PendingFile::operator=(PendingFile&& other) noexcept {
  if (this != &other) {
    discard();
    final_ = std::move(other.final_);
    temp_ = std::exchange(other.temp_, {});
  }
  return *this;
}

PendingFile::~PendingFile() {
  discard();
}

void PendingFile::discard() {
  if (!temp_.empty()) removeDatabaseFiles(temp_);
  temp_.clear();
}

Status PendingFile::commit() {
  if (temp_.empty()) return Error(final_ + ": nothing to move into place", ErrorCode::kFailure);
  // The temporary database is closed; its -wal is checkpointed away. Leftover
  // logs of the file being replaced would be replayed into the new one.
  std::error_code ec;
  for (const char* suffix : {"-wal", "-shm", "-journal"}) fs::remove(final_ + suffix, ec);
  if (std::rename(temp_.c_str(), final_.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    discard();
    return Error(final_ + ": cannot move the finished file into place: " + reason,
                 ErrorCode::kFailure);
  }
  for (const char* suffix : {"-wal", "-shm"}) fs::remove(temp_ + suffix, ec);
  temp_.clear();
  return okStatus();
}

std::string PendingFile::userMessage(const std::string& message) const {
  std::string out = message;
  if (temp_.empty()) return out;
  for (size_t at = out.find(temp_); at != std::string::npos; at = out.find(temp_, at)) {
    out.replace(at, temp_.size(), final_);
    at += final_.size();
  }
  return out;
}

}  // namespace damscope
