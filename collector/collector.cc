// The collector inside a recorded process: start-up, GPU tracing, the
// writer thread's loop, exit, and the process-wide entry (collector.h;
// collector_impl.h says how the implementation is split).
#include "collector/collector.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "collector/collector_impl.h"
#include "collector/nvtx_hooks.h"
#include "collector/nvtx_registry.h"
#include "collector/process_signals.h"

namespace damscope::collector {

int64_t nowNs(clockid_t clock) {
  timespec ts;
  clock_gettime(clock, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

void say(const std::string& message) {
  std::fprintf(stderr, "damscope: %s\n", message.c_str());
}

const char* envOrNull(const char* name) {
  return std::getenv(name);
}

namespace {

void atExit();  // shuts the process's collector down (defined below)
void registerExitHandler() {
  std::atexit(&atExit);
}

// Half a second: a process killed outright (SIGKILL, the OOM killer) loses
// the batch being filled and, when the kill lands during a write, the batch
// being written; at most about one second of events (issue 8 asks for that).
constexpr int64_t kCommitIntervalNs = 500'000'000;
constexpr size_t kCommitRows = 256 * 1024;  // or sooner, to bound the batch's memory
constexpr int64_t kExitWaitMs = 10'000;     // exit() waits this long for the last commit
// While recording, the writer drains the NVTX rings every millisecond when a
// thread is emitting fast (a drain found at least kBusyRingEvents in one
// ring), and backs off by doubling to kQuietDrainMs when none is: a training
// loop's few hundred ranges a step then cost ~125 wake-ups a second instead
// of 1,000, each of which takes a core from the workload's threads (on a
// 2-core machine busy with OpenMP, the difference measured ~3 % of step
// time: bench/gpt2_record_overhead.sh). 8 ms of a 256 KiB ring still holds a
// burst of ~5,000 events that starts while the writer is backed off.
constexpr size_t kBusyRingEvents = 64;
constexpr int kQuietDrainMs = 8;

std::string readFileText(const char* path) {
  std::string text;
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return text;
  char buffer[4096];
  ssize_t n;
  while ((n = ::read(fd, buffer, sizeof(buffer))) > 0) text.append(buffer, static_cast<size_t>(n));
  ::close(fd);
  return text;
}

ProcessInfo currentProcess(const RankInfo& rank) {
  ProcessInfo p;
  p.pid = getpid();
  p.name = readFileText("/proc/self/comm");
  while (!p.name.empty() && p.name.back() == '\n') p.name.pop_back();
  char host[256] = {};
  if (gethostname(host, sizeof(host) - 1) == 0) p.hostname = host;
  p.rank = rank.global_rank >= 0 ? rank.global_rank : kNullInt32;
  p.local_rank = rank.local_rank >= 0 ? rank.local_rank : kNullInt32;
  p.world_size = rank.world_size >= 0 ? rank.world_size : kNullInt32;
  std::string cmdline = readFileText("/proc/self/cmdline");
  while (!cmdline.empty() && cmdline.back() == '\0') cmdline.pop_back();
  for (char& c : cmdline) c = c == '\0' ? ' ' : c;
  p.cmdline = cmdline;
  return p;
}

// Why GPU activity cannot be recorded when the process never initializes
// CUDA through the driver: no driver at all. Empty when a driver exists.
std::string missingDriverReason() {
  if (dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD)) return {};
  if (::access("/proc/driver/nvidia/version", R_OK) == 0) return {};
  return "no NVIDIA driver is loaded on this machine (/proc/driver/nvidia/version is missing)";
}

}  // namespace

CollectorImpl::CollectorImpl(CollectorConfig config, RankInfo rank)
    : config_(std::move(config)),
      rank_(rank),
      process_(currentProcess(rank_)),
      exit_order_(&registerExitHandler) {}

void CollectorImpl::sayWriteFailure(const Status& status) {
  say(status.error().message() +
      "; recording stopped, the file keeps everything up to the last successful write");
}

void CollectorImpl::sayOnce(const std::string& key, const std::string& message) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!said_.insert(key).second) return;
  }
  say(message);
}

std::string CollectorImpl::threadName(int64_t tid) {
  if (const std::string* name = nvtx_names_.thread(tid)) return *name;
  if (auto it = comm_names_.find(tid); it != comm_names_.end()) return it->second;
  std::string comm = threadCommName(tid);
  if (!comm.empty()) comm_names_[tid] = comm;
  return comm;
}

