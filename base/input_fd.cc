// Opening a file the user named: see input_fd.h.
#include "base/input_fd.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace damscope {

Result<InputFd> InputFd::open(const std::string& path) {
  // O_NONBLOCK: opening a FIFO for reading otherwise waits for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return Error(path + ": cannot open: " + std::strerror(errno));
  InputFd file(fd, 0, path);
  struct stat st {};
  if (::fstat(fd, &st) != 0) return Error(path + ": cannot open: " + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) return Error(path + ": is a directory");
  if (!S_ISREG(st.st_mode)) {
    return Error(path + ": is not a regular file (a FIFO, a device or a socket)");
  }
  // Back to blocking reads: a regular file never blocks, but a reader must
  // not meet EAGAIN from a file system that honours the flag.
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
    return Error(path + ": cannot open: " + std::strerror(errno));
  }
  file.size_bytes_ = static_cast<size_t>(st.st_size);
  return file;
}

InputFd::InputFd(InputFd&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      size_bytes_(other.size_bytes_),
      path_(std::move(other.path_)) {}

InputFd& InputFd::operator=(InputFd&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    size_bytes_ = other.size_bytes_;
    path_ = std::move(other.path_);
  }
  return *this;
}

InputFd::~InputFd() {
  if (fd_ >= 0) ::close(fd_);
}

Result<size_t> InputFd::read(char* into, size_t n) const {
  size_t got = 0;
  while (got < n) {
    const ssize_t r = ::read(fd_, into + got, n - got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return Error(path_ + ": read error: " + std::strerror(errno));
    if (r == 0) break;
    got += static_cast<size_t>(r);
  }
  return got;
}

Status checkRegularFile(const std::string& path) {
  DAMSCOPE_RETURN_IF_ERROR(InputFd::open(path));
  return okStatus();
}

}  // namespace damscope
