// A file that appears under its final name only when it is complete: it is
// written under a temporary name in the same directory (so the final rename
// is atomic) and renamed by commit(); destroyed without commit(), it removes
// everything it wrote. Imports use it so that a failed or cancelled import
// leaves nothing behind, and `analyze` keeps a fresh import pending until its
// results are stored in it, so a run.db either holds events and analysis or
// does not exist.
//
// SQLite writes -wal and -shm files beside a database; they belong to it. The
// temporary file's are removed with it, and commit() removes the final path's
// leftovers before the rename, so a new database never meets the log of the
// file it replaces.
#pragma once

#include <string>

#include "base/result.h"

namespace damscope {

class PendingFile {
 public:
  // Fails with ErrorCode::kOutputExists when `final_path` exists and
  // `replace` is false, and when it is a directory.
  static Result<PendingFile> create(const std::string& final_path, bool replace);

  PendingFile(PendingFile&& other) noexcept;
  PendingFile& operator=(PendingFile&& other) noexcept;
  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;
  ~PendingFile();

  const std::string& path() const { return final_; }
  // Where to write until commit(). Short, whatever the final name's length:
  // a temporary name must fit NAME_MAX however long the final one is.
  const std::string& tempPath() const { return temp_; }

  // Moves the temporary file into place. Errors name the final path.
  Status commit();

  // Replaces the temporary path in `message` by the final one: errors of the
  // writer name the file the user asked for.
  std::string userMessage(const std::string& message) const;

 private:
  PendingFile(std::string final_path, std::string temp)
      : final_(std::move(final_path)), temp_(std::move(temp)) {}
  void discard();

  std::string final_;
  std::string temp_;  // empty once committed or moved from
};

// Removes `path` and its SQLite -wal and -shm files, if they exist.
void removeDatabaseFiles(const std::string& path);

}  // namespace damscope