bool CollectorImpl::start() {
  NvtxRegistry::instance().setRingBytes(config_.nvtx_ring_bytes);
  if (const std::string reason = missingDriverReason(); !reason.empty()) {
    std::lock_guard<std::mutex> lock(gpu_mutex_);
    gpu_status_ = reason;
  }
  installTerminatingSignalHandlers();
  installFatalSignalHandlers();
  // The first window opens here, before the program continues, so that a
  // CUDA program's first calls are recorded.
  if (!config_.on_demand) {
    const int64_t origin = config_.start_ns > 0 ? config_.start_ns : started_ns_;
    const int64_t end =
        config_.duration_ns > 0 ? origin + config_.delay_ns + config_.duration_ns : 0;
    if (end != 0 && nowNs() >= end) {
      auto_window_done_ = true;  // this process started after the window closed
    } else if (nowNs() >= origin + config_.delay_ns) {
      std::string error;
      if (!openWindow(nullptr, &error)) {
        say(error + "; not recording this process");
        auto_window_done_ = true;
      }
    }
  }
  if (config_.on_demand) setupControlSocket();
  try {
    std::thread([this] { writerMain(); }).detach();
  } catch (...) {
    say("cannot start the writer thread; not recording this process");
    setNvtxRecording(false);
    return false;
  }
  return true;
}

void CollectorImpl::setGpuStatus(const std::string& status) {
  std::lock_guard<std::mutex> lock(gpu_mutex_);
  gpu_status_ = status;
}

std::string CollectorImpl::gpuStatus() {
  std::lock_guard<std::mutex> lock(gpu_mutex_);
  return gpu_status_;
}

void CollectorImpl::countersUnavailable(const std::string& reason) {
  if (!config_.counters.any()) return;
  {
    std::lock_guard<std::mutex> lock(gpu_mutex_);
    if (!counters_unavailable_.empty()) return;
    counters_unavailable_ = reason;
  }
  sayOnce("counters", "hardware counters (" + counterListText(config_.counters) +
                          ") cannot be measured: " + reason + "; kernels are not replayed");
}

std::string CollectorImpl::countersStatus() {
  {
    std::lock_guard<std::mutex> lock(gpu_mutex_);
    if (!counters_unavailable_.empty()) return "not measured: " + counters_unavailable_;
  }
  if (!writerOwnsGpu() || !counters_) {
    return "not measured: GPU activity was not recorded (" + gpuStatus() + ")";
  }
  if (const std::string failure = counters_->failure(); !failure.empty()) {
    return "stopped: " + failure;
  }
  const std::string chip = counters_->chipNote();
  return chip.empty() ? "measuring (no kernel launched yet)" : "measured on " + chip;
}

void CollectorImpl::startGpu() {
  if (gpu_active_) return;
  if (!cupti_) {
    auto loaded = CuptiSession::load(config_.cupti_path);
    if (!loaded.ok()) {
      const std::string reason = loaded.error().message();
      setGpuStatus(reason);
      sayOnce("gpu:" + reason, "GPU activity cannot be recorded: " + reason +
                                   "; recording NVTX ranges and CPU samples only");
      countersUnavailable("GPU activity cannot be recorded (" + reason + ")");
      return;
    }
    cupti_ = std::move(loaded).value();
  }
  if (config_.counters.any() && !counters_) {
    auto session =
        CounterSession::create(cupti_->library(), cupti_->libraryPath(), config_.counters);
    if (session.ok()) {
      counters_ = std::move(session).value();
    } else {
      countersUnavailable(session.error().message());
    }
  }
  if (!pool_) {
    pool_ = BufferPool::create(config_.buffer_bytes, config_.buffer_count);
    if (!pool_) {
      const std::string reason = "cannot reserve " +
                                 std::to_string(config_.buffer_bytes * config_.buffer_count) +
                                 " bytes for CUPTI buffers";
      setGpuStatus(reason);
      sayOnce("gpu:" + reason, "GPU activity cannot be recorded: " + reason);
      countersUnavailable("GPU activity cannot be recorded (" + reason + ")");
      return;
    }
  }
  if (Status s = cupti_->start(pool_.get(), counters_.get()); !s.ok()) {
    const std::string reason = s.error().message();
    setGpuStatus(reason);
    sayOnce("gpu:" + reason, "GPU activity cannot be recorded: " + reason +
                                 "; recording NVTX ranges and CPU samples only");
    countersUnavailable("GPU activity cannot be recorded (" + reason + ")");
    return;
  }
  if (counters_ && !cupti_->countersError().empty()) countersUnavailable(cupti_->countersError());
  gpu_active_ = true;
  setGpuStatus("recorded");
  // Ahead of what CUPTI registered while starting (exit_order.h); the CUPTI
  // injection sample registers its handler after enabling activities too
  // (extras/CUPTI/samples/cupti_trace_injection).
  registerExitHandler();
}

