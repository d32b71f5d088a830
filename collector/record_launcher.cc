// `damscope record`: see record_launcher.h.
#include "collector/record_launcher.h"

#include <signal.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "collector/collector_config.h"
#include "collector/output_naming.h"

extern char** environ;

#ifndef DAMSCOPE_INJECT_BUILD_PATH
#define DAMSCOPE_INJECT_BUILD_PATH ""
#endif

namespace damscope::collector {
namespace fs = std::filesystem;
namespace {

constexpr const char* kLibraryName = "libdamscope_inject.so";

std::atomic<pid_t> g_child{0};

void forwardSignal(int sig) {
  if (const pid_t child = g_child.load(); child > 0) ::kill(child, sig);
}

int64_t realtimeNs() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

}  // namespace

Result<std::string> findInjectLibrary() {
  std::error_code ec;
  if (const char* env = std::getenv("DAMSCOPE_INJECT_LIBRARY"); env && *env) {
    if (!fs::is_regular_file(env, ec))
      return Error(std::string(env) + ": DAMSCOPE_INJECT_LIBRARY names no file");
    return fs::absolute(env, ec).string();
  }
  std::vector<fs::path> candidates;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path dir = exe.parent_path();
    candidates = {dir / kLibraryName, dir / ".." / "lib" / "damscope" / kLibraryName,
                  dir / ".." / "lib" / kLibraryName};
  }
  if (*DAMSCOPE_INJECT_BUILD_PATH) candidates.emplace_back(DAMSCOPE_INJECT_BUILD_PATH);
  for (const fs::path& p : candidates) {
    if (fs::is_regular_file(p, ec)) return fs::weakly_canonical(p, ec).string();
  }
  return Error(std::string(kLibraryName) +
               ": not found beside the damscope executable (was damscope built without the CUDA "
               "toolkit? set DAMSCOPE_INJECT_LIBRARY to its path)");
}

bool nvidiaDriverPresent() {
  return ::access("/proc/driver/nvidia/version", R_OK) == 0;
}

