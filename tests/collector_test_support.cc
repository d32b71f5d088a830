// Helpers for the collector's end-to-end tests: see collector_test_support.h.
#include "tests/collector_test_support.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <thread>

extern char** environ;

namespace damscope::testing {
namespace {

int processCounter = 0;

ProcessResult decode(int status) {
  ProcessResult r;
  if (WIFEXITED(status)) {
    r.exited = true;
    r.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    r.signal = WTERMSIG(status);
  }
  return r;
}

}  // namespace

std::string nvtxWorkloadBinary() {
  return std::string(DAMSCOPE_BINARY_DIR) + "/tests/nvtx_workload";
}
std::string injectLibraryPath() {
  return std::string(DAMSCOPE_BINARY_DIR) + "/collector/libdamscope_inject.so";
}

Process::Process(const std::vector<std::string>& argv, const EnvChanges& env,
                 const std::string& dir, const std::string& stdin_text) {
  const std::string base = dir + "/proc" + std::to_string(++processCounter);
  out_path_ = base + ".out", err_path_ = base + ".err", in_path_ = base + ".in";
  writeFile(in_path_, stdin_text);
  std::vector<std::string> environment;
  for (char** e = environ; *e; ++e) {
    const std::string entry(*e);
    if (!env.count(entry.substr(0, entry.find('=')))) environment.push_back(entry);
  }
  for (const auto& [name, value] : env) {
    if (value) environment.push_back(name + "=" + *value);
  }
  std::vector<char*> args, envp;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  for (const auto& e : environment) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  pid_ = fork();
  if (pid_ == 0) {
    const int in = open(in_path_.c_str(), O_RDONLY);
    const int out = open(out_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = open(err_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(in, 0), dup2(out, 1), dup2(err, 2);
    // Its own process group, so that signals sent to the test runner's group
    // do not reach it and a kill of the group reaches all its children.
    setpgid(0, 0);
    execvpe(args[0], args.data(), envp.data());
    std::fprintf(stderr, "exec %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
}

Process::~Process() {
  if (!result_ && pid_ > 0) {
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);
    int status;
    waitpid(pid_, &status, 0);
  }
}

void Process::signal(int sig) {
  ::kill(pid_, sig);
}

bool Process::running() {
  if (result_) return false;
  int status = 0;
  const pid_t r = waitpid(pid_, &status, WNOHANG);
  if (r == pid_) {
    result_ = decode(status);
    result_->out = readFile(out_path_);
    result_->err = readFile(err_path_);
    return false;
  }
  return true;
}

ProcessResult Process::wait(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (running()) {
    if (std::chrono::steady_clock::now() > deadline) {
      ADD_FAILURE() << "process " << pid_ << " did not finish within " << timeout.count()
                    << " ms; stderr so far:\n"
                    << readFile(err_path_);
      ::kill(-pid_, SIGKILL);
      ::kill(pid_, SIGKILL);
      waitFor([&] { return !running(); }, std::chrono::seconds(10));
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return result_ ? *result_ : ProcessResult{};
}

std::string Process::errSoFar() const {
  return readFile(err_path_);
}

ProcessResult runProcess(const std::vector<std::string>& argv, const EnvChanges& env,
                         const std::string& dir, const std::string& stdin_text,
                         std::chrono::milliseconds timeout) {
  Process p(argv, env, dir, stdin_text);
  return p.wait(timeout);
}

bool waitFor(const std::function<bool()>& condition, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

size_t countOccurrences(const std::string& text, const std::string& needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

}  // namespace damscope::testing
