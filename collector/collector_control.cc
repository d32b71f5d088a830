// The attach control socket of a process recorded --on-demand: listening,
// one thread per connection, the peer check, and serving one window request
// (control_channel.h has the protocol; collector_impl.h the class).
#include <poll.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>
#include <thread>

#include "collector/collector_impl.h"

namespace damscope::collector {

// --- Control socket ------------------------------------------------------------------

void CollectorImpl::setupControlSocket() {
  const uid_t uid = getuid();
  const std::string dir =
      config_.control_dir.empty() ? controlDirectory(&envOrNull, uid) : config_.control_dir;
  if (Status s = ensurePrivateDirectory(dir, uid); !s.ok()) {
    say(s.error().message() + "; `damscope attach` cannot reach this process");
    return;
  }
  const std::string path = controlSocketPath(dir, process_.pid);
  sockaddr_un address{};
  if (path.size() >= sizeof(address.sun_path)) {
    say(path + ": control socket path too long; `damscope attach` cannot reach this process");
    return;
  }
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    say(std::string("cannot create the control socket: ") + std::strerror(errno));
    return;
  }
  address.sun_family = AF_UNIX;
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  ::unlink(path.c_str());  // left by an earlier process with this pid
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 ||
      ::listen(fd, 4) != 0) {
    say(path + ": cannot listen for attach: " + std::strerror(errno));
    ::close(fd);
    return;
  }
  socket_path_ = path;
  try {
    std::thread([this, fd] { controlMain(fd); }).detach();
  } catch (...) {
    say("cannot start the control thread; `damscope attach` cannot reach this process");
    ::close(fd);
  }
}

void CollectorImpl::controlMain(int listen_fd) {
  pthread_setname_np(pthread_self(), "damscope-ctl");
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_ || writer_done_) break;
    }
    pollfd p{listen_fd, POLLIN, 0};
    if (::poll(&p, 1, 200) <= 0) continue;
    const int fd = ::accept4(listen_fd, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    // Each connection on its own thread: an attach waits for its whole
    // window, and meanwhile another must still get its answer.
    if (connections_.fetch_add(1) >= kMaxConnections) {
      writeAll(fd, "error too many attach connections\n");
      ::close(fd);
      connections_.fetch_sub(1);
      continue;
    }
    try {
      std::thread([this, fd] {
        try {
          serveAttach(fd);
        } catch (...) {
          // A failed attach must not take the process down.
        }
        ::close(fd);
        connections_.fetch_sub(1);
      }).detach();
    } catch (...) {
      ::close(fd);
      connections_.fetch_sub(1);
    }
  }
  ::close(listen_fd);
}

void CollectorImpl::serveAttach(int fd) {
  if (!peerAllowed(peerUid(fd), getuid())) {
    writeAll(fd, "error permission denied: only uid " + std::to_string(getuid()) +
                     " may attach to this process\n");
    return;
  }
  std::string pending;
  bool closed = false;
  std::optional<std::string> line = readLine(fd, pending, 5000, &closed);
  if (!line) return;
  Result<CaptureRequest> request = parseCaptureRequest(*line);
  if (!request.ok()) {
    writeAll(fd, "error " + request.error().message() + "\n");
    return;
  }
  AttachJob job;
  job.request = request.value();
  {
    std::unique_lock<std::mutex> lock(mutex_);
    if (job_) {
      writeAll(fd, "error a capture window is already open in this process\n");
      return;
    }
    job_ = &job;
    cv_.notify_all();
    cv_.wait(lock, [&] { return job.state != AttachJob::State::kQueued || writer_done_; });
    if (job.state == AttachJob::State::kQueued) {
      job_ = nullptr;
      writeAll(fd, "error the process is exiting\n");
      return;
    }
  }
  if (job.state == AttachJob::State::kRejected) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job_ = nullptr;
    }
    writeAll(fd, "error " + job.message + "\n");
    return;
  }
  bool client_present = writeAll(fd, "started " + job.message + "\n");
  // Wait for the window to close, passing on "stop" or a vanished client
  // (an attach that is gone must not leave the process recording).
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (job.state == AttachJob::State::kDone || writer_done_) break;
      if (!client_present) job.stop = true;
    }
    if (client_present) {
      line = readLine(fd, pending, 100, &closed);
      if (line && *line == "stop") {
        std::lock_guard<std::mutex> lock(mutex_);
        job.stop = true;
      }
      if (closed) client_present = false;
    } else {
      std::unique_lock<std::mutex> lock(mutex_);
      cv_.wait_for(lock, std::chrono::milliseconds(100));
    }
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = nullptr;
    if (job.state != AttachJob::State::kDone) job.summary = "error=process_exiting";
  }
  if (client_present) writeAll(fd, "done " + job.message + " " + job.summary + "\n");
}

}  // namespace damscope::collector
