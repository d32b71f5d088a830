// The collector inside a recorded process: see collector.h.
//
// Threads: the writer (all decoding and writing, window life cycle), the
// control thread (--on-demand only: accepts attach connections), the CPU
// sampler (while a window is open). Application threads enter only through
// the NVTX handlers (lock-free rings), CUPTI's buffer callbacks (lock-free
// pool) and onCudaInitialized (once, during cuInit).
#include "collector/collector.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "collector/buffer_pool.h"
#include "collector/capture_writer.h"
#include "collector/collector_config.h"
#include "collector/control_channel.h"
#include "collector/cpu_sampler.h"
#include "collector/cupti_session.h"
#include "collector/gpu_activity_rows.h"
#include "collector/nvtx_assembler.h"
#include "collector/nvtx_registry.h"
#include "collector/output_naming.h"

namespace damscope::collector {
namespace {

constexpr const char* kVersion = "0.1.0";
constexpr int64_t kCommitIntervalNs = 1'000'000'000;  // the "about once a second"
constexpr size_t kCommitRows = 256 * 1024;            // or sooner, to bound the batch's memory
constexpr int64_t kExitWaitMs = 10'000;               // exit() waits this long for the last commit

int64_t nowNs(clockid_t clock = CLOCK_REALTIME) {
  timespec ts;
  clock_gettime(clock, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

const char* envOrNull(const char* name) {
  return std::getenv(name);
}

// stderr is the only channel to the user; every message is one line.
void say(const std::string& message) {
  std::fprintf(stderr, "damscope: %s\n", message.c_str());
}

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

const char* signalName(int sig) {
  switch (sig) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    default:
      return "signal";
  }
}

std::atomic<int> g_signal{0};

void onTerminatingSignal(int sig) {
  // Async-signal-safe only: note the signal and restore the default action,
  // so a second signal ends the process at once. The writer finishes the
  // window and raises the signal again.
  g_signal.store(sig, std::memory_order_relaxed);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigaction(sig, &dfl, nullptr);
}

// A window request from the control thread, served by the writer.
struct AttachJob {
  CaptureRequest request;
  enum class State { kQueued, kStarted, kRejected, kDone } state = State::kQueued;
  std::string path, message, summary;
  bool stop = false;
};

}  // namespace

class CollectorImpl {
 public:
  CollectorImpl(CollectorConfig config, RankInfo rank)
      : config_(std::move(config)), rank_(rank), process_(currentProcess(rank_)) {}

  bool start();
  void onCudaInitialized();
  void shutdown();
  pid_t owner() const { return owner_pid_; }

 private:
  struct Window {
    std::unique_ptr<CaptureWriter> capture;
    std::unique_ptr<GpuActivityRows> gpu;
    std::unique_ptr<NvtxAssembler> nvtx;
    int number = 0;
    AttachJob* job = nullptr;  // nullptr: the window record opened
    int64_t start_ns = 0;
    int64_t end_ns = 0;  // 0: no time limit
    int64_t steps_target = 0, steps_seen = 0;
    int64_t last_commit_mono = 0;
    int64_t nvtx_dropped_at_open = 0, pool_exhausted_at_open = 0, sampler_late_at_open = 0;
    int64_t cupti_dropped = 0, unreadable_buffers = 0;
    StringId thread_pct, process_pct, rss;
  };

  // Window life cycle (writer thread, or start() before the writer runs).
  bool openWindow(AttachJob* job, std::string* error);
  void closeWindow(const char* reason);
  void commitWindow();
  void updateStats();
  std::string summary() const;

  // GPU tracing; gpu_mutex_ held.
  void startGpuLocked();
  void stopGpuLocked();

  // Draining (writer thread).
  void drainNvtx();
  void drainGpu();
  void drainSampler();
  int64_t nvtxDropped();

