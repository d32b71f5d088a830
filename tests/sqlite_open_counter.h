// Counts how often SQLite opens each database file, for tests that hold the
// pipeline to opening an input's run.db once (analyzer/pipeline/pipeline.h).
// While a SqliteOpenCounter lives, it is SQLite's default VFS: a copy of the
// default one (unix) whose xOpen counts the main database files it opens,
// then opens them as the real one does. No production code knows of it.
#pragma once

#include <sqlite3.h>

#include <filesystem>
#include <map>
#include <mutex>
#include <string>

namespace damscope::testing {

class SqliteOpenCounter {
 public:
  SqliteOpenCounter() {
    real_ = sqlite3_vfs_find(nullptr);
    vfs_ = *real_;  // every other method, and pAppData, as the real VFS has them
    vfs_.zName = "damscope-open-counter";
    vfs_.pNext = nullptr;
    vfs_.xOpen = &SqliteOpenCounter::open;
    current() = this;
    sqlite3_vfs_register(&vfs_, /*makeDflt=*/1);
  }
  ~SqliteOpenCounter() {
    sqlite3_vfs_unregister(&vfs_);
    sqlite3_vfs_register(real_, 1);
    current() = nullptr;
  }
  SqliteOpenCounter(const SqliteOpenCounter&) = delete;
  SqliteOpenCounter& operator=(const SqliteOpenCounter&) = delete;

  // Opens of `path` as a main database so far.
  int opens(const std::string& path) const {
    std::lock_guard lock(mutex_);
    auto it = counts_.find(canonical(path));
    return it == counts_.end() ? 0 : it->second;
  }
  void reset() {
    std::lock_guard lock(mutex_);
    counts_.clear();
  }

 private:
  static SqliteOpenCounter*& current() {
    static SqliteOpenCounter* counter = nullptr;
    return counter;
  }
  static std::string canonical(const std::string& path) {
    std::error_code ec;
    const std::filesystem::path p = std::filesystem::weakly_canonical(path, ec);
    return ec ? path : p.string();
  }
  static int open(sqlite3_vfs*, sqlite3_filename name, sqlite3_file* file, int flags,
                  int* out_flags) {
    SqliteOpenCounter* self = current();
    if (name && (flags & SQLITE_OPEN_MAIN_DB)) {
      std::lock_guard lock(self->mutex_);
      ++self->counts_[canonical(name)];
    }
    return self->real_->xOpen(self->real_, name, file, flags, out_flags);
  }

  sqlite3_vfs* real_ = nullptr;
  sqlite3_vfs vfs_{};
  mutable std::mutex mutex_;
  std::map<std::string, int> counts_;
};

}  // namespace damscope::testing