void CollectorImpl::stopGpu() {
  if (!gpu_active_) return;
  if (Status s = cupti_->stop(); !s.ok()) say("stopping CUPTI: " + s.error().message());
  gpu_active_ = false;
}

void CollectorImpl::onCudaInitialized() {
  bool start = false;
  {
    std::lock_guard<std::mutex> lock(gpu_mutex_);
    // The driver calls InitializeInjection once per process; the GPU state
    // is the writer's after the first call.
    if (cuda_phase_.load() != CudaPhase::kNotInitialized) return;
    if (gpu_status_.rfind("no NVIDIA driver", 0) == 0 ||
        gpu_status_ == "the process did not initialize CUDA") {
      gpu_status_ = "CUDA initialized; no window open";
    }
    start = window_open_;
    cuda_phase_.store(start ? CudaPhase::kStarting : CudaPhase::kInitialized,
                      std::memory_order_release);
  }
  if (!start) return;
  // This thread owns the GPU state until it hands it over, whatever happens.
  try {
    startGpu();
  } catch (...) {
    handGpuToWriter();
    throw;
  }
  handGpuToWriter();
}

void CollectorImpl::handGpuToWriter() {
  {
    std::lock_guard<std::mutex> lock(gpu_mutex_);
    cuda_phase_.store(CudaPhase::kInitialized, std::memory_order_release);
  }
  gpu_handed_over_.notify_all();
}

void CollectorImpl::closeGpuWindow() {
  bool owned = false;
  {
    std::unique_lock<std::mutex> lock(gpu_mutex_);
    window_open_ = false;
    // The starting thread needs nothing from this one: it calls CUPTI, whose
    // callbacks take no lock, and then gpu_mutex_, which this wait releases.
    gpu_handed_over_.wait(lock, [&] { return cuda_phase_.load() != CudaPhase::kStarting; });
    owned = cuda_phase_.load() == CudaPhase::kInitialized;
  }
  if (owned) stopGpu();
}

// --- Writer thread ---------------------------------------------------------------

void CollectorImpl::writerMain() {
  pthread_setname_np(pthread_self(), "damscope-writer");
  setWriterThreadForSignals();
  try {
    writerLoop();
  } catch (const std::exception& e) {
    say(std::string("internal error in the writer thread: ") + e.what() + "; recording stopped");
    setNvtxRecording(false);
  } catch (...) {
    say("internal error in the writer thread; recording stopped");
    setNvtxRecording(false);
  }
  closeGpuWindow();
  std::lock_guard<std::mutex> lock(mutex_);
  writer_done_ = true;
  cv_.notify_all();
}

