// The TCP rendezvous of rendezvous.h. Every socket is non-blocking and every
// wait is a poll() bounded by the one deadline, so that no rank hangs past
// the timeout whatever its peers do.
#include "reference_workloads/gpt2/dist/rendezvous.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

namespace damscope::gpt2 {
namespace {

using Clock = std::chrono::steady_clock;

constexpr uint8_t kMagic[4] = {'D', 'M', 'S', 'R'};
constexpr size_t kHelloBytes = 12;   // magic, rank, world size
constexpr size_t kHeaderBytes = 12;  // magic, world size, blob length
constexpr uint32_t kMaxBlobBytes = 64 * 1024;

// Owns a file descriptor.
class Socket {
 public:
  explicit Socket(int fd = -1) : fd_(fd) {}
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  ~Socket() {
    if (fd_ >= 0) close(fd_);
  }
  int fd() const { return fd_; }
  // Gives the descriptor up to the caller.
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_;
};

std::string errnoText(int error) {
  return std::strerror(error);
}

std::string seconds(std::chrono::milliseconds d) {
  char text[32];
  std::snprintf(text, sizeof text, "%g s", static_cast<double>(d.count()) / 1000.0);
  return text;
}

std::string endpoint(const RankEnvironment& env) {
  return env.master_addr + ":" + std::to_string(env.master_port);
}

int remainingMs(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return left.count() > 0 ? static_cast<int>(left.count()) : 0;
}

Status setNonBlocking(int fd) {
  const int flags = fcntl(fd, F_GETFL, 0);
  if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
    return Error("fcntl(O_NONBLOCK): " + errnoText(errno), ErrorCode::kFailure);
  return okStatus();
}

// True when `fd` is ready for `events` before the deadline.
Result<bool> waitReady(int fd, short events, Clock::time_point deadline) {
  while (true) {
    pollfd p{fd, events, 0};
    const int n = poll(&p, 1, remainingMs(deadline));
    if (n > 0) return true;
    if (n == 0) return false;
    if (errno != EINTR) return Error("poll: " + errnoText(errno), ErrorCode::kFailure);
  }
}

Status sendAll(int fd, const std::vector<uint8_t>& bytes, Clock::time_point deadline) {
  size_t sent = 0;
  while (sent < bytes.size()) {
    DAMSCOPE_ASSIGN_OR_RETURN(const bool ready, waitReady(fd, POLLOUT, deadline));
    if (!ready) return Error("timed out sending", ErrorCode::kFailure);
    // MSG_NOSIGNAL: a peer that went away is an error value, not SIGPIPE.
    const ssize_t n = send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK)
      return Error("send: " + errnoText(errno), ErrorCode::kFailure);
    if (n > 0) sent += static_cast<size_t>(n);
  }
  return okStatus();
}

Result<std::vector<uint8_t>> receive(int fd, size_t count, Clock::time_point deadline) {
  std::vector<uint8_t> bytes(count);
  size_t got = 0;
  while (got < count) {
    DAMSCOPE_ASSIGN_OR_RETURN(const bool ready, waitReady(fd, POLLIN, deadline));
    if (!ready) return Error("timed out receiving", ErrorCode::kFailure);
    const ssize_t n = recv(fd, bytes.data() + got, count - got, 0);
    if (n == 0) return Error("the peer closed the connection", ErrorCode::kFailure);
    if (n < 0 && errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK)
      return Error("recv: " + errnoText(errno), ErrorCode::kFailure);
    if (n > 0) got += static_cast<size_t>(n);
  }
  return bytes;
}

void putU32(std::vector<uint8_t>& out, uint32_t x) {
  const uint32_t big = htonl(x);
  const auto* p = reinterpret_cast<const uint8_t*>(&big);
  out.insert(out.end(), p, p + 4);
}

uint32_t getU32(const std::vector<uint8_t>& in, size_t at) {
  uint32_t big = 0;
  std::memcpy(&big, in.data() + at, 4);
  return ntohl(big);
}

bool hasMagic(const std::vector<uint8_t>& in) {
  return std::memcmp(in.data(), kMagic, sizeof kMagic) == 0;
}

std::vector<uint8_t> withMagic() {
  return std::vector<uint8_t>(kMagic, kMagic + sizeof kMagic);
}

// Rank 0: accepts world_size - 1 ranks, one after another, and answers each.
Status serve(const RankEnvironment& env, const std::vector<uint8_t>& blob,
             const RendezvousOptions& options) {
  const std::string where = "rendezvous: rank 0 on port " + std::to_string(env.master_port);
  Socket listener(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (listener.fd() < 0) return Error(where + ": socket: " + errnoText(errno), ErrorCode::kFailure);
  // SO_REUSEADDR: a job restarted at once reuses the port its predecessor
  // left in TIME_WAIT.
  const int one = 1;
  setsockopt(listener.fd(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_ANY);
  address.sin_port = htons(static_cast<uint16_t>(env.master_port));
  if (bind(listener.fd(), reinterpret_cast<const sockaddr*>(&address), sizeof address) < 0)
    return Error(where + ": cannot listen (" + errnoText(errno) + ")", ErrorCode::kFailure);
  if (listen(listener.fd(), env.world_size) < 0)
    return Error(where + ": listen: " + errnoText(errno), ErrorCode::kFailure);
  DAMSCOPE_RETURN_IF_ERROR(setNonBlocking(listener.fd()));

  std::vector<uint8_t> reply = withMagic();
  putU32(reply, static_cast<uint32_t>(env.world_size));
  putU32(reply, static_cast<uint32_t>(blob.size()));
  reply.insert(reply.end(), blob.begin(), blob.end());

  const Clock::time_point deadline = Clock::now() + options.timeout;
  std::vector<bool> joined(env.world_size, false);
  int waiting = env.world_size - 1;
  while (waiting > 0) {
    DAMSCOPE_ASSIGN_OR_RETURN(const bool ready, waitReady(listener.fd(), POLLIN, deadline));
    if (!ready)
      return Error(where + ": " + std::to_string(env.world_size - 1 - waiting) + " of " +
                       std::to_string(env.world_size - 1) + " ranks connected within " +
                       seconds(options.timeout),
                   ErrorCode::kFailure);
    Socket peer(accept4(listener.fd(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC));
    if (peer.fd() < 0) {
      if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK || errno == ECONNABORTED)
        continue;
      return Error(where + ": accept: " + errnoText(errno), ErrorCode::kFailure);
    }
    Result<std::vector<uint8_t>> hello = receive(peer.fd(), kHelloBytes, deadline);
    // A connection that is not a rank's (a port scanner, another service's
    // client) is dropped; rank 0 keeps waiting for its own ranks.
    if (!hello.ok() || !hasMagic(*hello)) continue;
    const uint32_t rank = getU32(*hello, 4);
    const uint32_t world_size = getU32(*hello, 8);
    // Answered even on a mismatch: the other rank then reports it too.
    DAMSCOPE_RETURN_IF_ERROR(sendAll(peer.fd(), reply, deadline));
    if (world_size != static_cast<uint32_t>(env.world_size))
      return Error(where + ": a rank says WORLD_SIZE=" + std::to_string(world_size) +
                   ", this one " + std::to_string(env.world_size));
    if (rank == 0 || rank >= world_size)
      return Error(where + ": a rank says it is rank " + std::to_string(rank));
    if (joined[rank])
      return Error(where + ": two processes say they are rank " + std::to_string(rank));
    joined[rank] = true;
    --waiting;
  }
  return okStatus();
}

// Connects to rank 0, retrying while it refuses or is unreachable.
Result<int> connectToRankZero(const RankEnvironment& env, const RendezvousOptions& options,
                              Clock::time_point deadline, const std::string& where) {
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const std::string port = std::to_string(env.master_port);
  const int resolved = getaddrinfo(env.master_addr.c_str(), port.c_str(), &hints, &found);
  if (resolved != 0)
    return Error(where + ": cannot resolve " + env.master_addr + " (" + gai_strerror(resolved) +
                 ")");
  sockaddr_in address{};
  std::memcpy(&address, found->ai_addr, sizeof address);
  freeaddrinfo(found);

  std::string last_error = "no attempt";
  while (true) {
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return Error(where + ": socket: " + errnoText(errno), ErrorCode::kFailure);
    Socket attempt(fd);
    int error = 0;
    if (connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) < 0) {
      error = errno;
      if (error == EINPROGRESS) {
        DAMSCOPE_ASSIGN_OR_RETURN(const bool ready, waitReady(fd, POLLOUT, deadline));
        socklen_t length = sizeof error;
        if (!ready)
          error = ETIMEDOUT;
        else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) < 0)
          error = errno;
      }
    }
    if (error == 0) return attempt.release();
    last_error = errnoText(error);
    if (Clock::now() + options.retry_interval >= deadline) break;
    std::this_thread::sleep_for(options.retry_interval);
  }
  return Error(where + ": could not reach rank 0 at " + endpoint(env) + " within " +
                   seconds(options.timeout) + " (" + last_error + ")",
               ErrorCode::kFailure);
}

