// Opening a file the user named, for reading: the one door every input goes
// through (trace files, run.dbs, the trainer's data and checkpoints). It
// refuses what is not a regular file before a byte is read: a FIFO blocks
// the reader until a writer comes (forever, when none does), a character
// device such as /dev/zero never ends, and a directory cannot be read.
// The check is made on the opened descriptor (open with O_NONBLOCK, which
// makes the open of a FIFO return at once, then fstat), so a path swapped
// for a FIFO between a check and the open cannot slip through; symbolic
// links to regular files are followed as usual.
#pragma once

#include <cstddef>
#include <string>

#include "base/result.h"

namespace damscope {

class InputFd {
 public:
  // Opens `path` for reading. Errors name the path: missing or unreadable
  // (the system's reason), "is a directory", "is not a regular file (a FIFO,
  // a device or a socket)".
  static Result<InputFd> open(const std::string& path);

  InputFd(InputFd&& other) noexcept;
  InputFd& operator=(InputFd&& other) noexcept;
  InputFd(const InputFd&) = delete;
  InputFd& operator=(const InputFd&) = delete;
  ~InputFd();

  int fd() const { return fd_; }
  // The file's size when it was opened, in bytes.
  size_t sizeBytes() const { return size_bytes_; }

  // Reads up to `n` bytes at the current offset, retrying on EINTR; fewer
  // only at the end of the file. Errors name `path_`.
  Result<size_t> read(char* into, size_t n) const;

 private:
  InputFd(int fd, size_t size_bytes, std::string path)
      : fd_(fd), size_bytes_(size_bytes), path_(std::move(path)) {}

  int fd_ = -1;
  size_t size_bytes_ = 0;
  std::string path_;
};

// Fails unless `path` is a regular file that can be opened for reading (the
// checks of InputFd::open, for a reader such as SQLite that opens the file
// itself).
Status checkRegularFile(const std::string& path);

}  // namespace damscope
