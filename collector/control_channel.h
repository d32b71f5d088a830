// The control channel between `damscope attach` and a process recorded with
// `damscope record --on-demand`: a Unix stream socket per process.
//
// Where: <dir>/<pid>.sock, with <dir> = $DAMSCOPE_CONTROL_DIR, else
// $XDG_RUNTIME_DIR/damscope, else /tmp/damscope-<uid>. The directory must be
// a real directory (not a symlink) owned by the user with no access for
// anyone else (mode 0700); the library creates it so and refuses to use one
// that is not. On top of that, the library checks each connecting peer's
// uid (SO_PEERCRED) and answers anyone but its own user with an error.
//
// Protocol: one request line from attach, answer lines from the library.
//   attach  -> capture duration_ns=<n> steps=<n> output=<absolute path or empty>
//   library -> started <path>          the window is open, writing <path>
//           |  error <message>         nothing was started
//   attach  -> stop                    (optional) close the window now
//   library -> done <path> <summary>   the window is closed and the file complete
// Closing the connection before "done" also closes the window, so a killed
// attach never leaves the target recording.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>

#include "collector/collector_config.h"
#include "base/result.h"

namespace damscope::collector {

// The directory for control sockets, from the environment (see above).
std::string controlDirectory(const GetEnv& getenv, uid_t uid);
// Creates `dir` with mode 0700 if missing; otherwise checks that it is a
// directory, not a symlink, owned by `uid`, without group/other access.
Status ensurePrivateDirectory(const std::string& dir, uid_t uid);
std::string controlSocketPath(const std::string& dir, int64_t pid);

// The uid of the process at the other end of a connected Unix socket.
std::optional<uid_t> peerUid(int fd);
// The access rule: only the user who owns the recorded process may control it.
bool peerAllowed(std::optional<uid_t> peer, uid_t own);

struct CaptureRequest {
  int64_t duration_ns = 0;  // 0: no time limit
  int64_t steps = 0;        // 0: no step limit; else close after this many step ranges
  std::string output;       // absolute path; empty: the library's default name
};
std::string formatCaptureRequest(const CaptureRequest& request);
// Parses a request line (without its newline); the error says what is wrong.
Result<CaptureRequest> parseCaptureRequest(const std::string& line);

// Reads one line (up to '\n', which is dropped) from `fd`, waiting at most
// `timeout_ms` (-1: forever). nullopt on timeout, end of stream or error;
// `closed` is set at end of stream or error.
std::optional<std::string> readLine(int fd, std::string& pending, int timeout_ms, bool* closed);
// Writes all of `text`; false if the peer is gone.
bool writeAll(int fd, const std::string& text);

}  // namespace damscope::collector