std::vector<std::string> listRunOutputs(const std::string& output, int32_t rank) {
  std::vector<std::string> files;
  const fs::path base(output);
  const fs::path dir = base.has_parent_path() ? base.parent_path() : fs::path(".");
  const std::string stem = fs::path(outputStem(base.filename().string())).string();
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (rank >= 0 ? isOutputOfRank(stem, name, rank) : isOutputOf(stem, name)) {
      files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

Status checkOutputSpace(const std::string& output) {
  const fs::path dir = fs::path(output).has_parent_path() ? fs::path(output).parent_path() : ".";
  struct statvfs st;
  if (::statvfs(dir.c_str(), &st) != 0) return okStatus();  // the other checks say why
  // f_bavail: what an unprivileged writer may still use (statvfs(3)).
  const auto free_bytes = static_cast<int64_t>(st.f_bavail) * static_cast<int64_t>(st.f_frsize);
  if (free_bytes < kMinFreeBytes) {
    return Error(dir.string() + ": the disk is full (" + std::to_string(free_bytes >> 10) +
                 " KiB free): the trace cannot be written");
  }
  return okStatus();
}

Result<PreparedRecord> prepareRecord(const RecordOptions& options) {
  if (options.command.empty())
    return Error("record: no command given (damscope record -- CMD ARGS...)");
  DAMSCOPE_ASSIGN_OR_RETURN(const int64_t duration_ns,
                            windowSecondsToNs("--duration", options.duration_s));
  DAMSCOPE_ASSIGN_OR_RETURN(const int64_t delay_ns, windowSecondsToNs("--delay", options.delay_s));
  if (options.on_demand && (options.duration_s > 0 || options.delay_s > 0)) {
    return Error(
        "--on-demand: windows come from `damscope attach`; --duration and --delay do not apply");
  }
  // The sampler's period is 1e9 / hz ns; below 0.1 Hz it would be clamped
  // (cpu_sampler.cc), so such a value is refused rather than changed.
  if (!(options.sample_hz == 0 || (options.sample_hz >= 0.1 && options.sample_hz <= 10000))) {
    return Error("--sample-hz: must be 0 (off) or from 0.1 to 10000");
  }
  if (options.buffer_mb < 1 || options.buffer_mb > 1024)
    return Error("--buffer-size: must be 1 to 1024 MB");
  if (options.buffers < 2 || options.buffers > 4096) return Error("--buffers: must be 2 to 4096");
  // The environment carries MB up to 2^30 (collector_config.cc), whose bytes
  // (2^50) fit int64 with room.
  if (options.max_size_mb < 0 || options.max_size_mb > (int64_t{1} << 30)) {
    return Error("--max-size: must be from 0 (no limit) to 1073741824 MB");
  }
  CounterSelection counters;
  if (options.counters) {
    Result<CounterSelection> parsed = parseCounterList(*options.counters);
    if (!parsed.ok()) return Error("--counters: " + parsed.error().message());
    counters = parsed.value();
  }

  std::error_code ec;
  PreparedRecord record;
  record.output = fs::absolute(options.output, ec).lexically_normal().string();
  if (fs::is_directory(record.output, ec)) return Error(record.output + ": output is a directory");
  const fs::path dir = fs::path(record.output).parent_path();
  if (!fs::is_directory(dir, ec)) return Error(dir.string() + ": output directory does not exist");
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    return Error(dir.string() + ": cannot write the trace here: " + std::strerror(errno));
  }
  DAMSCOPE_RETURN_IF_ERROR(checkOutputSpace(record.output));
  // One record per rank under a launcher: each minds its own rank's files,
  // never another rank's (which its record may be writing right now).
  record.rank = rankFromEnvironment([](const char* name) { return std::getenv(name); }).rank;
  // Earlier runs' files would make this run's names move to .pid<PID>
  // variants; refuse, or with --force remove them.
  const std::vector<std::string> existing = listRunOutputs(record.output, record.rank);
  if (!existing.empty() && !options.force) {
    return Error(existing.front() + ": output exists (use --force to overwrite)");
  }
  for (const std::string& file : existing) {
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(file + suffix, ec);
  }

  if (options.inject_library.empty()) {
    DAMSCOPE_ASSIGN_OR_RETURN(record.inject_library, findInjectLibrary());
  } else {
    record.inject_library = fs::absolute(options.inject_library, ec).string();
  }
  record.command = options.command;

  CollectorConfig config;
  config.output = record.output;
  config.on_demand = options.on_demand;
  config.start_ns = realtimeNs();
  config.delay_ns = delay_ns;
  config.duration_ns = duration_ns;
  config.sample_hz = options.sample_hz;
  config.buffer_bytes = static_cast<size_t>(options.buffer_mb) << 20;
  config.buffer_count = static_cast<size_t>(options.buffers);
  config.max_file_bytes = options.max_size_mb << 20;
  config.counters = counters;
  record.counters = counters;
  if (const char* dir_env = std::getenv("DAMSCOPE_CONTROL_DIR")) config.control_dir = dir_env;
  if (const char* cupti = std::getenv("DAMSCOPE_CUPTI_PATH")) config.cupti_path = cupti;

  std::vector<std::pair<std::string, std::string>> set = toEnvironment(config);
  set.emplace_back("CUDA_INJECTION64_PATH", record.inject_library);
  set.emplace_back("NVTX_INJECTION64_PATH", record.inject_library);
  for (char** e = environ; e && *e; ++e) {
    const std::string entry(*e);
    const std::string name = entry.substr(0, entry.find('='));
    const bool replaced =
        std::any_of(set.begin(), set.end(), [&](const auto& kv) { return kv.first == name; });
    if (!replaced) record.environment.push_back(entry);
  }
  for (const auto& [name, value] : set) record.environment.push_back(name + "=" + value);
  return record;
}

Result<ChildStatus> runRecorded(const PreparedRecord& record) {
  std::vector<char*> argv, envp;
  for (const std::string& a : record.command) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (const std::string& e : record.environment) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);

  struct sigaction ignore {
  }, forward{}, old_int{}, old_quit{}, old_term{}, old_hup{};
  ignore.sa_handler = SIG_IGN;
  forward.sa_handler = &forwardSignal;
  sigemptyset(&forward.sa_mask);
  forward.sa_flags = SA_RESTART;

  // Handlers before fork, so no signal falls between; the child gets back
  // the dispositions record itself started with.
  sigaction(SIGINT, &ignore, &old_int);
  sigaction(SIGQUIT, &ignore, &old_quit);
  sigaction(SIGTERM, &forward, &old_term);
  sigaction(SIGHUP, &forward, &old_hup);
  auto restore = [&] {
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGQUIT, &old_quit, nullptr);
    sigaction(SIGTERM, &old_term, nullptr);
    sigaction(SIGHUP, &old_hup, nullptr);
  };
  const pid_t child = ::fork();
  if (child < 0) {
    const int error = errno;
    restore();
    return Error(std::string("cannot start the command: fork: ") + std::strerror(error));
  }
  if (child == 0) {
    restore();
    ::execvpe(argv[0], argv.data(), envp.data());
    const int error = errno;
    std::fprintf(stderr, "damscope: %s: %s\n", argv[0], std::strerror(error));
    ::_exit(error == ENOENT ? 127 : 126);
  }
  g_child.store(child);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  g_child.store(0);
  restore();

  ChildStatus result;
  result.end_ns = realtimeNs();
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
    result.exit_code = 128 + result.signal;
  }
  return result;
}

}  // namespace damscope::collector