  void writerMain();
  void writerLoop();
  void controlMain(int listen_fd);
  void serveAttach(int fd);
  void setupControlSocket();
  std::string threadName(int64_t tid);
  void sayOnce(const std::string& key, const std::string& message);
  void sayWriteFailure(const Status& status);

  const CollectorConfig config_;
  const RankInfo rank_;
  const ProcessInfo process_;
  const pid_t owner_pid_ = getpid();
  const int64_t started_ns_ = nowNs();

  // Writer-thread state.
  std::unique_ptr<Window> window_;
  int windows_opened_ = 0;
  bool auto_window_done_ = false;
  bool inert_ = false;  // after a write error or an internal failure
  NvtxNames nvtx_names_;
  std::unordered_map<int64_t, std::string> comm_names_;
  std::unordered_map<uint32_t, DeviceActivity> devices_;
  std::unique_ptr<CpuSampler> sampler_;
  std::vector<BufferPool::Filled> filled_;
  std::vector<CpuSample> samples_;

  // GPU state, shared with onCudaInitialized.
  std::mutex gpu_mutex_;
  std::atomic<bool> cuda_initialized_{false};
  bool window_open_ = false;                                        // gpu_mutex_
  bool gpu_active_ = false;                                         // gpu_mutex_
  std::string gpu_status_ = "the process did not initialize CUDA";  // gpu_mutex_
  std::unique_ptr<CuptiSession> cupti_;                             // gpu_mutex_
  std::unique_ptr<BufferPool> pool_;                                // gpu_mutex_

