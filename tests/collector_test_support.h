// Helpers for the collector's end-to-end tests: starting processes with a
// chosen environment and stdin, capturing their output and their exact wait
// status (exit code or signal), and locating the built test programs.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tests/test_support.h"

namespace damscope::testing {

std::string nvtxWorkloadBinary();
std::string injectLibraryPath();

struct ProcessResult {
  bool exited = false;
  int exit_code = -1;  // when exited
  int signal = 0;      // when killed by a signal
  std::string out, err;
};

// Environment changes for a child: a value sets the variable, nullopt unsets it.
using EnvChanges = std::map<std::string, std::optional<std::string>>;

class Process {
 public:
  // Starts argv[0] (searched in PATH) with the current environment plus
  // `env`, `stdin_text` on its stdin, stdout/stderr captured to files in `dir`.
  Process(const std::vector<std::string>& argv, const EnvChanges& env, const std::string& dir,
          const std::string& stdin_text = "");
  ~Process();
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  pid_t pid() const { return pid_; }
  void signal(int sig);
  // Waits up to `timeout`; on timeout kills the process (SIGKILL) and fails the test.
  ProcessResult wait(std::chrono::milliseconds timeout = std::chrono::seconds(60));
  bool running();
  std::string errSoFar() const;

 private:
  pid_t pid_ = -1;
  std::string out_path_, err_path_, in_path_;
  std::optional<ProcessResult> result_;
};

ProcessResult runProcess(const std::vector<std::string>& argv, const EnvChanges& env,
                         const std::string& dir, const std::string& stdin_text = "",
                         std::chrono::milliseconds timeout = std::chrono::seconds(60));

// Polls `condition` every 10 ms until it holds or `timeout` passes.
bool waitFor(const std::function<bool()>& condition,
             std::chrono::milliseconds timeout = std::chrono::seconds(20));

size_t countOccurrences(const std::string& text, const std::string& needle);

}  // namespace damscope::testing