void CollectorImpl::writerLoop() {
  for (;;) {
    AttachJob* job = nullptr;
    bool stopping = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping = stopping_;
      job = job_;
    }
    if (const char* fatal = pendingFatalSignal()) {
      saveBeforeFatalSignal(fatal);
      fatalSignalSaved();
    }
    if (const int sig = pendingTerminatingSignal(); sig != 0) {
      closeWindow((std::string("signal ") + terminatingSignalName(sig)).c_str());
      if (!socket_path_.empty()) ::unlink(socket_path_.c_str());
      // The program did not handle the signal: end it as the signal would
      // have, now that the trace is complete.
      ::kill(getpid(), sig);
      return;
    }
    if (stopping) {
      closeWindow("exit");
      return;
    }
    if (job) {
      AttachJob::State state;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        state = job->state;
      }
      if (state == AttachJob::State::kQueued) {
        std::string message;
        bool opened = false;
        if (window_) {
          message = "a capture window is already open in this process";
        } else if (inert_) {
          message = "recording stopped after a write error in this process";
        } else if (openWindow(job, &message)) {
          opened = true;
          message = window_->capture->path();
        }
        {
          std::lock_guard<std::mutex> lock(mutex_);
          job->state = opened ? AttachJob::State::kStarted : AttachJob::State::kRejected;
          job->message = message;
        }
        cv_.notify_all();
      }
    }
    if (window_) {
      if (writerOwnsGpu() && gpu_active_) {
        exit_order_.update(sharedObjectChanges(), nowNs(CLOCK_MONOTONIC));
      }
      const size_t busiest = drainNvtx();
      drain_wait_ms_ = busiest >= kBusyRingEvents ? 1 : std::min(drain_wait_ms_ * 2, kQuietDrainMs);
      drainGpu();
      drainSampler();
      Window& w = *window_;
      bool stop_requested = false;
      if (w.job) {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_requested = w.job->stop;
      }
      const int64_t now = nowNs();
      if (w.end_ns != 0 && now >= w.end_ns) {
        closeWindow("duration");
      } else if (w.steps_target != 0 && w.steps_seen >= w.steps_target) {
        closeWindow("steps");
      } else if (stop_requested) {
        closeWindow("stop requested");
      } else if (nowNs(CLOCK_MONOTONIC) - w.last_commit_mono >= kCommitIntervalNs ||
                 w.capture->pendingRows() >= kCommitRows) {
        // Ask CUPTI for the buffers completed so far, so the commit holds
        // GPU activity up to about a second ago.
        if (writerOwnsGpu() && gpu_active_) cupti_->flush(false);
        drainGpu();
        commitWindow();
      }
    } else {
      drainNvtx();  // keeps naming calls; rings hold nothing else while dormant
      if (!config_.on_demand && !auto_window_done_ && !inert_) {
        const int64_t origin = config_.start_ns > 0 ? config_.start_ns : started_ns_;
        if (nowNs() >= origin + config_.delay_ns) {
          std::string error;
          if (!openWindow(nullptr, &error)) {
            say(error + "; not recording this process");
            auto_window_done_ = true;
          }
        }
      }
    }
    // While a window is open the rings are drained every 1 to 8 ms (see
    // kQuietDrainMs); a thread's 256 KiB ring then absorbs bursts of several
    // hundred thousand NVTX events per second. Dormant, 20 ms costs nothing
    // measurable.
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait_for(lock, std::chrono::milliseconds(window_ ? drain_wait_ms_ : 20),
                 [&] { return stopping_ || (job_ && job_->state == AttachJob::State::kQueued); });
  }
}

void CollectorImpl::shutdown() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (stopping_) return;  // registered twice (startGpu), or already waited for
  stopping_ = true;
  cv_.notify_all();
  cv_.wait_for(lock, std::chrono::milliseconds(kExitWaitMs), [&] { return writer_done_; });
  if (!writer_done_) say("the trace could not be finished in time; it holds the last commit");
  if (!socket_path_.empty()) ::unlink(socket_path_.c_str());
}

// --- Process-wide entry ---------------------------------------------------------------

namespace {

std::atomic<CollectorImpl*> g_impl{nullptr};
std::once_flag g_once;

void atExit() {
  CollectorImpl* impl = g_impl.load();
  if (impl && impl->owner() == getpid()) impl->shutdown();
}

void inForkedChild() {
  // The child has none of the parent's threads and shares its open file:
  // it must not record. (A child that execs starts its own collector.)
  setNvtxRecording(false);
  g_impl.store(nullptr);
}

}  // namespace

Collector* Collector::instance() noexcept {
  static Collector* collector = nullptr;
  try {
    std::call_once(g_once, [] {
      auto config = configFromEnvironment(&envOrNull);
      if (!config.ok()) {
        say("bad environment: " + config.error().message() + "; not recording this process");
        return;
      }
      auto* impl = new CollectorImpl(config.value(), rankFromEnvironment(&envOrNull));
      // Never deleted: application threads may call in until the very end.
      if (!impl->start()) return;
      g_impl.store(impl);
      collector = new Collector(impl);
      std::atexit(&atExit);
      pthread_atfork(nullptr, nullptr, &inForkedChild);
    });
  } catch (...) {
    return nullptr;
  }
  return g_impl.load() ? collector : nullptr;
}

void Collector::onCudaInitialized() noexcept {
  try {
    if (impl_->owner() == getpid()) impl_->onCudaInitialized();
  } catch (...) {
  }
}

}  // namespace damscope::collector