Result<std::vector<uint8_t>> fetch(const RankEnvironment& env, const RendezvousOptions& options) {
  const std::string where = "rendezvous: rank " + std::to_string(env.rank);
  const Clock::time_point deadline = Clock::now() + options.timeout;
  DAMSCOPE_ASSIGN_OR_RETURN(const int fd, connectToRankZero(env, options, deadline, where));
  Socket connection(fd);
  const std::string from = where + ": from rank 0 at " + endpoint(env);

  std::vector<uint8_t> hello = withMagic();
  putU32(hello, static_cast<uint32_t>(env.rank));
  putU32(hello, static_cast<uint32_t>(env.world_size));
  if (Status sent = sendAll(fd, hello, deadline); !sent.ok()) return sent.error().withContext(from);
  Result<std::vector<uint8_t>> header = receive(fd, kHeaderBytes, deadline);
  if (!header.ok()) return header.error().withContext(from);
  if (!hasMagic(*header))
    return Error(from + ": the peer is not a damscope rendezvous (another job on the port?)");
  const uint32_t world_size = getU32(*header, 4);
  const uint32_t length = getU32(*header, 8);
  if (world_size != static_cast<uint32_t>(env.world_size))
    return Error(from + ": rank 0 says WORLD_SIZE=" + std::to_string(world_size) + ", this rank " +
                 std::to_string(env.world_size));
  if (length > kMaxBlobBytes)
    return Error(from + ": a " + std::to_string(length) + "-byte blob is over the " +
                 std::to_string(kMaxBlobBytes) + "-byte limit");
  Result<std::vector<uint8_t>> blob = receive(fd, length, deadline);
  if (!blob.ok()) return blob.error().withContext(from);
  return blob;
}

}  // namespace

Result<std::vector<uint8_t>> shareFromRankZero(const RankEnvironment& env,
                                               const std::vector<uint8_t>& blob,
                                               const RendezvousOptions& options) {
  if (env.world_size == 1) return blob;
  if (env.rank != 0) return fetch(env, options);
  if (blob.size() > kMaxBlobBytes)
    return Error("rendezvous: a " + std::to_string(blob.size()) + "-byte blob is over the " +
                 std::to_string(kMaxBlobBytes) + "-byte limit");
  DAMSCOPE_RETURN_IF_ERROR(serve(env, blob, options));
  return blob;
}

}  // namespace damscope::gpt2