  // Attach jobs and shutdown.
  std::mutex mutex_;
  std::condition_variable cv_;
  AttachJob* job_ = nullptr;  // mutex_
  bool stopping_ = false;     // mutex_
  bool writer_done_ = false;  // mutex_
  std::string socket_path_;
  std::set<std::string> said_;  // mutex_
  static constexpr int kMaxConnections = 4;
  std::atomic<int> connections_{0};
};

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
  // Finish the window on SIGINT/SIGTERM, unless the program handles them
  // itself (then it exits through exit(), which finishes the window too).
  for (int sig : {SIGINT, SIGTERM}) {
    struct sigaction current {};
    if (sigaction(sig, nullptr, &current) == 0 && current.sa_handler == SIG_DFL &&
        !(current.sa_flags & SA_SIGINFO)) {
      struct sigaction handler {};
      handler.sa_handler = &onTerminatingSignal;
      sigemptyset(&handler.sa_mask);
      handler.sa_flags = SA_RESTART;
      sigaction(sig, &handler, nullptr);
    }
  }
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

// --- Windows -------------------------------------------------------------------

bool CollectorImpl::openWindow(AttachJob* job, std::string* error) {
  const int number = ++windows_opened_;
  std::vector<std::string> candidates;
  if (job && !job->request.output.empty()) {
    candidates = {job->request.output};
  } else if (config_.on_demand) {
    candidates = captureOutputCandidates(config_.output, rank_, process_.pid, number);
  } else {
    candidates = runOutputCandidates(config_.output, rank_, process_.pid);
  }
  CaptureFileOptions options;
  options.max_file_bytes = config_.max_file_bytes;
  options.process = process_;
  Result<std::unique_ptr<CaptureWriter>> capture = Error("no output name");
  std::string first_error;
  for (const std::string& path : candidates) {
    options.path = path;
    capture = CaptureWriter::create(options);
    if (capture.ok()) break;
    if (first_error.empty()) first_error = capture.error().message();
  }
  if (!capture.ok()) {
    --windows_opened_;
    *error = first_error;  // the name the user asked for, not the last fallback
    return false;
  }
  auto w = std::make_unique<Window>();
  w->capture = std::move(capture).value();
  w->number = number;
  w->job = job;
  w->start_ns = nowNs();
  w->last_commit_mono = nowNs(CLOCK_MONOTONIC);
  if (job) {
    w->end_ns = job->request.duration_ns > 0 ? w->start_ns + job->request.duration_ns : 0;
    w->steps_target = job->request.steps;
  } else if (config_.duration_ns > 0) {
    const int64_t origin = config_.start_ns > 0 ? config_.start_ns : started_ns_;
    w->end_ns = origin + config_.delay_ns + config_.duration_ns;
  }
  CaptureWriter& c = *w->capture;
  c.setThreadNamer([this](int64_t tid) { return threadName(tid); });
  // docs/trace-format.md: "realtime" is CLOCK_REALTIME ns; CUPTI is set to
  // the same clock (cupti_session.h).
  c.setMeta("clock", "realtime");
  c.setMeta("source_format", "damscope-collector");
  c.setMeta("collector.version", kVersion);
  c.setMeta("collector.finalized", "0");  // trace_finalizer.h
  c.setMeta("collector.capture", std::to_string(number));
  c.setMeta("collector.trigger", job ? "attach" : "record");
  c.setMeta("collector.window_start_ns", std::to_string(w->start_ns));
  if (w->end_ns) c.setMeta("collector.requested_end_ns", std::to_string(w->end_ns));
  if (w->steps_target) c.setMeta("collector.requested_steps", std::to_string(w->steps_target));
  c.setMeta("collector.sample_hz", std::to_string(config_.sample_hz));
  w->gpu = std::make_unique<GpuActivityRows>(c, 0);
  w->gpu->setDeviceObserver([this](const DeviceActivity& d) { devices_[d.device] = d; });
  for (const auto& [ordinal, device] : devices_) w->gpu->onDevice(device);
  w->nvtx = std::make_unique<NvtxAssembler>(c, nvtx_names_, w->start_ns);
  Window* raw = w.get();
  w->nvtx->setStepObserver([raw](int64_t start, int64_t) {
    if (start >= raw->start_ns) ++raw->steps_seen;
  });
  w->thread_pct = c.intern("cpu_thread_utilization_pct");
  w->process_pct = c.intern("cpu_process_utilization_pct");
  w->rss = c.intern("memory_rss_bytes");
  w->nvtx_dropped_at_open = nvtxDropped();
  window_ = std::move(w);
  {
    std::lock_guard<std::mutex> lock(gpu_mutex_);
    window_open_ = true;
    window_->pool_exhausted_at_open = pool_ ? pool_->exhaustedCount() : 0;
    if (cuda_initialized_.load()) startGpuLocked();
  }
  if (config_.sample_hz > 0) {
    sampler_ = std::make_unique<CpuSampler>(config_.sample_hz);
    sampler_->start();
  }
  setNvtxRecording(true);
  {
    std::lock_guard<std::mutex> lock(gpu_mutex_);
    if (!gpu_active_ && gpu_status_.rfind("no NVIDIA driver", 0) == 0) {
      sayOnce("gpu:" + gpu_status_, "GPU activity cannot be recorded: " + gpu_status_ +
                                        "; recording NVTX ranges and CPU samples only");
    }
  }
  const std::string path = window_->capture->path();
  commitWindow();
  if (!window_) {
    *error = path + ": the first write failed";
    return false;
  }
  return true;
}

void CollectorImpl::startGpuLocked() {
  if (gpu_active_ || !window_open_) return;
  if (!cupti_) {
    auto loaded = CuptiSession::load(config_.cupti_path);
    if (!loaded.ok()) {
      gpu_status_ = loaded.error().message();
      sayOnce("gpu:" + gpu_status_, "GPU activity cannot be recorded: " + gpu_status_ +
                                        "; recording NVTX ranges and CPU samples only");
      return;
    }
    cupti_ = std::move(loaded).value();
  }
  if (!pool_) {
    pool_ = BufferPool::create(config_.buffer_bytes, config_.buffer_count);
    if (!pool_) {
      gpu_status_ = "cannot reserve " +
                    std::to_string(config_.buffer_bytes * config_.buffer_count) +
                    " bytes for CUPTI buffers";
      sayOnce("gpu:" + gpu_status_, "GPU activity cannot be recorded: " + gpu_status_);
      return;
    }
  }
  if (Status s = cupti_->start(pool_.get()); !s.ok()) {
    gpu_status_ = s.error().message();
    sayOnce("gpu:" + gpu_status_, "GPU activity cannot be recorded: " + gpu_status_ +
                                      "; recording NVTX ranges and CPU samples only");
    return;
  }
  gpu_active_ = true;
  gpu_status_ = "recorded";
}

void CollectorImpl::stopGpuLocked() {
  if (!gpu_active_) return;
  if (Status s = cupti_->stop(); !s.ok()) say("stopping CUPTI: " + s.error().message());
  gpu_active_ = false;
}

void CollectorImpl::onCudaInitialized() {
  cuda_initialized_.store(true);
  std::lock_guard<std::mutex> lock(gpu_mutex_);
  if (gpu_status_.rfind("no NVIDIA driver", 0) == 0 ||
      gpu_status_ == "the process did not initialize CUDA") {
    gpu_status_ = "CUDA initialized; no window open";
  }
  startGpuLocked();
}

int64_t CollectorImpl::nvtxDropped() {
  int64_t dropped = 0;
  NvtxRegistry::instance().forEachSlot([&](NvtxThreadSlot& s) { dropped += s.ring.dropped(); });
  return dropped;
}

void CollectorImpl::drainNvtx() {
  NvtxRegistry::instance().forEachSlot([&](NvtxThreadSlot& slot) {
    const int64_t tid = slot.tid.load(std::memory_order_acquire);
    slot.ring.drain([&](const NvtxEventHeader& h, const uint8_t* message) {
      if (window_) {
        window_->nvtx->onEvent(tid, h, message);
      } else {
        applyNvtxNaming(h, message, nvtx_names_);
      }
    });
    NvtxRegistry::recycleIfDone(slot);
  });
}

void CollectorImpl::drainGpu() {
  std::lock_guard<std::mutex> lock(gpu_mutex_);
  if (!pool_) return;
  filled_.clear();
  pool_->takeCompleted(filled_);
  for (const BufferPool::Filled& f : filled_) {
    if (window_ && cupti_) {
      window_->gpu->setClockOffset(cupti_->clockOffsetNs());
      cupti_->decodeBuffer(f.data, f.valid_bytes, *window_->gpu, &window_->unreadable_buffers);
    }
    pool_->release(f.data);
  }
}

void CollectorImpl::drainSampler() {
  if (!sampler_ || !window_) return;
  std::vector<std::pair<int64_t, std::string>> fresh;
  sampler_->takeNewThreads(fresh);
  for (auto& [tid, name] : fresh) {
    if (!name.empty()) comm_names_[tid] = std::move(name);
  }
  samples_.clear();
  sampler_->take(samples_);
  CaptureWriter& c = *window_->capture;
  CounterTable& counters = c.batch().counters;
  for (const CpuSample& s : samples_) {
    if (s.ts < window_->start_ns) continue;
    counters.append({s.ts, window_->process_pct, s.process_pct, kNullInt32, kNullInt});
    if (s.rss_bytes >= 0) {
      counters.append({s.ts, window_->rss, static_cast<double>(s.rss_bytes), kNullInt32, kNullInt});
    }
    for (const ThreadUtilization& t : s.threads) {
      counters.append({s.ts, window_->thread_pct, t.pct, kNullInt32, c.threadId(t.tid)});
    }
  }
}

void CollectorImpl::updateStats() {
  Window& w = *window_;
  CaptureWriter& c = *w.capture;
  // A stat appears once something was lost; collector.dropped_records, the
  // total, is always written, so a file says "nothing lost" explicitly.
  auto set = [&](const char* name, int64_t value, const char* description) {
    if (value == 0 && c.stat(name) == 0 && std::string_view(name) != "collector.dropped_records") {
      return;
    }
    c.addStat(name, value - c.stat(name), description);
  };
  int64_t pool_exhausted = 0;
  {
    std::lock_guard<std::mutex> lock(gpu_mutex_);
    if (gpu_active_) w.cupti_dropped += cupti_->takeDroppedRecords();
    pool_exhausted = pool_ ? pool_->exhaustedCount() - w.pool_exhausted_at_open : 0;
    c.setMeta("collector.gpu", gpu_status_);
    if (cupti_) {
      c.setMeta("collector.cupti_version", std::to_string(cupti_->version()));
      c.setMeta("collector.cupti_library", cupti_->libraryPath());
      c.setMeta("collector.cupti_timestamps", cupti_->clockSource());
      std::string kinds;
      for (const auto& k : cupti_->unavailableKinds()) kinds += (kinds.empty() ? "" : ", ") + k;
      if (!kinds.empty()) c.setMeta("collector.cupti_kinds_unavailable", kinds);
    }
  }
  const int64_t nvtx_dropped = nvtxDropped() - w.nvtx_dropped_at_open;
  set("collector.cupti_dropped_records", w.cupti_dropped,
      "GPU activity records CUPTI dropped for lack of buffer space "
      "(cuptiActivityGetNumDroppedRecords)");
  set("collector.buffer_pool_exhausted", pool_exhausted,
      "times CUPTI asked for a buffer while all of the pool's buffers were in use "
      "(raise --buffers or --buffer-size)");
  set("collector.nvtx_ring_overflow", nvtx_dropped,
      "NVTX events dropped because a thread's ring was full (the writer fell behind)");
  set("collector.unreadable_buffers", w.unreadable_buffers,
      "CUPTI buffers whose walk stopped at an invalid or incomplete record");
  set("collector.dropped_records", w.cupti_dropped + nvtx_dropped,
      "all events lost while recording: CUPTI's dropped records plus NVTX ring overflow");
  if (sampler_) {
    set("collector.cpu_samples_late", sampler_->late() - w.sampler_late_at_open,
        "CPU samples taken more than a period late (the sampler thread was not scheduled)");
  }
}

void CollectorImpl::commitWindow() {
  Window& w = *window_;
  w.gpu->resolvePending();
  updateStats();
  w.last_commit_mono = nowNs(CLOCK_MONOTONIC);
  if (Status s = w.capture->commit(); !s.ok()) {
    sayWriteFailure(s);
    closeWindow("write error");
  }
}

std::string CollectorImpl::summary() const {
  const CaptureWriter& c = *window_->capture;
  const TraceTables& t = c.batch();
  return "ranges=" + std::to_string(c.rowCount(t.ranges)) +
         " kernels=" + std::to_string(c.rowCount(t.kernels)) +
         " memcpys=" + std::to_string(c.rowCount(t.memcpys)) +
         " api_calls=" + std::to_string(c.rowCount(t.api_calls)) +
         " counters=" + std::to_string(c.rowCount(t.counters)) +
         " dropped=" + std::to_string(c.stat("collector.dropped_records"));
}

void CollectorImpl::closeWindow(const char* reason) {
  if (!window_) return;
  Window& win = *window_;
  setNvtxRecording(false);
  {
    std::lock_guard<std::mutex> lock(gpu_mutex_);
    stopGpuLocked();  // forced flush: every buffer is now in the pool
    window_open_ = false;
  }
  if (sampler_) sampler_->stop();
  const bool failed = std::string_view(reason) == "write error";
  if (!failed) {
    drainGpu();
    drainNvtx();
    drainSampler();
    const int64_t end = nowNs();
    win.nvtx->closeAll(end);
    win.gpu->resolvePending(/*final_commit=*/true);
    updateStats();
    win.capture->setMeta("collector.window_end_ns", std::to_string(end));
    win.capture->setMeta("collector.end_reason", reason);
    if (Status s = win.capture->finish(); !s.ok()) sayWriteFailure(s);
  } else {
    inert_ = true;  // a file that cannot be written: record nothing more
  }
  const std::string path = win.capture->path();
  const std::string done_summary = summary();
  sampler_.reset();
  if (win.job) {
    std::lock_guard<std::mutex> lock(mutex_);
    win.job->state = AttachJob::State::kDone;
    win.job->summary = done_summary;
    if (failed) win.job->summary += " error=write_failed";
  }
  cv_.notify_all();
  window_.reset();
  if (!win.job) auto_window_done_ = true;
}

// --- Writer thread ---------------------------------------------------------------

void CollectorImpl::writerMain() {
  pthread_setname_np(pthread_self(), "damscope-writer");
  try {
    writerLoop();
  } catch (const std::exception& e) {
    say(std::string("internal error in the writer thread: ") + e.what() + "; recording stopped");
    setNvtxRecording(false);
  } catch (...) {
    say("internal error in the writer thread; recording stopped");
    setNvtxRecording(false);
  }
  {
    std::lock_guard<std::mutex> lock(gpu_mutex_);
    stopGpuLocked();
    window_open_ = false;
  }
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
    if (const int sig = g_signal.load(std::memory_order_relaxed); sig != 0) {
      closeWindow((std::string("signal ") + signalName(sig)).c_str());
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
      drainNvtx();
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
        {
          // Ask CUPTI for the buffers completed so far, so the commit holds
          // GPU activity up to about a second ago.
          std::lock_guard<std::mutex> lock(gpu_mutex_);
          if (gpu_active_) cupti_->flush(false);
        }
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
    // While a window is open the rings are drained every millisecond; a
    // thread's 256 KiB ring then absorbs bursts of several hundred thousand
    // NVTX events per second. Dormant, 20 ms costs nothing measurable.
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait_for(lock, std::chrono::milliseconds(window_ ? 1 : 20),
                 [&] { return stopping_ || (job_ && job_->state == AttachJob::State::kQueued); });
  }
}

void CollectorImpl::shutdown() {
  std::unique_lock<std::mutex> lock(mutex_);
  stopping_ = true;
  cv_.notify_all();
  cv_.wait_for(lock, std::chrono::milliseconds(kExitWaitMs), [&] { return writer_done_; });
  if (!writer_done_) say("the trace could not be finished in time; it holds the last commit");
  if (!socket_path_.empty()) ::unlink(socket_path_.c_str());
}

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
      ::listen(fd, 4) != 0) {
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

void CollectorImpl::controlMain(int listen_fd) {
  pthread_setname_np(pthread_self(), "damscope-ctl");
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_ || writer_done_) break;
    }
    pollfd p{listen_fd, POLLIN, 0};
    if (::poll(&p, 1, 200) <= 0) continue;
    const int fd = ::accept4(listen_fd, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    // Each connection on its own thread: an attach waits for its whole
    // window, and meanwhile another must still get its answer.
    if (connections_.fetch_add(1) >= kMaxConnections) {
      writeAll(fd, "error too many attach connections\n");
      ::close(fd);
      connections_.fetch_sub(1);
      continue;
    }
    try {
      std::thread([this, fd] {
        try {
          serveAttach(fd);
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
  ::close(listen_fd);
}

void CollectorImpl::serveAttach(int fd) {
  if (!peerAllowed(peerUid(fd), getuid())) {
    writeAll(fd, "error permission denied: only uid " + std::to_string(getuid()) +
                     " may attach to this process\n");
    return;
  }
  std::string pending;
  bool closed = false;
  std::optional<std::string> line = readLine(fd, pending, 5000, &closed);
  if (!line) return;
  Result<CaptureRequest> request = parseCaptureRequest(*line);
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
    if (CollectorImpl* impl = g_impl.load(); impl && impl->owner() == getpid()) {
      impl->onCudaInitialized();
    }
  } catch (...) {
  }
}

}  // namespace damscope::collector
