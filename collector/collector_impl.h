// The collector's implementation (collector.h is its face), private to
// collector/. One class, in three files by concern:
//   collector.cc          start-up, GPU tracing, the writer thread's loop,
//                         exit, and the process-wide entry
//   collector_window.cc   capture windows: open, drain, commit, close
//   collector_control.cc  the attach control socket (--on-demand)
// and, outside the class, process_signals.cc: the program's SIGINT/SIGTERM
// and fatal signals, handed to the writer through atomics.
// Threads: the writer (all decoding and writing, the window life cycle), the
// control thread and one thread per attach connection (--on-demand only), the
// CPU sampler and the store thread (while a window is open). Application
// threads enter only through the NVTX handlers (lock-free rings), CUPTI's
// buffer callbacks (lock-free pool) and onCudaInitialized (once, in cuInit).
//
// Locks. No collector lock is held across a call into CUPTI: a cupti*
// function, called directly or through CuptiSession (which also covers
// CuptiSession::load). The locks are gpu_mutex_ and mutex_ (below, with what
// each guards), and the leaf locks of CpuSampler and BatchStore, private to
// those classes and held only to hand samples or batches from one thread to
// another, calling nothing meanwhile. Why: a CUPTI call takes CUPTI's (and the
// driver's) internal locks and may wait for CUPTI's own threads —
// cuptiActivityFlushAll "is a blocking call" that returns the buffers "using
// the callback registered in cuptiActivityRegisterCallbacks", which CUPTI's
// worker thread runs (cupti_activity.h, CUPTI 13.0: cuptiActivityFlushAll,
// cuptiActivityFlushPeriod) — while CUPTI and the driver call into damscope
// from inside their own calls, where such locks may be held: the buffer
// callbacks, and InitializeInjection inside cuInit (onCudaInitialized, which
// takes gpu_mutex_). A collector lock held across a CUPTI call and taken on
// such a path closes a cycle, a deadlock.
// libkineto keeps the same rule: "Can't hold mutex_ during this call, since
// bufferCompleted will be called by libcupti and mutex_ is acquired there"
// (libkineto/src/CuptiActivityApi.cpp, activityBuffers). The callbacks here
// take no lock at all (buffer_pool.h; the timestamp callback reads a clock),
// so the rule holds whatever CUPTI runs them under. What a CUPTI call needs
// is owned by one thread instead (cuda_phase_). tests/collector_lock_test.cc
// checks the rule at every CUPTI entry point.
#pragma once

#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "collector/buffer_pool.h"
#include "collector/capture_writer.h"
#include "collector/collector_config.h"
#include "collector/control_channel.h"
#include "collector/counter_session.h"
#include "collector/cpu_sampler.h"
#include "collector/cupti_session.h"
#include "collector/exit_order.h"
#include "collector/gpu_activity_rows.h"
#include "collector/lost_span_rows.h"
#include "collector/measured_kernel_rows.h"
#include "collector/nvtx_assembler.h"
#include "collector/output_naming.h"

namespace damscope::collector {

constexpr const char* kCollectorVersion = "0.1.0";

int64_t nowNs(clockid_t clock = CLOCK_REALTIME);
// stderr is the only channel to the user; every message is one line.
void say(const std::string& message);
const char* envOrNull(const char* name);

// A window request from the control thread, served by the writer.
struct AttachJob {
  CaptureRequest request;
  enum class State { kQueued, kStarted, kRejected, kDone } state = State::kQueued;
  std::string path, message, summary;
  bool stop = false;
};

class CollectorImpl {
 public:
  // tests/collector_lock_test.cc: reaches the locks to check the lock rule.
  friend struct CollectorLockProbe;

  CollectorImpl(CollectorConfig config, RankInfo rank);

  bool start();
  void onCudaInitialized();
  void shutdown();
  pid_t owner() const { return owner_pid_; }

 private:
  struct Window {
    std::unique_ptr<CaptureWriter> capture;
    std::unique_ptr<GpuActivityRows> gpu;
    std::unique_ptr<MeasuredKernelRows> measured;  // with --counters
    CounterSession::Counts counters_at_open;
    std::unique_ptr<NvtxAssembler> nvtx;
    int number = 0;
    AttachJob* job = nullptr;  // nullptr: the window record opened
    int64_t start_ns = 0;
    int64_t end_ns = 0;  // 0: no time limit
    int64_t steps_target = 0, steps_seen = 0;
    int64_t last_commit_mono = 0;
    int64_t nvtx_dropped_at_open = 0, pool_exhausted_at_open = 0, sampler_late_at_open = 0;
    int64_t cupti_dropped = 0, unreadable_buffers = 0;
    std::unique_ptr<LostSpanRows> lost;  // where the losses lie (lost_span_rows.h)
    // Past the size limit (config_.max_file_bytes): rows are counted, not written.
    bool over_size = false;
    int64_t dropped_after_max_size = 0;
    StringId thread_pct, process_pct, rss;
  };

