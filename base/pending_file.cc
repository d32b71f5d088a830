// A file that appears only when complete: see pending_file.h.
#include "base/pending_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <string_view>

namespace damscope {

namespace fs = std::filesystem;

namespace {

constexpr const char* kDatabaseSuffixes[] = {"", "-wal", "-shm", "-journal"};

// The pending files of this process, for removePendingFilesNow: fixed slots
// of fixed size, so that a signal handler reads them without allocating.
// A slot is kReady only while its path is complete.
constexpr size_t kSlots = 64;
constexpr size_t kSlotBytes = 4096;  // PATH_MAX on Linux
enum SlotState : int { kFree, kFilling, kReady };
struct Slot {
  std::atomic<int> state{kFree};
  std::array<char, kSlotBytes> path{};
};
std::array<Slot, kSlots> g_slots;

// Registers `path`; nothing when no slot is free or it is too long (then
// only the later sweep removes it).
void registerPending(const std::string& path) {
  if (path.size() + std::strlen("-journal") >= kSlotBytes) return;
  for (Slot& slot : g_slots) {
    int expected = kFree;
    if (!slot.state.compare_exchange_strong(expected, kFilling)) continue;
    std::memcpy(slot.path.data(), path.c_str(), path.size() + 1);
    slot.state.store(kReady);
    return;
  }
}

void unregisterPending(const std::string& path) {
  for (Slot& slot : g_slots) {
    if (slot.state.load() != kReady || path != slot.path.data()) continue;
    int expected = kReady;
    slot.state.compare_exchange_strong(expected, kFree);
    return;
  }
}

// The pid in a pending file's name, ".damscope-<pid>-<n>.tmp" exactly and
// optionally a database suffix; 0 when the name is not of that pattern.
pid_t pendingFilePid(std::string_view name) {
  constexpr std::string_view kPrefix = ".damscope-";
  if (name.substr(0, kPrefix.size()) != kPrefix) return 0;
  name.remove_prefix(kPrefix.size());
  auto digits = [&name](uint64_t& value) {
    size_t n = 0;
    value = 0;
    while (n < name.size() && n < 10 && name[n] >= '0' && name[n] <= '9') {
      value = value * 10 + static_cast<uint64_t>(name[n] - '0');
      ++n;
    }
    name.remove_prefix(n);
    return n > 0;
  };
  uint64_t pid = 0, counter = 0;
  if (!digits(pid) || name.substr(0, 1) != "-") return 0;
  name.remove_prefix(1);
  if (!digits(counter) || name.substr(0, 4) != ".tmp") return 0;
  name.remove_prefix(4);
  for (const char* suffix : kDatabaseSuffixes) {
    if (name == suffix) return pid > 0 && pid <= INT32_MAX ? static_cast<pid_t>(pid) : 0;
  }
  return 0;
}

}  // namespace

int sweepLeftoverPendingFiles(const std::string& directory) {
  std::error_code ec;
  fs::directory_iterator it(directory.empty() ? "." : directory, ec);
  if (ec) return 0;
  const time_t now = std::time(nullptr);
  int removed = 0;
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) break;
    const std::string name = it->path().filename().string();
    const pid_t pid = pendingFilePid(name);
    if (pid == 0 || pid == ::getpid()) continue;
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::getuid())
      continue;
    if (now - st.st_mtime < kLeftoverAgeSeconds) continue;
    if (::kill(pid, 0) == 0 || errno != ESRCH) continue;
    if (::unlink(it->path().c_str()) == 0 && name.size() > 4 &&
        name.compare(name.size() - 4, 4, ".tmp") == 0) {
      ++removed;
    }
  }
  return removed;
}

void removePendingFilesNow() {
  for (Slot& slot : g_slots) {
    if (slot.state.load() != kReady) continue;
    char path[kSlotBytes];
    const size_t length = std::strlen(slot.path.data());
    for (const char* suffix : kDatabaseSuffixes) {
      std::memcpy(path, slot.path.data(), length);
      std::memcpy(path + length, suffix, std::strlen(suffix) + 1);
      ::unlink(path);
    }
  }
}

void removeDatabaseFiles(const std::string& path) {
  std::error_code ec;
  for (const char* suffix : kDatabaseSuffixes) fs::remove(path + std::string(suffix), ec);
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
  sweepLeftoverPendingFiles(dir.string());
  PendingFile file(final_path, (dir / name).string());
  removeDatabaseFiles(file.temp_);
  registerPending(file.temp_);
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
  if (!temp_.empty()) {
    removeDatabaseFiles(temp_);
    unregisterPending(temp_);
  }
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
  unregisterPending(temp_);
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
