// The attach control channel: see control_channel.h.
#include "collector/control_channel.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace damscope::collector {

std::string controlDirectory(const GetEnv& getenv, uid_t uid) {
  if (const char* dir = getenv("DAMSCOPE_CONTROL_DIR"); dir && *dir) return dir;
  if (const char* runtime = getenv("XDG_RUNTIME_DIR"); runtime && *runtime) {
    struct stat st;
    if (::stat(runtime, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == uid) {
      return std::string(runtime) + "/damscope";
    }
  }
  return "/tmp/damscope-" + std::to_string(uid);
}

Status ensurePrivateDirectory(const std::string& dir, uid_t uid) {
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    return Error(dir + ": cannot create the control directory: " + std::strerror(errno));
  }
  struct stat st;
  if (::lstat(dir.c_str(), &st) != 0) {
    return Error(dir + ": cannot inspect the control directory: " + std::strerror(errno));
  }
  // Another user could otherwise pre-create the directory (it may live in
  // /tmp) and read or replace the sockets in it.
  if (!S_ISDIR(st.st_mode)) return Error(dir + ": control directory is not a directory");
  if (st.st_uid != uid) {
    return Error(dir + ": control directory belongs to uid " + std::to_string(st.st_uid) +
                 ", not to uid " + std::to_string(uid));
  }
  if ((st.st_mode & 077) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof(mode), "%03o", st.st_mode & 0777);
    return Error(dir + ": control directory has mode " + mode +
                 "; it must be accessible to its owner only (0700)");
  }
  return okStatus();
}

std::string controlSocketPath(const std::string& dir, int64_t pid) {
  return dir + "/" + std::to_string(pid) + ".sock";
}

std::optional<uid_t> peerUid(int fd) {
  ucred credentials{};
  socklen_t size = sizeof(credentials);
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) != 0) return std::nullopt;
  return credentials.uid;
}

bool peerAllowed(std::optional<uid_t> peer, uid_t own) {
  return peer && *peer == own;
}

std::string formatCaptureRequest(const CaptureRequest& request) {
  return "capture duration_ns=" + std::to_string(request.duration_ns) +
         " steps=" + std::to_string(request.steps) + " output=" + request.output;
}

Result<CaptureRequest> parseCaptureRequest(const std::string& line) {
  // "output=" comes last and takes the rest of the line, so paths may hold spaces.
  const std::string prefix = "capture ";
  if (line.compare(0, prefix.size(), prefix) != 0) {
    return Error("unknown request \"" + line.substr(0, 40) + "\"");
  }
  CaptureRequest request;
  const size_t output_at = line.find(" output=");
  if (output_at == std::string::npos) return Error("capture request without output=");
  request.output = line.substr(output_at + 8);
  std::istringstream fields(line.substr(prefix.size(), output_at - prefix.size()));
  std::string field;
  bool have_duration = false, have_steps = false;
  while (fields >> field) {
    const size_t eq = field.find('=');
    const std::string key = field.substr(0, eq),
                      value = eq == std::string::npos ? "" : field.substr(eq + 1);
    char* end = nullptr;
    errno = 0;
    const long long number = std::strtoll(value.c_str(), &end, 10);
    if (value.empty() || *end != '\0' || errno != 0 || number < 0) {
      return Error("capture request: bad value in \"" + field + "\"");
    }
    if (key == "duration_ns") {
      // The window's end is its start plus this: bounded like every window
      // (collector_config.h), so the sum cannot overflow.
      if (number > kMaxWindowNs) {
        return Error("capture request: duration_ns=" + value + " is beyond the limit of " +
                     std::to_string(kMaxWindowNs) + " ns");
      }
      request.duration_ns = number, have_duration = true;
    } else if (key == "steps") {
      request.steps = number, have_steps = true;
    } else {
      return Error("capture request: unknown field \"" + key + "\"");
    }
  }
  if (!have_duration || !have_steps) return Error("capture request without duration_ns= or steps=");
  if (!request.output.empty() && request.output[0] != '/') {
    return Error("capture request: output must be an absolute path: " + request.output);
  }
  return request;
}

std::optional<std::string> readLine(int fd, std::string& pending, int timeout_ms, bool* closed) {
  *closed = false;
  for (;;) {
    if (const size_t newline = pending.find('\n'); newline != std::string::npos) {
      std::string line = pending.substr(0, newline);
      pending.erase(0, newline + 1);
      return line;
    }
    pollfd p{fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, timeout_ms);
    if (ready < 0 && errno == EINTR) return std::nullopt;
    if (ready == 0) return std::nullopt;
    if (ready < 0) {
      *closed = true;
      return std::nullopt;
    }
    char buffer[512];
    const ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      *closed = true;
      return std::nullopt;
    }
    pending.append(buffer, static_cast<size_t>(n));
    // A request is one short line; a peer that sends more is not attach.
    if (pending.size() > 64 * 1024) {
      *closed = true;
      return std::nullopt;
    }
  }
}

bool writeAll(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    // MSG_NOSIGNAL: a vanished peer must not raise SIGPIPE in the target.
    const ssize_t n = ::send(fd, text.data() + done, text.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace damscope::collector
