// The attach control socket of a process recorded --on-demand: listening,
// the peer check, waiting for requests on all connections at once, and
// serving each window request on its own thread (control_channel.h has the
// protocol; collector_impl.h the class).
#include <poll.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>
#include <string>
#include <thread>
#include <vector>

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
      ::listen(fd, 16) != 0) {
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

namespace {

// A connection accepted but whose request line has not arrived yet.
struct PendingConnection {
  int fd = -1;
  std::string received;
  int64_t deadline_mono = 0;
};

// A connection has this long to send its request; an idle one is closed.
constexpr int64_t kRequestTimeoutNs = 5'000'000'000;
// Connections waiting for their request at once; beyond it the oldest is
// closed, so idle connections can never keep a real attach out.
constexpr size_t kMaxPendingConnections = 64;

}  // namespace

void CollectorImpl::controlMain(int listen_fd) {
  pthread_setname_np(pthread_self(), "damscope-ctl");
  // One thread waits for requests on every connection at once (poll), so an
  // idle connection holds nothing but its slot here; each request that
  // arrives is served on its own thread (an attach waits for its whole
  // window, and meanwhile another must still get its answer).
  std::vector<PendingConnection> pending;
  std::vector<pollfd> fds;
  auto drop = [&](size_t i) {
    ::close(pending[i].fd);
    pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(i));
  };
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_ || writer_done_) break;
    }
    fds.assign(1, pollfd{listen_fd, POLLIN, 0});
    for (const PendingConnection& c : pending) fds.push_back({c.fd, POLLIN, 0});
    if (::poll(fds.data(), fds.size(), 200) < 0 && errno != EINTR) break;
    const int64_t now = nowNs(CLOCK_MONOTONIC);
    // Requests first (from the back, so erasing keeps the indexes of fds).
    for (size_t i = pending.size(); i-- > 0;) {
      PendingConnection& c = pending[i];
      if (fds[i + 1].revents == 0) {
        if (now >= c.deadline_mono) drop(i);
        continue;
      }
      char buffer[512];
      const ssize_t n = ::recv(c.fd, buffer, sizeof(buffer), MSG_DONTWAIT);
      if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
      if (n <= 0 || c.received.size() + static_cast<size_t>(n) > 64 * 1024) {
        drop(i);  // gone, or more than a request line: not attach
        continue;
      }
      c.received.append(buffer, static_cast<size_t>(n));
      const size_t newline = c.received.find('\n');
      if (newline == std::string::npos) continue;
      const int fd = c.fd;
      std::string line = c.received.substr(0, newline);
      std::string rest = c.received.substr(newline + 1);
      pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(i));
      if (connections_.fetch_add(1) >= kMaxConnections) {
        writeAll(fd, "error too many attach connections\n");
        ::close(fd);
        connections_.fetch_sub(1);
        continue;
      }
      try {
        std::thread([this, fd, line = std::move(line), rest = std::move(rest)]() mutable {
          try {
            serveAttach(fd, line, rest);
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
    if (fds[0].revents & POLLIN) {
      const int fd = ::accept4(listen_fd, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) continue;
      if (!peerAllowed(peerUid(fd), getuid())) {
        writeAll(fd, "error permission denied: only uid " + std::to_string(getuid()) +
                         " may attach to this process\n");
        ::close(fd);
        continue;
      }
      if (pending.size() >= kMaxPendingConnections) drop(0);  // the oldest
      pending.push_back({fd, {}, now + kRequestTimeoutNs});
    }
  }
  for (const PendingConnection& c : pending) ::close(c.fd);
  ::close(listen_fd);
}

void CollectorImpl::serveAttach(int fd, const std::string& request_line, std::string pending) {
  bool closed = false;
  std::optional<std::string> line;
  Result<CaptureRequest> request = parseCaptureRequest(request_line);
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
