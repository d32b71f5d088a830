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
//
// A process that dies before it commits or discards (SIGKILL, a crash, the
// power) leaves its pending file behind, up to the size of a whole import.
// Leftovers are removed later: create() sweeps the directory it writes in
// (sweepLeftoverPendingFiles). And the cancel handler of the CLI removes the
// pending files of a process that a second Ctrl-C kills
// (removePendingFilesNow).
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

// How old a leftover's newest write must be before a sweep removes it. The
// pid in a pending file's name proves nothing across hosts (a directory on
// NFS) or PID namespaces (containers sharing a volume), where another live
// process may write it: a writer that has written nothing for this long is
// taken for dead. An import writes continuously; what follows it before the
// commit (the analysis) takes seconds to a few minutes on the largest traces
// of ../shared/traces.
constexpr int kLeftoverAgeSeconds = 15 * 60;

// Removes the pending files in `directory` that a process left when it
// died: a name of the exact pattern ".damscope-<pid>-<n>.tmp" (and its
// -wal, -shm, -journal), owned by this user, whose pid is not this process
// and is not alive (kill(pid, 0) fails with ESRCH; a pid reused by a live
// process keeps the file, the safe side), last written more than
// kLeftoverAgeSeconds ago. Returns how many pending files it removed.
int sweepLeftoverPendingFiles(const std::string& directory);

// Removes every pending file of this process now, without committing: for
// a signal handler that is about to end the process. Async-signal-safe
// (unlink(2) of paths built when each file was created).
void removePendingFilesNow();

}  // namespace damscope