  // Window life cycle (writer thread, or start() before the writer runs).
  bool openWindow(AttachJob* job, std::string* error);
  void closeWindow(const char* reason);
  void commitWindow();
  // Stops writing rows once the file nears its size limit (commitWindow).
  void checkSizeLimit();
  // A thread of the program took a fatal signal: commit everything buffered
  // and wait until it is written, with `reason` as the provisional end
  // reason (the window goes on if the program survives its signal).
  void saveBeforeFatalSignal(const char* reason);
  // Updates the stats and lost_spans as of `now` (the commit's time).
  void updateStats(int64_t now);
  std::string summary() const;

  // GPU tracing, by the thread that owns the GPU state (cuda_phase_); no
  // lock held. startGpu is a no-op while tracing.
  void startGpu();
  void stopGpu();
  bool writerOwnsGpu() const {
    return cuda_phase_.load(std::memory_order_acquire) == CudaPhase::kInitialized;
  }
  void handGpuToWriter();
  // The window is closing: no new start may begin; waits out one in progress
  // in onCudaInitialized, then stops tracing (writer thread).
  void closeGpuWindow();
  void setGpuStatus(const std::string& status);
  std::string gpuStatus();
  // --counters cannot be measured in this process: stores the reason (meta
  // collector.counters) and says so once.
  void countersUnavailable(const std::string& reason);
  // The meta collector.counters value (writer thread).
  std::string countersStatus();

  // Draining (writer thread). drainNvtx returns the most events it took from
  // one thread's ring.
  size_t drainNvtx();
  void drainGpu();
  void drainSampler();
  int64_t nvtxDropped();

  void writerMain();
  void writerLoop();
  void controlMain(int listen_fd);
  // Serves one attach whose request line has arrived (checked peer); `pending`
  // holds what the connection sent after it.
  void serveAttach(int fd, const std::string& request_line, std::string pending);
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
  int drain_wait_ms_ = 1;  // writer thread: the wait before the next drain while recording
  int windows_opened_ = 0;
  bool auto_window_done_ = false;
  bool inert_ = false;  // after a write error or an internal failure
  NvtxNames nvtx_names_;
  std::unordered_map<int64_t, std::string> comm_names_;
  std::unordered_map<uint32_t, DeviceActivity> devices_;
  std::unique_ptr<CpuSampler> sampler_;
  std::vector<BufferPool::Filled> filled_;
  std::vector<CpuSample> samples_;

  // GPU state. The CUPTI session and what goes with it belong to one thread
  // at a time, so no lock is needed to call CUPTI: until CUDA initializes,
  // nobody calls CUPTI; while an application thread starts CUPTI inside cuInit
  // (onCudaInitialized: the program's first CUDA work must be recorded, and
  // cuInit cannot wait for another thread), that thread; from then on, the
  // writer. The hand-over is cuda_phase_ (a release store under gpu_mutex_,
  // an acquire load by the writer); the writer waits for it only to close a
  // window, holding nothing CUPTI or the starting thread needs.
  enum class CudaPhase { kNotInitialized, kStarting, kInitialized };
  // Guards the fields marked gpu_mutex_ and cuda_phase_'s changes; held for
  // a few loads and stores, never across a CUPTI call.
  std::mutex gpu_mutex_;
  std::condition_variable gpu_handed_over_;  // cuda_phase_ left kStarting
  std::atomic<CudaPhase> cuda_phase_{CudaPhase::kNotInitialized};
  bool window_open_ = false;                                        // gpu_mutex_
  std::string gpu_status_ = "the process did not initialize CUDA";  // gpu_mutex_
  std::string counters_unavailable_;  // gpu_mutex_; why --counters cannot be measured
  // The owner's (cuda_phase_).
  bool gpu_active_ = false;
  std::unique_ptr<CuptiSession> cupti_;
  std::unique_ptr<BufferPool> pool_;
  std::unique_ptr<CounterSession> counters_;       // with --counters, once CUPTI is loaded
  std::vector<MeasuredLaunch> measured_launches_;  // the writer's, reused
  ExitOrder exit_order_;                           // the writer's, while gpu_active_

  // Attach jobs and shutdown; never held across a CUPTI call.
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

}  // namespace damscope::collector
