// What `damscope attach PID [--duration S | --steps N] [-o run.db]` does, as
// a library the thin CLI command calls (cli/attach_command.cc): find the
// process's control socket, ask for a capture window, and wait until the
// window's file is complete (control_channel.h has the protocol).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "base/result.h"

namespace damscope::collector {

struct AttachOptions {
  int64_t pid = 0;
  double duration_s = 0;  // 0 and steps 0: until interrupted
  int64_t steps = 0;
  std::string output;  // empty: the recorded process picks <run>.capture<N>.db
};

struct AttachOutcome {
  std::string path;     // the capture's file
  std::string summary;  // "ranges=... kernels=... dropped=..."
};

// Why an attach failed: kBadInput for a wrong PID or option (exit 2),
// kRefused when the process answered with an error (exit 1).
struct AttachError {
  enum Kind { kBadInput, kRefused } kind;
  std::string message;
};

// Runs one capture window. `on_started(path)` is called once the window is
// open; `interrupted()` is polled while waiting and, when true, asks the
// process to close the window early (the file is still completed).
bool runAttach(const AttachOptions& options,
               const std::function<void(const std::string&)>& on_started,
               const std::function<bool()>& interrupted, AttachOutcome* outcome,
               AttachError* error);

}  // namespace damscope::collector
