// `damscope attach`: see attach_client.h.
#include "collector/attach_client.h"

#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "collector/control_channel.h"

namespace damscope::collector {
namespace {

const char* envOrNull(const char* name) {
  return std::getenv(name);
}

bool fail(AttachError* error, AttachError::Kind kind, std::string message) {
  *error = {kind, std::move(message)};
  return false;
}

}  // namespace

bool runAttach(const AttachOptions& options,
               const std::function<void(const std::string&)>& on_started,
               const std::function<bool()>& interrupted, AttachOutcome* outcome,
               AttachError* error) {
  const std::string who = std::to_string(options.pid);
  if (options.pid <= 0) return fail(error, AttachError::kBadInput, who + ": not a process id");
  Result<int64_t> duration_ns = windowSecondsToNs("--duration", options.duration_s);
  if (!duration_ns.ok()) return fail(error, AttachError::kBadInput, duration_ns.error().message());
  if (options.steps < 0) return fail(error, AttachError::kBadInput, "--steps: must be >= 0");
  if (::kill(static_cast<pid_t>(options.pid), 0) != 0 && errno == ESRCH) {
    return fail(error, AttachError::kBadInput, who + ": no such process");
  }
  // Another user's process keeps its socket in that user's private directory,
  // where our search would find nothing; and its collector answers only its
  // own user (root included). Say so, rather than "no control socket".
  const uid_t uid = getuid();
  struct stat process_stat;
  if (::stat(("/proc/" + who).c_str(), &process_stat) == 0 && process_stat.st_uid != uid) {
    return fail(error, AttachError::kBadInput,
                who + ": permission denied: the process belongs to uid " +
                    std::to_string(process_stat.st_uid) + ", and only its own user may attach");
  }
  CaptureRequest request;
  request.duration_ns = duration_ns.value();
  request.steps = options.steps;
  if (!options.output.empty()) {
    std::error_code ec;
    request.output = std::filesystem::absolute(options.output, ec).lexically_normal().string();
    if (std::filesystem::exists(request.output, ec)) {
      return fail(error, AttachError::kBadInput, request.output + ": output exists");
    }
    if (request.output.find('\n') != std::string::npos) {
      return fail(error, AttachError::kBadInput, "-o: a file name may not contain a newline");
    }
  }

  // The socket may sit in any of the places the target could have chosen
  // (its environment may differ from ours): try them in order.
  std::vector<std::string> dirs;
  if (const char* d = envOrNull("DAMSCOPE_CONTROL_DIR"); d && *d) dirs.push_back(d);
  if (const char* r = envOrNull("XDG_RUNTIME_DIR"); r && *r)
    dirs.push_back(std::string(r) + "/damscope");
  dirs.push_back("/tmp/damscope-" + std::to_string(uid));
  std::string socket_path, dir_problem;
  for (const std::string& dir : dirs) {
    const std::string candidate = controlSocketPath(dir, options.pid);
    struct stat st;
    if (::lstat(candidate.c_str(), &st) != 0) {
      if (errno == EACCES || errno == EPERM) {
        dir_problem = candidate + ": permission denied";
      }
      continue;
    }
    if (!S_ISSOCK(st.st_mode)) continue;
    // Only talk through a directory nobody else controls.
    struct stat dir_stat;
    if (::lstat(dir.c_str(), &dir_stat) != 0 || !S_ISDIR(dir_stat.st_mode) ||
        dir_stat.st_uid != uid || (dir_stat.st_mode & 077) != 0) {
      dir_problem = dir + ": control directory is not private to uid " + std::to_string(uid);
      continue;
    }
    socket_path = candidate;
    break;
  }
  if (socket_path.empty()) {
    return fail(
        error, AttachError::kBadInput,
        dir_problem.empty()
            ? who +
                  ": no damscope control socket (start the program with `damscope "
                  "record --on-demand`; the collector starts at its first CUDA or NVTX call)"
            : dir_problem);
  }

  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return fail(error, AttachError::kRefused, std::string("socket: ") + std::strerror(errno));
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::memcpy(address.sun_path, socket_path.c_str(), socket_path.size() + 1);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
    const int connect_errno = errno;
    ::close(fd);
    return fail(
        error, AttachError::kBadInput,
        who + ": cannot connect to " + socket_path + ": " + std::strerror(connect_errno) +
            (connect_errno == EACCES || connect_errno == EPERM ? ""
                                                               : " (the process may have exited)"));
  }
  auto finish = [&](bool ok) {
    ::close(fd);
    return ok;
  };
  if (!writeAll(fd, formatCaptureRequest(request) + "\n")) {
    return finish(fail(error, AttachError::kRefused, who + ": the process closed the connection"));
  }
  std::string pending;
  bool closed = false;
  bool started = false, stop_sent = false;
  for (;;) {
    std::optional<std::string> line = readLine(fd, pending, 100, &closed);
    if (!line) {
      if (closed) {
        return finish(fail(error, AttachError::kRefused,
                           who + ": the process closed the connection before the window was "
                                 "complete (did it exit?)"));
      }
      if (started && !stop_sent && interrupted && interrupted()) {
        stop_sent = writeAll(fd, "stop\n");
      }
      continue;
    }
    if (line->rfind("error ", 0) == 0) {
      return finish(fail(error, AttachError::kRefused, who + ": " + line->substr(6)));
    }
    if (line->rfind("started ", 0) == 0) {
      started = true;
      outcome->path = line->substr(8);
      if (on_started) on_started(outcome->path);
      continue;
    }
    if (line->rfind("done ", 0) == 0) {
      // "done <path> <summary>": the path may hold spaces, the summary does not
      // start with one; the path is the one "started" announced.
      const std::string rest = line->substr(5);
      outcome->summary =
          rest.size() > outcome->path.size() ? rest.substr(outcome->path.size() + 1) : "";
      if (outcome->summary.find("error=") != std::string::npos) {
        return finish(fail(error, AttachError::kRefused,
                           who + ": the window ended with an error (" + outcome->summary + ")"));
      }
      return finish(true);
    }
  }
}

}  // namespace damscope::collector
