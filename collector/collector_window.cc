// Capture windows of the collector: opening one (its file, its row
// builders, the sampler, NVTX and GPU tracing), draining rings, buffers and
// samples into it, committing, and closing it (collector_impl.h).
#include <algorithm>
#include <string_view>

#include "collector/collector_impl.h"
#include "collector/nvtx_hooks.h"
#include "collector/nvtx_registry.h"
#include "collector/process_signals.h"

namespace damscope::collector {

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
  c.setMeta("collector.version", kCollectorVersion);
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
  if (config_.counters.any()) {
    w->measured = std::make_unique<MeasuredKernelRows>(c, config_.counters);
    w->gpu->setKernelObserver([measured = w->measured.get()](uint32_t correlation, int64_t row) {
      measured->onKernel(correlation, row);
    });
    c.setMeta("collector.counters_requested", counterListText(config_.counters));
  }
  w->nvtx = std::make_unique<NvtxAssembler>(c, nvtx_names_, w->start_ns);
  Window* raw = w.get();
  w->nvtx->setStepObserver([raw](int64_t start, int64_t) {
    if (start >= raw->start_ns) ++raw->steps_seen;
  });
  w->thread_pct = c.intern("cpu_thread_utilization_pct");
  w->process_pct = c.intern("cpu_process_utilization_pct");
  w->rss = c.intern("memory_rss_bytes");
  w->nvtx_dropped_at_open = nvtxDropped();
  w->lost = std::make_unique<LostSpanRows>(c, w->start_ns);
  window_ = std::move(w);
  bool writer_starts_gpu = false;
  {
    std::lock_guard<std::mutex> lock(gpu_mutex_);
    window_open_ = true;
    // Before CUDA initializes, onCudaInitialized starts tracing (it sees
    // window_open_); the pool does not exist yet.
    writer_starts_gpu = cuda_phase_.load() == CudaPhase::kInitialized;
  }
  if (writer_starts_gpu) {
    window_->pool_exhausted_at_open = pool_ ? pool_->exhaustedCount() : 0;
    if (counters_) window_->counters_at_open = counters_->counts();
    startGpu();
  }
  if (config_.sample_hz > 0) {
    sampler_ = std::make_unique<CpuSampler>(config_.sample_hz);
    sampler_->start();
  }
  setNvtxRecording(true);
  setWindowOpenForSignals(true);
  // The status keeps this reason only until CUDA initializes, so tracing
  // cannot be on.
  if (const std::string status = gpuStatus(); status.rfind("no NVIDIA driver", 0) == 0) {
    sayOnce("gpu:" + status, "GPU activity cannot be recorded: " + status +
                                 "; recording NVTX ranges and CPU samples only");
    countersUnavailable(status);
  }
  const std::string path = window_->capture->path();
  commitWindow();
  if (!window_) {
    *error = path + ": the first write failed";
    return false;
  }
  return true;
}

int64_t CollectorImpl::nvtxDropped() {
  int64_t dropped = 0;
  NvtxRegistry::instance().forEachSlot([&](NvtxThreadSlot& s) { dropped += s.ring.dropped(); });
  return dropped;
}

size_t CollectorImpl::drainNvtx() {
  size_t busiest = 0;
  NvtxRegistry::instance().forEachSlot([&](NvtxThreadSlot& slot) {
    const int64_t tid = slot.tid.load(std::memory_order_acquire);
    const size_t drained = slot.ring.drain([&](const NvtxEventHeader& h, const uint8_t* message) {
      if (window_) {
        window_->nvtx->onEvent(tid, h, message);
      } else {
        applyNvtxNaming(h, message, nvtx_names_);
      }
    });
    busiest = std::max(busiest, drained);
    NvtxRegistry::recycleIfDone(slot);
  });
  return busiest;
}

void CollectorImpl::drainGpu() {
  if (!writerOwnsGpu() || !pool_) return;
  if (counters_ && window_ && window_->measured) {
    measured_launches_.clear();
    counters_->take(measured_launches_);
    for (const MeasuredLaunch& m : measured_launches_) {
      window_->measured->onMeasured(m.correlation_id, m.values);
    }
  }
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

void CollectorImpl::updateStats(int64_t now) {
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
  c.setMeta("collector.gpu", gpuStatus());
  if (writerOwnsGpu()) {
    // Also after stopGpu: the count stop() read last.
    if (cupti_) w.cupti_dropped += cupti_->takeDroppedRecords();
    pool_exhausted = pool_ ? pool_->exhaustedCount() - w.pool_exhausted_at_open : 0;
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
  // What was lost since the previous commit was lost within that interval.
  w.lost->atCommit("collector.cupti_dropped_records", w.cupti_dropped, now);
  w.lost->atCommit("collector.nvtx_ring_overflow", nvtx_dropped, now);
  w.lost->atCommit("collector.dropped_after_max_size", w.dropped_after_max_size, now);
  w.lost->committed(now);
  set("collector.cupti_dropped_records", w.cupti_dropped,
      "GPU activity records CUPTI dropped for lack of buffer space "
      "(cuptiActivityGetNumDroppedRecords)");
  set("collector.buffer_pool_exhausted", pool_exhausted,
      "times CUPTI asked for a buffer while all of the pool's buffers were in use "
      "(raise --buffers or --buffer-size)");
  set("collector.nvtx_ring_overflow", nvtx_dropped,
      "NVTX events dropped because a thread's ring was full (the writer fell behind)");
  set("collector.dropped_after_max_size", w.dropped_after_max_size,
      "events not written because the file reached its size limit (--max-size)");
  set("collector.unreadable_buffers", w.unreadable_buffers,
      "CUPTI buffers whose walk stopped at an invalid or incomplete record");
  set("collector.dropped_records", w.cupti_dropped + nvtx_dropped,
      "all events lost while recording: CUPTI's dropped records plus NVTX ring overflow");
  if (w.measured) {
    c.setMeta("collector.counters", countersStatus());
    CounterSession::Counts n;
    if (writerOwnsGpu() && counters_) n = counters_->counts();
    const CounterSession::Counts& at_open = w.counters_at_open;
    // Written even when 0: a recording with --counters says how many it measured.
    c.addStat("collector.counters_measured_launches",
              n.measured - at_open.measured - c.stat("collector.counters_measured_launches"),
              "kernel launches whose hardware counters were read (--counters)");
    set("collector.counters_replay_ns", n.measured_ns - at_open.measured_ns,
        "ns the program spent inside measured launches: the kernel, its replays and the "
        "counter readout (the cost of --counters)");
    set("collector.counters_busy_launches", n.busy - at_open.busy,
        "kernel launches not measured because another thread's launch was being measured");
    set("collector.counters_lost",
        (n.ring_full - at_open.ring_full) + (n.ranges_dropped - at_open.ranges_dropped),
        "measured launches whose values were lost (the collector's ring was full, or CUPTI "
        "dropped the range)");
    set("collector.counters_unmatched", w.measured->unmatched(),
        "measured launches whose kernel record never arrived: no kernel_metrics row");
    set("collector.counters_tensor_kernels", w.measured->tensorKernels(),
        "measured kernels that issued tensor-core instructions: FLOPs not measured (only SASS "
        "floating-point instructions are counted), DRAM bytes kept");
  }
  if (sampler_) {
    set("collector.cpu_samples_late", sampler_->late() - w.sampler_late_at_open,
        "CPU samples taken more than a period late (the sampler thread was not scheduled)");
  }
}

void CollectorImpl::checkSizeLimit() {
  Window& w = *window_;
  if (config_.max_file_bytes <= 0) return;
  if (w.over_size) {
    w.dropped_after_max_size += w.capture->discardPendingRows();
    return;
  }
  // SQLite refuses pages past the limit itself (capture_writer.cc), and then
  // the file could not take even its last stats. So writing stops earlier,
  // with an eighth of the limit (64 KiB to 64 MiB) left for meta and stats
  // and for the batch under way.
  // The batch counts at 128 bytes a row, above what rows of the event
  // tables take in SQLite without indexes (about 40-100 bytes), so that a
  // burst cannot carry the file past the limit in one commit.
  const int64_t reserve = std::clamp<int64_t>(config_.max_file_bytes / 8, 64 << 10, 64 << 20);
  const int64_t projected =
      w.capture->fileBytes() + 128 * static_cast<int64_t>(w.capture->pendingRows());
  if (projected < config_.max_file_bytes - reserve) return;
  w.over_size = true;
  w.dropped_after_max_size += w.capture->discardPendingRows();
  say(w.capture->path() + ": reached the size limit of " +
      std::to_string(config_.max_file_bytes >> 20) +
      " MB (--max-size); events from now on are not written, only counted (stats "
      "collector.dropped_after_max_size); the program runs on; --max-size 0 lifts the limit");
}

void CollectorImpl::commitWindow() {
  Window& w = *window_;
  w.gpu->resolvePending();
  if (w.measured) w.measured->resolvePending();
  checkSizeLimit();
  updateStats(nowNs());
  // Everything that ended before this moment is in this commit (the rings
  // were drained within the last millisecond). If the process is killed, the
  // finalizer measures what is missing from here (trace_finalizer.h).
  w.capture->setMeta("collector.last_commit_ns", std::to_string(nowNs()));
  w.last_commit_mono = nowNs(CLOCK_MONOTONIC);
  if (Status s = w.capture->commit(); !s.ok()) {
    sayWriteFailure(s);
    closeWindow("write error");
  }
}

void CollectorImpl::saveBeforeFatalSignal(const char* reason) {
  if (!window_) return;
  // No CUPTI call here: the crashed thread may be inside the driver, holding
  // its locks. GPU buffers CUPTI has already completed are written.
  drainNvtx();
  drainGpu();
  drainSampler();
  window_->capture->setMeta("collector.end_reason", reason);
  window_->capture->setMeta("collector.window_end_ns", std::to_string(nowNs()));
  commitWindow();
  if (!window_) return;  // the commit failed and closed the window
  if (Status s = window_->capture->waitUntilWritten(); !s.ok()) sayWriteFailure(s);
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
  setWindowOpenForSignals(false);
  setNvtxRecording(false);
  closeGpuWindow();  // forced flush: every buffer is now in the pool
  if (sampler_) sampler_->stop();
  const bool failed = std::string_view(reason) == "write error";
  if (!failed) {
    drainGpu();
    drainNvtx();
    drainSampler();
    const int64_t end = nowNs();
    win.nvtx->closeAll(end);
    win.gpu->resolvePending(/*final_commit=*/true);
    if (win.measured) win.measured->resolvePending(/*final_commit=*/true);
    checkSizeLimit();  // the last batch too
    updateStats(end);
    win.capture->setMeta("collector.window_end_ns", std::to_string(end));
    win.capture->setMeta("collector.end_reason", reason);
    if (Status s = win.capture->finish(); !s.ok()) sayWriteFailure(s);
  } else {
    inert_ = true;  // a file that cannot be written: record nothing more
  }
  const std::string done_summary = summary();
  sampler_.reset();
  if (win.job) {
    std::lock_guard<std::mutex> lock(mutex_);
    win.job->state = AttachJob::State::kDone;
    win.job->summary = done_summary;
    if (failed) win.job->summary += " error=write_failed";
  }
  cv_.notify_all();
  if (!win.job) auto_window_done_ = true;
  window_.reset();  // `win` with it
}

}  // namespace damscope::collector
